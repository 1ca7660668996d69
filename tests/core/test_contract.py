"""The env contract of docs/ARCHITECTURE.md §3, checked on every registered env family."""

from __future__ import annotations

import json
import subprocess
import sys

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import agentgym_envs
from agentgym_envs.core import DIFFICULTIES, INFO_KEYS, SPLITS
from tests.support import CONTRACT_IDS

WEIRD_ACTIONS = [
    "",
    "   ",
    "\n\t",
    "fly to the moon",
    "click[" * 50,
    "x" * 20_000,
    "💥 ünïcödé \x00 control",
    "search[]",
    "go to",
    None,
    123,
    b"bytes action",
    ["a", "list"],
]


@pytest.mark.parametrize("env_id", CONTRACT_IDS)
def test_check_env_passes(env_id):
    env = gym.make(env_id)
    try:
        check_env(env.unwrapped, skip_render_check=True)
    finally:
        env.close()


@pytest.mark.parametrize("env_id", CONTRACT_IDS)
def test_env_usable_after_a_reset_that_raised(env_id):
    # Under Gymnasium's passive env checker every later step raised TypeError here.
    env = gym.make(env_id)
    try:
        with pytest.raises(ValueError, match="task"):
            env.reset(options={"task_id": "no-such-task"})
        obs, info = env.reset(seed=0)
        obs, reward, terminated, truncated, info = env.step(info["admissible_actions"][0])
        assert env.observation_space.contains(obs)
        assert info["action_error"] is None
    finally:
        env.close()


@pytest.mark.parametrize("env_id", CONTRACT_IDS)
def test_steps_after_the_end_keep_reporting_it_until_reset(env_id):
    env = gym.make(env_id)
    try:
        obs, info = env.reset(seed=0)
        terminated = False
        while not terminated:  # the oracle plays to the end
            obs, reward, terminated, truncated, info = env.step(info["expert_action"])
        assert info["success"] and not truncated
        score = info["score"]
        for action in ("look", info["admissible_actions"][:1] or "again"):
            obs, reward, terminated, truncated, info = env.step(action)
            assert (reward, terminated, truncated) == (0.0, True, False)
            assert info["action_error"].startswith("the episode is over")
            assert info["success"] and info["score"] == score and info["expert_action"] is None
        _, info = env.reset(seed=1)
        _, _, terminated, _, info = env.step(info["expert_action"])
        assert info["action_error"] is None
    finally:
        env.close()


@pytest.mark.parametrize("env_id", CONTRACT_IDS)
def test_info_keys_and_spaces(env_id):
    env = gym.make(env_id)
    try:
        obs, info = env.reset(seed=0)
        assert set(INFO_KEYS) <= set(info)
        assert env.observation_space.contains(obs)
        assert info["admissible_actions"], "a fresh episode must offer actions"
        assert all(isinstance(a, str) for a in info["admissible_actions"])
        action = info["admissible_actions"][0]
        assert env.action_space.contains(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert set(INFO_KEYS) <= set(info)
        assert env.observation_space.contains(obs)
        assert info["action_error"] is None
        assert 0.0 <= info["score"] <= 1.0
    finally:
        env.close()


@pytest.mark.parametrize("env_id", CONTRACT_IDS)
def test_malformed_actions_never_raise(env_id):
    env = gym.make(env_id)
    try:
        obs0, info0 = env.reset(seed=3)
        for action in WEIRD_ACTIONS:
            obs, reward, terminated, truncated, info = env.step(action)
            assert reward == 0.0
            assert isinstance(info["action_error"], str) and info["action_error"]
            assert env.observation_space.contains(obs)
            assert not terminated
            # the world is unchanged: the same actions are still admissible
            assert info["admissible_actions"] == info0["admissible_actions"]
    finally:
        env.close()


@pytest.mark.parametrize("env_id", CONTRACT_IDS)
def test_close_twice_is_safe(env_id):
    env = gym.make(env_id)
    env.reset(seed=0)
    env.close()
    env.close()


@pytest.mark.parametrize("env_id", CONTRACT_IDS)
def test_bad_kwargs_list_valid_values(env_id):
    with pytest.raises(ValueError, match="'medium'"):
        gym.make(env_id, difficulty="impossible")
    with pytest.raises(ValueError, match="'adversarial'"):
        gym.make(env_id, split="tarin")
    env = gym.make(env_id)
    try:
        with pytest.raises(ValueError, match="task_ids"):
            env.reset(options={"task_id": "no-such-task"})
        with pytest.raises(ValueError, match="task_id"):
            env.reset(options={"taskid": "typo"})
    finally:
        env.close()


@pytest.mark.parametrize("env_id", CONTRACT_IDS)
def test_every_difficulty_and_split_makes_and_resets(env_id):
    for difficulty in DIFFICULTIES:
        for split in SPLITS:
            env = gym.make(env_id, difficulty=difficulty, split=split)
            try:
                ids = env.unwrapped.task_ids()
                assert len(ids) == len(set(ids)) > 0
                _, info = env.reset(seed=0)
                assert info["task_id"] in ids
                assert (info["difficulty"], info["split"]) == (difficulty, split)
            finally:
                env.close()


ROLLOUT = """
import json, sys, gymnasium as gym
import agentgym_envs
from agentgym_envs.agents import RandomAgent
env = gym.make(sys.argv[1], difficulty="medium", split="test")
agent, out = RandomAgent(), []
for seed in (0, 1, 2):
    agent.reset(seed)
    obs, info = env.reset(seed=seed)
    out.append([obs, info])
    for _ in range(8):
        obs, r, te, tr, info = env.step(agent.act(obs, info))
        out.append([obs, r, te, tr, info])
        if te or tr:
            break
print(json.dumps(out, sort_keys=True))
"""


@pytest.mark.parametrize("env_id", CONTRACT_IDS)
def test_seeded_rollouts_identical_across_processes(env_id):
    runs = []
    for hash_seed in ("1", "2"):
        result = subprocess.run(
            [sys.executable, "-c", ROLLOUT, env_id],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": hash_seed, **_env_without_hashseed()},
        )
        runs.append(json.loads(result.stdout))
    assert runs[0] == runs[1]
    assert len(runs[0]) > 3


def _env_without_hashseed() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED"}


def _single_env_run(env_id: str, seeds: list[int]) -> list[tuple]:
    """reset(seed) then one step with the first admissible action, env by env."""
    out = []
    for seed in seeds:
        env = gym.make(env_id)
        obs, info = env.reset(seed=seed)
        action = info["admissible_actions"][0]
        out.append((obs, info["task_id"], action, *env.step(action)[:2]))
        env.close()
    return out


@pytest.mark.parametrize("env_id", CONTRACT_IDS)
def test_works_inside_async_vector_env(env_id):
    seeds = [5, 6]
    expected = _single_env_run(env_id, seeds)
    plain = gym.vector.AsyncVectorEnv(
        [lambda: gym.make(env_id) for _ in seeds], shared_memory=False
    )
    ours = agentgym_envs.make_vec(env_id, num_envs=len(seeds))
    try:
        for vector_env in (plain, ours):
            obs, infos = vector_env.reset(seed=seeds)
            actions = [infos["admissible_actions"][i][0] for i in range(len(seeds))]
            next_obs, rewards, *_ = vector_env.step(actions)
            got = list(zip(obs, infos["task_id"], actions, next_obs, rewards, strict=True))
            assert got == expected
    finally:
        plain.close()
        ours.close()
