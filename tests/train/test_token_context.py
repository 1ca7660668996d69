# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""Exact tokens across turns: a turn's prompt is the last turn's prompt and reply as they were
(never re-encoded, never re-rendered by a template that rewrites history), with tiny models
carrying the Llama-3, Qwen2.5 and Qwen3 chat templates (the templates TRL ships)."""

from __future__ import annotations

import shutil
from itertools import pairwise

import pytest

from tests.train.support import require_train_extra

require_train_extra()

import torch

from agentgym_envs.wrappers.prompt import Turn
from agentgym_train.policy import Policy
from agentgym_train.rollout import Job, RolloutCollector
from tests.train.support import config_for

#: the template, the tokens it names, and the end-of-turn token a reply ends with
TEMPLATES = {
    "llama3": ("llama3_chat_template", ["<|start_header_id|>", "<|end_header_id|>"], "<|eot_id|>"),
    "qwen2.5": ("qwen2_5_chat_template", ["<|im_start|>"], "<|im_end|>"),
    "qwen3": ("qwen3_chat_template", ["<|im_start|>", "<think>", "</think>"], "<|im_end|>"),
}
#: multi-turn Toy: hard tasks take several steps
MULTI_TURN = ("rollout.env_kwargs={difficulty: hard}", "rollout.max_turns=3",
              "rollout.max_new_tokens=6")  # fmt: skip


@pytest.fixture(scope="module")
def templated(tiny_dir, tmp_path_factory):
    """The tiny model with a chat template, its tokens added and its end-of-turn as EOS."""
    import trl.chat_template_utils as templates
    from transformers import AutoModelForCausalLM, AutoTokenizer

    made: dict[str, str] = {}

    def model(name: str) -> str:
        if name not in made:
            attribute, tokens, end = TEMPLATES[name]
            path = tmp_path_factory.mktemp(name.replace(".", "_"))
            shutil.copytree(tiny_dir, path, dirs_exist_ok=True)
            tokenizer = AutoTokenizer.from_pretrained(path)
            tokenizer.add_special_tokens({"additional_special_tokens": [*tokens, end]})
            tokenizer.eos_token = end
            tokenizer.chat_template = getattr(templates, attribute)
            network = AutoModelForCausalLM.from_pretrained(path)
            network.resize_token_embeddings(len(tokenizer))
            network.config.eos_token_id = tokenizer.eos_token_id
            network.generation_config.eos_token_id = tokenizer.eos_token_id
            network.save_pretrained(path)
            tokenizer.save_pretrained(path)
            made[name] = str(path)
        return made[name]

    return model


def _collect(model: str, run_dir, mode: str, episodes: int = 6):
    config = config_for(run_dir, model, f"rollout.action_mode={mode}", *MULTI_TURN)
    torch.manual_seed(0)
    policy = Policy.load(model, config.policy, torch.device("cpu"))
    collector = RolloutCollector(policy, config.rollout, config.reward)
    try:
        with torch.no_grad():
            played = collector.collect([Job(seed) for seed in range(episodes)], temperature=1.0)
    finally:
        collector.close()
    return collector.turns, played


@pytest.mark.parametrize("mode", ["score", "generate"])
@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_each_turn_extends_the_last_turns_prompt_and_reply(templated, tmp_path, template, mode):
    turns, played = _collect(templated(template), tmp_path, mode)
    assert turns.use_chat
    tokenizer = turns.policy.tokenizer
    marker = TEMPLATES[template][1][0]
    followed = 0
    for episode in played:
        first = tokenizer.decode(episode.steps[0].prompt_ids)
        assert marker in first and episode.history[0].observation in first  # the template's
        for (last, step), turn in zip(pairwise(episode.steps), episode.history[1:], strict=True):
            stream = [*last.prompt_ids, *last.completion_ids]
            assert step.prompt_ids[: len(stream)] == stream  # the reply as sampled, unchanged
            added = tokenizer.decode(step.prompt_ids[len(stream) :])
            assert turn.observation in added and added.count(marker) >= 1
            followed += 1
    assert followed >= 4, "too few multi-turn episodes to check"


def test_a_template_that_strips_thinking_cannot_rewrite_a_recorded_turn(templated, tmp_path):
    """Qwen3's template drops ``<think>...</think>`` from earlier assistant turns: rendered whole,
    the next prompt would show the turn without the reasoning the model sampled; appended, it
    shows it as sampled."""
    turns, _ = _collect(templated("qwen3"), tmp_path, "generate", episodes=1)
    context, encode = turns.context, turns.encode
    observation, admissible = "You are in the hallway.", ["look"]
    prompt = context.first([], observation, admissible)
    reply = [
        *encode("<think>\nthe red door</think>\n\nAction: look"),
        turns.policy.eos_token_ids[0],
    ]
    history = [Turn(observation, turns.policy.tokenizer.decode(reply, skip_special_tokens=False))]
    following = context.follow(prompt, reply, history, "Nothing happens.", admissible)
    assert following[: len(prompt) + len(reply)] == [*prompt, *reply]
    assert "the red door" in turns.policy.tokenizer.decode(following)
    rendered = context.render(history, "Nothing happens.", admissible)
    assert "the red door" not in rendered  # what re-rendering each turn used to show


@pytest.mark.parametrize("mode", ["score", "generate"])
@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_update_sees_the_rollout_policy_across_turns(templated, tmp_path, template, mode):
    from agentgym_train.trainer import Trainer

    config = config_for(tmp_path, templated(template), "updates=1", f"rollout.action_mode={mode}",
                        "checkpoint.every=0", "rollout.episodes_per_update=8",
                        *MULTI_TURN)  # fmt: skip
    metrics = Trainer(config).train()
    assert abs(metrics["loss/approx_kl_prestep"]) < 1e-4  # ~0, rounding aside


def test_a_prompt_past_the_history_budget_is_rendered_afresh(policy_turns):
    context = policy_turns.context
    history = [Turn("You are in the hallway. " * 4, "Action: look")]
    prompt = context.first([], history[0].observation, ["look"])
    reply = policy_turns.candidate_ids("look")
    kept = context.follow(prompt, reply, history, "Nothing happens.", ["look"])
    assert kept[: len(prompt) + len(reply)] == [*prompt, *reply]
    context.formatter.max_history_tokens = 30  # the past turn no longer fits
    fresh = context.follow(prompt, reply, history, "Nothing happens.", ["look"])
    assert fresh == context.first(history, "Nothing happens.", ["look"]) != kept
    assert "[1 earlier turn(s) omitted]" in policy_turns.policy.tokenizer.decode(fresh)


def test_cloning_examples_are_built_as_the_rollout_builds_prompts(tiny_dir, tmp_path):
    from agentgym_train.bc import examples_from, oracle_trajectories

    config = config_for(tmp_path, tiny_dir, "rollout.action_mode=score", *MULTI_TURN)
    policy = Policy.load(tiny_dir, config.policy, torch.device("cpu"))
    collector = RolloutCollector(policy, config.rollout, config.reward, num_envs=1)
    try:
        trajectories = oracle_trajectories(collector, episodes=3)
        examples = examples_from(collector, trajectories)
    finally:
        collector.close()
    chained = 0
    for (prompt, reply), (following, _) in pairwise(examples):
        if following[: len(prompt) + len(reply)] == [*prompt, *reply]:
            chained += 1
    turns = sum(len(t["steps"]) for t in trajectories)
    assert turns > len(trajectories)  # multi-turn episodes
    assert chained == turns - len(trajectories)  # every step after an episode's first


@pytest.fixture
def policy_turns(tiny_dir, tmp_path):
    config = config_for(tmp_path, tiny_dir, "rollout.action_mode=score", *MULTI_TURN)
    policy = Policy.load(tiny_dir, config.policy, torch.device("cpu"))
    from agentgym_train.rollout import PolicyTurns

    return PolicyTurns(policy, config.rollout, "go to <room>, look")
