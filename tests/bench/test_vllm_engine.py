# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""``engine=vllm`` on ``run:`` / ``hf:`` agents, through a stand-in ``vllm`` module.

No GPU and no vLLM here: ``FakeVLLM`` implements the call surface ``agentgym_train.vllm_engine``
uses, as read from vLLM 0.34.0 (``LLM(model, tokenizer=, dtype=, seed=, generation_config=,
enable_lora=, max_lora_rank=, gpu_memory_utilization=)``, ``LLM.generate(prompts,
sampling_params, use_tqdm=, lora_request=)``, ``SamplingParams``, ``TokensPrompt``,
``vllm.lora.request.LoRARequest``, ``RequestOutput.outputs[0].token_ids``), and answers with the
greedy continuation of the same tiny model (plus the LoRA adapter folder it is pointed at, read
with peft), so the tests check what goes in and what comes out, not vLLM itself.
"""

from __future__ import annotations

import copy
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar
from unittest import mock

import pytest

from tests.train.support import require_train_extra

require_train_extra()

import gymnasium as gym
import torch
from agentgym_bench import trained_agent
from agentgym_bench.trained_agent import make_trained_agent

from agentgym_envs.core.episode import play_episode
from agentgym_train import vllm_engine
from agentgym_train.checkpoint import save_checkpoint
from agentgym_train.config import save_config
from agentgym_train.models import base_model_path
from agentgym_train.policy import Policy
from agentgym_train.trainer import EVAL_SEED_BASE
from agentgym_train.vllm_engine import choose_engine, vllm_engine_for
from tests.train.support import config_for

SEEDS = [EVAL_SEED_BASE + i for i in range(3)]
GENERATE = (
    "policy.tiny_pretrain_steps=0",
    "policy.tiny_corpus_episodes=40",
    "rollout.action_mode=generate",
    "rollout.max_new_tokens=8",
)
#: the ``LLM`` keyword arguments vLLM 0.34 takes that the engine may pass
LLM_KWARGS = {"tokenizer", "dtype", "seed", "gpu_memory_utilization", "generation_config",
              "enable_lora", "max_lora_rank"}  # fmt: skip
#: the real answer of this machine, for the stand-in's own loading (the tests say a GPU is there)
CPU_ONLY = torch.cuda.is_available


# ---- the stand-in vllm ---------------------------------------------------------------------
@dataclass
class SamplingParams:
    n: int = 1
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = 0
    max_tokens: int | None = 16
    stop_token_ids: list[int] | None = None
    seed: int | None = None
    detokenize: bool = True

    def __post_init__(self) -> None:  # as vLLM: temperature 0 is greedy, top-p/top-k reset
        if self.temperature < 1e-5:
            self.top_p, self.top_k = 1.0, 0


def TokensPrompt(**fields: Any) -> dict[str, Any]:  # a TypedDict in vLLM: called, a dict
    assert set(fields) == {"prompt_token_ids"}, fields
    return dict(fields)


@dataclass
class LoRARequest:
    lora_name: str
    lora_int_id: int
    lora_path: str = ""

    def __post_init__(self) -> None:
        assert self.lora_int_id > 0 and self.lora_path


@dataclass
class CompletionOutput:
    index: int
    text: str
    token_ids: list[int]
    cumulative_logprob: float | None = None
    logprobs: Any = None
    finish_reason: str | None = None


@dataclass
class RequestOutput:
    request_id: str
    prompt_token_ids: list[int]
    outputs: list[CompletionOutput]
    finished: bool = True


@dataclass
class Call:
    prompts: list[dict[str, Any]]
    params: list[SamplingParams]
    lora_request: LoRARequest | None


class LLM:
    """Greedy decoding of the model at ``model`` (and the LoRA adapter a request names), one
    prompt at a time without padding: what vLLM's greedy play should return."""

    made: ClassVar[list[LLM]] = []

    def __init__(self, model: str, **kwargs: Any) -> None:
        from transformers import AutoModelForCausalLM

        assert set(kwargs) <= LLM_KWARGS, set(kwargs) - LLM_KWARGS
        self.model_path, self.kwargs = model, kwargs
        with mock.patch.object(torch.cuda, "is_available", CPU_ONLY):
            self.lm = AutoModelForCausalLM.from_pretrained(model, dtype=torch.float32).eval()
        self.calls: list[Call] = []
        self.adapters: dict[str, Any] = {}
        LLM.made.append(self)

    def generate(
        self,
        prompts: list[dict[str, Any]],
        sampling_params: SamplingParams | list[SamplingParams] | None = None,
        *,
        use_tqdm: bool = True,
        lora_request: LoRARequest | None = None,
    ) -> list[RequestOutput]:
        params = sampling_params if isinstance(sampling_params, list) else [sampling_params]
        params = params * len(prompts) if len(params) == 1 else params
        assert all(isinstance(p, SamplingParams) for p in params)
        self.calls.append(Call(list(prompts), list(params), lora_request))
        lm = self.lm
        if lora_request is not None:
            assert self.kwargs.get("enable_lora"), "a LoRA request to an engine without LoRA"
            if lora_request.lora_path not in self.adapters:
                from peft import PeftModel

                base = copy.deepcopy(self.lm)  # peft changes the model it wraps in place
                with mock.patch.object(torch.cuda, "is_available", CPU_ONLY):  # (no pinning)
                    adapter = PeftModel.from_pretrained(base, lora_request.lora_path)
                self.adapters[lora_request.lora_path] = adapter.eval()
            lm = self.adapters[lora_request.lora_path]
        outputs = []
        for number, (prompt, param) in enumerate(zip(prompts, params, strict=True)):
            ids, out, reason = list(prompt["prompt_token_ids"]), [], "length"
            while len(out) < (param.max_tokens or 16):
                with torch.no_grad():
                    logits = lm(input_ids=torch.tensor([ids + out])).logits[0, -1]
                out.append(int(logits.argmax()))  # greedy, whatever the temperature
                if out[-1] in (param.stop_token_ids or []):
                    reason = "stop"
                    break
            completion = CompletionOutput(0, "", out, finish_reason=reason)
            outputs.append(RequestOutput(str(number), ids, [completion]))
        return outputs


@pytest.fixture
def fake_vllm(monkeypatch) -> types.ModuleType:
    """``vllm`` (with ``vllm.lora.request``) in ``sys.modules``, a CUDA GPU said to be present,
    and the agents' per-process model cache emptied (it would hand back a policy whose engine
    is another test's stand-in)."""
    module = types.ModuleType("vllm")
    module.__version__ = "0.34.0-fake"  # type: ignore[attr-defined]
    module.LLM = LLM  # type: ignore[attr-defined]
    module.SamplingParams = SamplingParams  # type: ignore[attr-defined]
    module.TokensPrompt = TokensPrompt  # type: ignore[attr-defined]
    lora = types.ModuleType("vllm.lora")
    request = types.ModuleType("vllm.lora.request")
    request.LoRARequest = LoRARequest  # type: ignore[attr-defined]
    for name, mod in (("vllm", module), ("vllm.lora", lora), ("vllm.lora.request", request)):
        monkeypatch.setitem(sys.modules, name, mod)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(trained_agent, "_CACHE", {})
    monkeypatch.setattr(LLM, "made", [])
    return module


@pytest.fixture
def no_vllm(monkeypatch) -> None:
    """``import vllm`` fails, whatever is installed; the model cache emptied."""
    monkeypatch.setitem(sys.modules, "vllm", None)
    monkeypatch.setattr(trained_agent, "_CACHE", {})


# ---- a LoRA run in generate mode, written without training -----------------------------------
@pytest.fixture(scope="module")
def lora_run(tmp_path_factory) -> Path:
    """A run directory with one checkpoint of a tiny LoRA policy whose adapters matter (random
    LoRA B weights): config.yaml, base_model/ and checkpoints/update_000001 with adapter/."""
    run_dir = tmp_path_factory.mktemp("vllm") / "run"
    config = config_for(run_dir, "tiny", *GENERATE)
    run_dir.mkdir(parents=True)
    save_config(config, run_dir / "config.yaml")
    base = base_model_path(config, run_dir)
    torch.manual_seed(0)
    policy = Policy.load(base, config.policy, torch.device("cpu"), reference=False)
    with torch.no_grad():
        for name, param in policy.named_parameters():
            if "lora_B" in name:
                param.normal_(0, 0.3)
    optimizer = torch.optim.SGD([p for p in policy.parameters() if p.requires_grad], lr=0.0)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda _: 1.0)
    save_checkpoint(run_dir, 1, policy, optimizer, scheduler, {})
    return run_dir


def play(agent, env: gym.Env) -> list[tuple[list[str | None], list[tuple]]]:
    """Each seed's actions and (prompt ids, completion ids) per turn."""
    played = []
    for seed in SEEDS:
        episode = play_episode(env, agent, seed, agent.loaded.config.rollout.max_turns)
        turns = [(step.prompt_ids, step.completion_ids) for step in agent.episode.steps]
        played.append(([s["action"] for s in episode.steps], turns))
    return played


def test_greedy_play_on_vllm_is_the_transformers_play(lora_run, fake_vllm):
    env = gym.make("AgentGym/Toy-v0", difficulty="easy", split="valid")
    reference = make_trained_agent(env, run=str(lora_run), engine="transformers")
    assert reference.loaded.policy.engine is None
    agent = make_trained_agent(env, run=str(lora_run), engine="vllm")
    assert agent.loaded is not reference.loaded  # the engine is part of the cache key
    expected, got = play(reference, env), play(agent, env)
    assert got == expected
    assert all(turns for _, turns in got)

    (llm,) = LLM.made
    policy, config = agent.loaded.policy, agent.loaded.config
    checkpoint = lora_run / "checkpoints" / "update_000001"
    # the base model with the checkpoint's own PEFT adapter folder: nothing merged or copied
    assert llm.model_path == str(lora_run / "base_model")
    assert llm.kwargs == {
        "tokenizer": str(lora_run / "base_model"),
        "dtype": "bfloat16",  # policy.dtype=auto on CUDA, as Policy.load would compute
        "seed": 0,
        "generation_config": "vllm",
        "enable_lora": True,
        "max_lora_rank": 16,
    }
    assert {call.lora_request.lora_path for call in llm.calls} == {str(checkpoint / "adapter")}
    # each call: the trainer's prompt ids, the policy's sampling settings and EOS ids
    prompts = [turn[0] for _, turns in got for turn in turns]
    assert [p["prompt_token_ids"] for call in llm.calls for p in call.prompts] == prompts
    for call in llm.calls:
        for params in call.params:
            assert params == SamplingParams(
                n=1, temperature=0.0, top_p=1.0, top_k=0,
                max_tokens=config.rollout.max_new_tokens,
                stop_token_ids=list(policy.eos_token_ids), seed=None, detokenize=False,
            )  # fmt: skip

    described = agent.describe()
    assert described["engine"] == "vllm" and described["engine_version"] == "0.34.0-fake"
    assert reference.describe()["engine"] == "transformers"
    # a batch of prompts of unequal lengths (batched play): one call, the same completions
    batch = prompts[:6]
    assert policy.generate(batch, 8, 0.0) == reference.loaded.policy.generate(batch, 8, 0.0)
    assert len(llm.calls[-1].prompts) == len(batch) and len({len(p) for p in batch}) > 1
    # the adapter matters (so the equal play above used it): the base model alone differs
    first = llm.calls[0]
    alone = [o.outputs[0].token_ids for o in llm.generate(first.prompts, first.params)]
    assert alone != [turn[1] for _, turns in got for turn in turns][: len(alone)]
    env.close()


def test_sampled_requests_carry_the_policys_settings_and_torch_seeds(lora_run, fake_vllm):
    env = gym.make("AgentGym/Toy-v0", difficulty="easy", split="valid")
    agent = make_trained_agent(env, run=str(lora_run), engine="vllm")
    policy = agent.loaded.policy
    prompts = [[5, 6, 7], [8, 9]]
    seeds = []
    for _ in range(2):
        torch.manual_seed(3)
        completions = policy.generate(prompts, 5, temperature=0.7, top_p=0.9)
        call = LLM.made[0].calls[-1]
        seeds.append([p.seed for p in call.params])
        assert [p["prompt_token_ids"] for p in call.prompts] == prompts
        assert {(p.temperature, p.top_p, p.top_k, p.max_tokens) for p in call.params} == {
            (0.7, 0.9, 0, 5)
        }
        assert all(len(c) <= 5 for c in completions)
    assert seeds[0] == seeds[1] and None not in seeds[0]  # reproducible from torch's seed
    env.close()


def test_completions_end_at_the_first_eos_or_the_budget(lora_run, fake_vllm):
    from agentgym_train.vllm_engine import VLLMEngine

    engine = VLLMEngine(str(lora_run / "base_model"), (2, 7))
    answer = [3, 4, 7, 5, 2, 6]
    engine.llm.generate = lambda prompts, params, **_: [  # type: ignore[method-assign]
        RequestOutput("0", [], [CompletionOutput(0, "", answer)]) for _ in prompts
    ]
    assert engine.generate([[1], [1, 1]], 10, 0.0) == [[3, 4, 7], [3, 4, 7]]
    answer[:] = [3, 4, 5, 6]
    assert engine.generate([[1]], 3, 0.0) == [[3, 4, 5]]
    assert engine.generate([], 3, 0.0) == []


def test_full_fine_tune_weights_are_written_for_vllm(lora_run, fake_vllm, tmp_path):
    config = config_for(tmp_path, str(lora_run / "base_model"), *GENERATE, "policy.lora=false")
    policy = Policy.load(lora_run / "base_model", config.policy, torch.device("cpu"), False)
    with torch.no_grad():  # weights that differ from the base model's
        policy.model.get_output_embeddings().weight.mul_(1.5)
    prompts = [[5, 6, 7, 8], [9, 10]]
    expected = policy.generate(prompts, 6, 0.0)
    engine = vllm_engine_for(policy, None)
    folder = Path(engine.model)
    assert folder != lora_run / "base_model" and (folder / "config.json").exists()
    assert "enable_lora" not in LLM.made[0].kwargs
    policy.engine = engine
    assert policy.generate(prompts, 6, 0.0) == expected
    del policy.engine, engine
    import gc

    gc.collect()
    assert not folder.exists()  # the temporary folder goes with the engine


def test_hf_agent_serves_the_model_directory(lora_run, fake_vllm):
    from agentgym_bench import agent_specs

    env = gym.make("AgentGym/Toy-v0", difficulty="easy", split="valid")
    model = lora_run / "base_model"
    options = {"engine": "vllm", "overrides": "rollout.action_mode=generate"}
    agent = agent_specs.make(f"hf:{model}", env, options)
    reference = agent_specs.make(f"hf:{model}", env, {**options, "engine": "transformers"})
    assert play(agent, env) == play(reference, env)
    (llm,) = LLM.made
    assert llm.model_path == str(model) and "enable_lora" not in llm.kwargs
    assert {call.lora_request for call in llm.calls} == {None}
    assert agent.describe()["engine"] == "vllm"
    env.close()


def test_auto_picks_vllm_only_with_vllm_a_gpu_and_generate_mode(fake_vllm, monkeypatch):
    assert choose_engine("auto", "generate") == "vllm"
    assert choose_engine("auto", "score") == "transformers"  # vLLM cannot score candidates
    assert choose_engine("transformers", "generate") == "transformers"
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert choose_engine("auto", "generate") == "transformers"
    with pytest.raises(RuntimeError, match="engine=vllm cannot run: no CUDA GPU"):
        choose_engine("vllm", "generate")
    with pytest.raises(ValueError, match="pick one of auto, transformers, vllm"):
        choose_engine("tgi", "generate")


def test_auto_on_this_machine_is_transformers(lora_run, monkeypatch):
    monkeypatch.setattr(trained_agent, "_CACHE", {})
    if vllm_engine.vllm_unavailable() is None:
        pytest.skip("vLLM and a GPU are present: auto picks vLLM here")
    env = gym.make("AgentGym/Toy-v0", difficulty="easy", split="valid")
    agent = make_trained_agent(env, run=str(lora_run))  # engine=auto by default
    assert agent.loaded.policy.engine is None
    described = agent.describe()
    assert described["engine"] == "transformers" and described["engine_version"]
    env.close()


def test_vllm_without_vllm_says_what_is_missing(lora_run, no_vllm):
    env = gym.make("AgentGym/Toy-v0", difficulty="easy", split="valid")
    with pytest.raises(RuntimeError, match="engine=vllm cannot run: vLLM is not installed"):
        make_trained_agent(env, run=str(lora_run), engine="vllm")
    env.close()


def test_score_mode_with_vllm_is_refused(lora_run, fake_vllm):
    env = gym.make("AgentGym/Toy-v0", difficulty="easy", split="valid")
    with pytest.raises(ValueError) as error:
        make_trained_agent(
            env, run=str(lora_run), engine="vllm", overrides="rollout.action_mode=score"
        )
    message = str(error.value)
    assert "\n" not in message and "overrides=rollout.action_mode=generate" in message
    assert not LLM.made  # refused before any model was loaded
    # auto with score mode plays on transformers
    agent = make_trained_agent(env, run=str(lora_run), overrides="rollout.action_mode=score")
    assert agent.loaded.policy.engine is None and agent.describe()["engine"] == "transformers"
    env.close()


def test_engine_option_is_checked(lora_run, fake_vllm):
    env = gym.make("AgentGym/Toy-v0", difficulty="easy", split="valid")
    with pytest.raises(ValueError, match="engine='tgi'"):
        make_trained_agent(env, run=str(lora_run), engine="tgi")
    agent = make_trained_agent(env, run=str(lora_run), engine="vllm", gpu_memory_utilization="0.4")
    assert LLM.made[0].kwargs["gpu_memory_utilization"] == 0.4
    assert agent.describe()["engine"] == "vllm"
    env.close()
