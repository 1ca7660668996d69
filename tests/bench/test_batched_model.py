# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""``hf:`` agents in batches: one left-padded model call per turn plays every episode as
one-at-a-time play does (greedy), with the same prompts."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.train.support import require_train_extra

require_train_extra()

from agentgym_bench.player import EpisodePlayer
from agentgym_bench.replay import verify_run
from agentgym_bench.suite_runner import RunSettings, read_episodes, run_suite
from agentgym_bench.suites import resolve

from agentgym_train.rollout import PolicyTurns
from agentgym_train.tiny import build_tiny_model, tiny_llama_config
from tests.bench.support import lockstep, same

#: two difficulties x two splits x three tasks, six steps at most; prompt variants mixed in
SUITE = """\
name: batched-model
version: 1
envs:
  AgentGym/Toy-v0:
    difficulties: [easy, hard]
    splits: [test, ood]
    episodes: 3
    max_steps: 6
prompt:
  max_history_turns: 2
variants:
  - name: short
  - name: none
    prompt:
      max_history_turns: 0
"""
MODES = {
    "score": ["rollout.score_reduction=mean"],  # a choice among the admissible actions
    "generate": ["rollout.action_mode=generate", "rollout.max_new_tokens=6"],
}


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory) -> Path:
    """A randomly initialised tiny Llama with a tokenizer trained on Toy text, its weights drawn
    ten times wider than the default (initializer_range 0.2): no training, yet its greedy
    choices differ by prompt (at 0.02 it answers 'look' or '::::::' to everything)."""
    import torch
    from transformers import AutoTokenizer, LlamaForCausalLM

    folder = tmp_path_factory.mktemp("batched")
    tokenizer = AutoTokenizer.from_pretrained(build_tiny_model(folder / "base", episodes=40))
    with torch.random.fork_rng():
        torch.manual_seed(0)
        model = LlamaForCausalLM(tiny_llama_config(tokenizer, initializer_range=0.2))
    model.save_pretrained(folder / "model")
    tokenizer.save_pretrained(folder / "model")
    return folder / "model"


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    path = tmp_path_factory.mktemp("suite") / "batched-model.yaml"
    path.write_text(SUITE)
    return resolve(str(path))


@pytest.mark.parametrize("mode", sorted(MODES))
def test_batches_play_the_greedy_moves_with_the_same_prompts(tiny_model, suite, mode, monkeypatch):
    seen: dict[str, list] = {"single": [], "batched": []}
    build = PolicyTurns.prompt_ids

    def recorded(turns_, slot):
        ids = build(turns_, slot)
        seen[phase].append((slot.job.seed, slot.observation, tuple(ids)))
        return ids

    turns: dict[str, list[int]] = {"single": [], "batched": []}
    decide = PolicyTurns.decide

    def counted(turns_, slots, *args, **kwargs):
        turns[phase].append(len(slots))
        return decide(turns_, slots, *args, **kwargs)

    monkeypatch.setattr(PolicyTurns, "prompt_ids", recorded)
    monkeypatch.setattr(PolicyTurns, "decide", counted)
    settings = RunSettings("hf:" + str(tiny_model), {"overrides": MODES[mode]})
    prompts = {(s.env_id, s.variant): suite.prompt_for(s.env_id, s.variant) for s in suite.episodes}
    phase = "single"
    player = EpisodePlayer(settings, prompts)
    single = [player.play(spec) for spec in suite.episodes]
    phase = "batched"
    batched = lockstep(suite.episodes, 8, settings.agent, settings.agent_options, prompts)
    assert len(batched) == len(suite.episodes) == 24
    assert all(r["error"] is None for r in single + batched), [r["error"] for r in batched]
    assert same(batched) == same(single)  # every action, observation, score, agent description
    assert sorted(seen["batched"]) == sorted(seen["single"])  # the prompts, token for token
    assert set(turns["single"]) == {1} and max(turns["batched"]) == 8  # one model call a turn
    assert sum(turns["batched"]) == sum(turns["single"]) > 3 * len(turns["batched"])
    actions = {tuple(s["action"] for s in r["trajectory"]["steps"]) for r in single}
    assert len(actions) > 1  # the model's moves depend on the task


def test_a_batched_model_run_replays(tiny_model, suite, tmp_path):
    out = tmp_path / "run"
    settings = RunSettings("hf:" + str(tiny_model), {"overrides": MODES["generate"]}, batch_size=8)
    run_suite(suite, settings, out, progress=False)
    records = read_episodes(out)
    assert len(records) == 24 and all(r["error"] is None for r in records)
    assert verify_run(out, progress=False, suite_file=suite.file).verified
    # each step keeps the model's raw reply and token counts, batched as one at a time
    steps = [s for r in records for s in r["trajectory"]["steps"]]
    for step in steps:
        llm = step["llm"]
        assert isinstance(llm["reply"], str) and llm["prompt_tokens"] > 0
        assert 0 < llm["completion_tokens"] <= 6
        assert llm["finish_reason"] in ("stop", "length")
        assert llm.get("cut_off", False) == (llm["finish_reason"] == "length")
    assert any(s["llm"]["finish_reason"] == "length" for s in steps)  # 6 tokens cut some off


def test_a_local_tokenizer_counts_an_openai_agents_prompt(tiny_model):
    from agentgym_bench.llm_agents import local_token_counter
    from transformers import AutoTokenizer

    counter = local_token_counter(str(tiny_model))
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    text = "Observation: You are in the hallway.\nAction: go to red room"
    assert counter(text) == len(tokenizer(text, add_special_tokens=False)["input_ids"]) > 3
    assert counter.name == f"tokenizer:{tiny_model}"
    with pytest.raises(ValueError, match="a local tokenizer folder"):
        local_token_counter(str(tiny_model / "no-such-folder"))
