# ruff: noqa: E402 - the imports below follow the skip when the extras are missing
"""AgentGym envs as TRL tool environments (``environment_factory``): the tool schemas TRL reads,
the episode behind the tools, and two GRPO steps with a tiny tool-calling model whose rewards
come from the env's ``get_reward``.

The tiny model is a byte-level BPE tokenizer with TRL's bundled Qwen2.5 chat template (one TRL
parses tool calls from) and a 2-layer Llama taught, in a few seconds, to answer a Toy prompt with
one ``act`` tool call naming any of the rooms it sees (each as often), so a GRPO group's rewards
differ."""

from __future__ import annotations

import inspect
import json
import re

import pytest

from tests.train.support import require_train_extra

require_train_extra()
pytest.importorskip("datasets", reason="needs the trl extra: pip install 'agentgym-suite[trl]'")

import torch
from agentgym_trl import environment_factory, tool_dataset
from agentgym_trl.tools import ACTION_SETS, TOOLS_BY_FAMILY, ToolEnv, tool_env
from transformers.utils import get_json_schema

from agentgym_train.tiny import pretrain, tiny_llama_config
from tests.miniwob.support import needs_browser

TOY = ("AgentGym/Toy-v0", {"difficulty": "easy"})
SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
TOOL_TOKENS = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>"]


def tools_of(env: ToolEnv) -> list:
    """The methods TRL exposes as tools (its rule: public functions but reset and get_reward)."""
    return [getattr(env, name) for name, _ in inspect.getmembers(type(env), inspect.isfunction)
            if name not in ("reset", "get_reward") and not name.startswith("_")]  # fmt: skip


def test_every_tool_has_a_schema_trl_can_render():
    for tools in TOOLS_BY_FAMILY.values():
        for method in tools_of(tools.__new__(tools)):
            schema = get_json_schema(method)["function"]
            assert schema["description"] and all(
                p["description"] for p in schema["parameters"]["properties"].values()
            ), schema


def test_tools_play_one_episode_and_the_reward_is_its_score():
    env = environment_factory(*TOY[:1], **TOY[1])()
    assert [tool.__name__ for tool in tools_of(env)] == ["act"]
    first = env.reset(seed=3, prompt=[{"role": "user", "content": "x"}])  # TRL passes the row
    goal = re.search(r"Find the (\w+) room", first).group(1)
    answer = env.act(f"go to {goal} room")
    assert "The episode is over (success, score 1.00)" in answer and env.get_reward() == 1.0
    assert "no more actions" in env.act("go to hallway") and env.get_reward() == 1.0
    env.reset(seed=3)
    assert env.get_reward() == 0.0 and "Invalid action" in env.act("fly away")
    with pytest.raises(ValueError, match="unknown env id"):
        environment_factory("AgentGym/Nope-v0")


def test_webshop_and_miniwob_tools_write_their_env_actions(monkeypatch):
    sent = []
    monkeypatch.setattr(ToolEnv, "_act", lambda self, action: sent.append(action) or "")
    webshop, miniwob = TOOLS_BY_FAMILY["webshop"], TOOLS_BY_FAMILY["miniwob"]
    shop = webshop.__new__(webshop)
    shop.search("red shoes"), shop.click("Buy Now")
    page = miniwob.__new__(miniwob)
    page.click(4), page.type_text(2, 'say "hi"'), page.press_key("Enter"), page.wait(1)
    assert sent == ["search[red shoes]", "click[buy now]", "click [4]", 'type [2] "say \\"hi\\""',
                    'press "Enter"', "wait 1"]  # fmt: skip


def test_every_action_of_every_family_has_a_tool_with_the_sets_schema():
    for family, actions in ACTION_SETS.items():
        tools = tool_env(actions, "Tools")
        schemas = [get_json_schema(method)["function"] for method in tools_of(tools.__new__(tools))]
        assert [{k: v for k, v in s.items() if k != "return"} for s in schemas] == sorted(
            (tool["function"] for tool in actions.tools()), key=lambda f: f["name"]
        ), family
    for family in ("webshop", "miniwob"):  # their default tools are the set's, toy's is act
        tools = TOOLS_BY_FAMILY[family]
        assert [t.__name__ for t in tools_of(tools.__new__(tools))] == sorted(
            ACTION_SETS[family].names()
        )
    toy = TOOLS_BY_FAMILY["toy"]
    assert ACTION_SETS["toy"].describe() in get_json_schema(toy.act)["function"]["description"]


def test_miniwob_tools_have_the_pointer_actions(monkeypatch):
    sent = []
    monkeypatch.setattr(ToolEnv, "_act", lambda self, action: sent.append(action) or "")
    page = TOOLS_BY_FAMILY["miniwob"].__new__(TOOLS_BY_FAMILY["miniwob"])
    page.drag(3, target=7), page.drag_xy(1, 2, 30, 40.5), page.draw([1, 2, 3, 4, 5, 6])
    page.click_xy(x=10, y=20), page.select_text(2, "two words"), page.noop()
    page.scroll(1, "down"), page.hover(2), page.select_option(5, "Blue")
    assert sent == ["drag [3] to [7]", "drag 1 2 30 40.5", "draw 1 2 3 4 5 6", "click_xy 10 20",
                    'select_text [2] "two words"', "noop", "scroll [1] down", "hover [2]",
                    'select [5] "Blue"']  # fmt: skip


def test_toy_tools_per_action_play_an_episode():
    env = environment_factory(*TOY[:1], action_tools=True, **TOY[1])()
    names = [tool.__name__ for tool in tools_of(env)]
    assert names == ["drop", "go_to", "inventory", "look", "take", "unlock"]
    goal = re.search(r"Find the (\w+) room", env.reset(seed=3)).group(1)
    assert "You carry: nothing." in env.inventory()
    assert "(success, score 1.00)" in env.go_to(f"{goal} room") and env.get_reward() == 1.0
    assert not hasattr(
        environment_factory("AgentGym/WebShop-v0", action_tools=False).func, "search"
    )


@needs_browser
def test_a_miniwob_pointer_tool_plays_a_step_on_a_real_page():
    tools = environment_factory("AgentGym/MiniWoB-drag-items-v0")()
    try:
        tools.reset(seed=2)
        task = tools.env.unwrapped.task
        name, position = re.fullmatch(r"Drag (\w+) to the (\d)\w\w position\.", task.goal).groups()
        items = [n for n in task.nodes if n.get("tag") == "div" and n.get("text")]
        source = next(n["id"] for n in items if n["text"] == name)
        answer = tools.drag(element=source, target=items[int(position) - 1]["id"])
        assert "The episode is over (success, score 1.00)" in answer and tools.get_reward() == 1.0
    finally:
        tools.env.close()


@pytest.fixture(scope="module")
def tool_caller(tmp_path_factory):
    """A tiny Llama + tokenizer with Qwen2.5's chat template, taught to call ``act`` once."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaForCausalLM, PreTrainedTokenizerFast
    from trl.chat_template_utils import qwen2_5_chat_template

    env = environment_factory(*TOY[:1], **TOY[1])()
    schema = [get_json_schema(tool) for tool in tools_of(env)]
    prompts, completions = [], []
    for seed in range(32):  # every room of every prompt: the model learns to pick any of them
        observation = env.reset(seed=seed)
        rooms = re.search(r"Doors lead to: ([^.]+)\.", observation).group(1).split(", ")
        for room in rooms:
            call = {"name": "act", "arguments": {"command": f"go to {room}"}}
            prompts.append([{"role": "user", "content": "Act." + observation}])
            completions.append(f"<tool_call>\n{json.dumps(call)}\n</tool_call>")
    core = Tokenizer(models.BPE())
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=600, special_tokens=SPECIAL,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)  # fmt: skip
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, eos_token="<|im_end|>",
                                        pad_token="<|endoftext|>")  # fmt: skip
    tokenizer.chat_template = qwen2_5_chat_template
    render = {"tools": schema, "tokenize": False, "add_generation_prompt": True}
    rendered = [tokenizer.apply_chat_template(p, **render) for p in prompts]
    core.train_from_iterator(rendered + completions, trainer=trainer)
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, eos_token="<|im_end|>",
                                        pad_token="<|endoftext|>")  # fmt: skip
    tokenizer.add_tokens(TOOL_TOKENS)
    tokenizer.chat_template = qwen2_5_chat_template
    torch.manual_seed(0)
    model = LlamaForCausalLM(tiny_llama_config(tokenizer, bos_token_id=None))
    # teach the completion only: prompt tokens would dominate a plain next-token loss
    texts = [r + c for r, c in zip(rendered, completions, strict=True)]
    pretrain(model, tokenizer, texts, steps=150, batch_size=8, lr=3e-3)
    path = tmp_path_factory.mktemp("tool-caller")
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path, tokenizer


class OpenEnvToy:
    """A served Toy env as TRL's OpenEnv guide writes an environment class: an openenv-core
    client inside, ``reset`` taking the row, one tool method, the reward kept for a reward
    function. Nothing of agentgym_trl: TRL's own OpenEnv path against ``agentgym serve``."""

    def __init__(self, url: str) -> None:
        from openenv.core import GenericEnvClient

        self.client = GenericEnvClient(base_url=url).sync()
        self.client.connect()
        self.reward = 0.0

    def reset(self, seed: int, **row) -> str:
        self.reward = 0.0
        result = self.client.reset(env_id=TOY[0], seed=int(seed), **TOY[1])
        return "\n\n" + result.observation["text"]

    def act(self, command: str) -> str:
        result = self.client.step({"action": command})
        self.reward = float(result.observation["info"]["score"])
        return result.observation["text"]

    act.__doc__ = TOOLS_BY_FAMILY["toy"].act.__doc__  # the schema the tiny model was taught


def _grpo(tool_caller, tmp_path, factory, **extra):
    from transformers import AutoModelForCausalLM
    from trl import GRPOConfig, GRPOTrainer

    path, tokenizer = tool_caller
    torch.set_num_threads(1)
    config = GRPOConfig(
        output_dir=str(tmp_path), per_device_train_batch_size=8, num_generations=8, max_steps=2,
        use_cpu=True, bf16=False, report_to="none", logging_steps=1, save_strategy="no",
        learning_rate=1e-4, max_completion_length=96, max_tool_calling_iterations=1, seed=0,
        temperature=1.0,
    )  # fmt: skip
    trainer = GRPOTrainer(
        model=AutoModelForCausalLM.from_pretrained(path), args=config, processing_class=tokenizer,
        train_dataset=tool_dataset(range(16), instruction="Act."), environment_factory=factory,
        **extra,
    )  # fmt: skip
    trainer.train()
    steps = [h for h in trainer.state.log_history if "reward" in h]
    assert len(steps) == 2
    assert all(0.0 <= h["reward"] <= 1.0 for h in steps)
    assert max(h["reward_std"] for h in steps) > 0  # the env's rewards differed within a group
    assert all(torch.isfinite(torch.tensor(h["loss"])) for h in steps)


@pytest.mark.parametrize("where", ["in-process", "served"])
def test_two_grpo_steps_take_their_rewards_from_the_env(tool_caller, tmp_path, monkeypatch, where):
    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    sent = []
    act = ToolEnv._act
    monkeypatch.setattr(ToolEnv, "_act", lambda self, a: sent.append(a) or act(self, a))
    if where == "in-process":
        _grpo(tool_caller, tmp_path, environment_factory(*TOY[:1], **TOY[1]))
    else:
        with _server() as server:
            served = environment_factory(*TOY[:1], env_url=server.url, **TOY[1])
            _grpo(tool_caller, tmp_path, served)
            assert len(server.sessions.open) == 8  # TRL's pool: a session per generation
    assert sent and all(action.startswith("go to ") for action in sent)  # the calls reached it


def test_trl_openenv_path_trains_on_a_served_env(tool_caller, tmp_path, monkeypatch):
    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    with _server() as server:
        envs = []

        def factory() -> OpenEnvToy:
            envs.append(OpenEnvToy(server.url))
            return envs[-1]

        def reward(environments, **_) -> list[float]:
            return [env.reward for env in environments]

        _grpo(tool_caller, tmp_path, factory, reward_funcs=reward)
        assert len(server.sessions.open) == len(envs) == 8
        for env in envs:
            env.client.close()


def _server():
    pytest.importorskip("agentgym_serve.local", reason="needs the serve extra")
    pytest.importorskip("openenv.core", reason="needs openenv-core (the test extra)")
    from agentgym_serve.local import ThreadServer
    from agentgym_serve.sessions import ServerSettings

    return ThreadServer(ServerSettings((TOY[0],)))
