"""One episode loop: play_episode's record is the TrajectoryRecorder's record of the same play,
and it stops where the episode, the agent or the step budget does."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

import agentgym_envs
from agentgym_envs import Trajectory, play_episode
from agentgym_envs.agents import OracleAgent, RandomAgent
from agentgym_envs.wrappers import TrajectoryRecorder

TOY = "AgentGym/Toy-v0"


def test_the_oracle_plays_to_success_and_the_record_says_so():
    env = gym.make(TOY, difficulty="medium", split="test")
    played = play_episode(env, OracleAgent(), seed=3)
    assert isinstance(played, Trajectory) and played.complete and played.success
    assert played.score == 1.0 and played.episode_return == pytest.approx(1.0)
    assert played.env_id == TOY and played.seed == 3 and played.split == "test"
    assert played.length == len(played.steps) > 0 and played.invalid_actions == 0
    assert all(step["action"] == step["expert_action"] for step in played.steps)


def test_the_record_is_the_trajectory_recorders_record(tmp_path):
    path = tmp_path / "traj.jsonl"
    recorded = TrajectoryRecorder(gym.make(TOY, difficulty="hard"), path, admissible=True)
    played_there = play_episode(recorded, RandomAgent(), seed=7, admissible=True)
    recorded.close()
    ours = play_episode(gym.make(TOY, difficulty="hard"), RandomAgent(), seed=7, admissible=True)
    theirs = json.loads(path.read_text().splitlines()[0])
    assert json.loads(json.dumps(ours.to_record())) == theirs
    assert played_there.to_record()["steps"] == theirs["steps"]


class _GivesUp:
    def __init__(self, moves: int) -> None:
        self.moves = moves

    def act(self, observation, info):
        self.moves -= 1
        return "look" if self.moves >= 0 else None


def test_an_agent_without_a_move_or_the_step_budget_ends_the_play_incomplete():
    env = gym.make(TOY, difficulty="easy")
    stopped = play_episode(env, _GivesUp(2), seed=0)
    assert stopped.length == 2 and not stopped.complete and not stopped.success
    cut = play_episode(env, _GivesUp(10), seed=0, max_steps=3)
    assert cut.length == 3 and not cut.complete
    bad = play_episode(env, type("Bad", (), {"act": lambda self, o, i: "fly away"})(), 0, 4)
    assert bad.invalid_actions == 4 and bad.episode_return == 0.0


def test_the_env_package_exports_the_loop():
    assert agentgym_envs.play_episode is play_episode
