# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""The trained agents the board commits (``leaderboards/agents/``: a LoRA adapter and its run's
config each) load and play their env: every move valid, the episode over within its limit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.train.support import require_train_extra

require_train_extra()

import gymnasium as gym
import yaml
from agentgym_bench.trained_agent import make_trained_agent

from agentgym_envs.core.episode import play_episode
from agentgym_envs.registration import entry_for

AGENTS = Path(__file__).resolve().parents[2] / "leaderboards" / "agents"
COMMITTED = sorted(p.parent.name for p in AGENTS.glob("*/agentgym_adapter.json"))


def test_the_board_commits_trained_agents() -> None:
    assert COMMITTED, f"no trained agent in {AGENTS}"


@pytest.mark.slow
@pytest.mark.parametrize("name", COMMITTED)
def test_committed_agent_loads_and_plays(name: str) -> None:
    folder = AGENTS / name
    manifest = json.loads((folder / "agentgym_adapter.json").read_text())
    size = (folder / "adapter" / "adapter_model.safetensors").stat().st_size
    assert manifest["dtype"] == "bfloat16" and size < 8 * 2**20, (manifest, size)
    rollout = yaml.safe_load((folder / "config.yaml").read_text())["rollout"]
    entry = entry_for(rollout["env_id"])
    if entry.missing():
        pytest.skip(f"needs {entry.missing()}: {entry.install_hint()}")
    env = gym.make(rollout["env_id"], difficulty="easy", split="test")
    agent = make_trained_agent(env, run=str(folder))
    assert agent.describe()["source"] == "adapter"
    played = play_episode(env, agent, seed=0, max_steps=10)
    env.close()
    assert played.steps, "the agent made no move"
    assert played.invalid_actions == 0, played.to_record()
    assert played.complete or played.length == 10
