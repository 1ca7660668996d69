"""RayVectorEnv: Gymnasium's sync vector semantics over Ray actors, and dead actors replaced."""

from __future__ import annotations

import time

import numpy as np
import pytest

ray = pytest.importorskip("ray")

import gymnasium as gym  # noqa: E402
from agentgym_ray import RayVectorEnv  # noqa: E402

import agentgym_envs  # noqa: E402,F401

TOY = "AgentGym/Toy-v0"


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _expert_actions(infos: dict, count: int) -> list[str]:
    """Each env's oracle move ("look" where it has none, e.g. an env about to autoreset)."""
    return [infos["expert_action"][i] or "look" for i in range(count)]


def test_steps_match_a_sync_vector_env(local_ray):
    ours = RayVectorEnv(TOY, num_envs=5, num_actors=2, env_kwargs={"difficulty": "easy"})
    theirs = gym.make_vec(TOY, num_envs=5, vectorization_mode="sync", difficulty="easy")
    try:
        assert ours.single_observation_space == theirs.single_observation_space
        obs_a, info_a = ours.reset(seed=3)
        obs_b, info_b = theirs.reset(seed=3)
        assert obs_a == obs_b and info_a["task_id"].tolist() == info_b["task_id"].tolist()
        ends = 0
        for _ in range(25):  # long enough that episodes end and autoreset
            actions = _expert_actions(info_b, 5)
            obs_a, rew_a, term_a, trunc_a, info_a = ours.step(actions)
            obs_b, rew_b, term_b, trunc_b, info_b = theirs.step(actions)
            assert obs_a == obs_b
            assert np.array_equal(rew_a, rew_b) and np.array_equal(term_a, term_b)
            assert np.array_equal(trunc_a, trunc_b)
            ends += int(term_a.sum())
        assert ends >= 5  # every env finished at least one episode
    finally:
        ours.close()
        theirs.close()


def test_reset_mask_resets_only_the_masked_envs(local_ray):
    env = RayVectorEnv(TOY, num_envs=3, num_actors=3)
    try:
        first, _ = env.reset(seed=0)
        env.step(["look"] * 3)
        again, infos = env.reset(
            seed=[10, 11, 12], options={"reset_mask": np.array([0, 1, 0], bool)}
        )
        single = gym.make(TOY)
        assert again[1] == single.reset(seed=11)[0] and again[0] == env.step(["look"] * 3)[0][0]
        assert infos["_task_id"].tolist() == [False, True, False]
        with pytest.raises(ValueError, match="reset_mask"):
            env.reset(options={"reset_mask": np.zeros(3, bool)})
    finally:
        env.close()


def _wait_until_dead(actor) -> None:
    """Until a call to ``actor`` fails because it died (at most a minute)."""
    for _ in range(600):
        try:
            ray.get(actor.__ray_call__.remote(lambda _: None), timeout=10)
        except ray.exceptions.RayActorError:
            return
        time.sleep(0.1)
    raise AssertionError("the killed actor still answers after a minute")


def test_a_killed_actor_truncates_its_episodes_and_is_replaced(local_ray):
    env = RayVectorEnv(TOY, num_envs=4, num_actors=2)
    try:
        _, infos = env.reset(seed=0)
        env.step(_expert_actions(infos, 4))
        ray.kill(env.actors[0])  # its process dies mid-episode
        _wait_until_dead(env.actors[0])  # (the kill is asynchronous: a step could beat it)
        obs, rewards, terminated, truncated, infos = env.step(["look"] * 4)
        assert truncated.tolist() == [True, True, False, False]
        assert "ray actor died" in infos["truncated_reason"][0]
        assert not infos["_truncated_reason"][2:].any()  # the other actor's episodes go on
        assert env.restarts == 1
        obs, rewards, terminated, truncated, infos = env.step(["look"] * 4)  # nothing hangs
        assert not truncated[:2].any() and all(obs[:2])  # the new actor's envs started over
    finally:
        env.close()


def test_a_step_past_the_timeout_replaces_the_actor(local_ray):
    env = RayVectorEnv(TOY, num_envs=4, num_actors=2, step_timeout_s=2.0)
    try:
        env.reset(seed=0)
        # Actor 0 is busy for a minute, so its step waits in its queue well past the timeout
        # (a tiny timeout on a fast step raced the driver: a loaded machine lost the race).
        env.actors[0].__ray_call__.remote(lambda actor: time.sleep(60))
        _, _, _, truncated, infos = env.step(["look"] * 4)
        assert truncated.tolist() == [True, True, False, False]
        assert "GetTimeoutError" in infos["truncated_reason"][0]
        assert env.restarts == 1
        _, _, _, truncated, _ = env.step(["look"] * 4)  # the new actor answers in time
        assert not truncated.any()
    finally:
        env.close()


def test_bad_arguments_are_clear_errors(local_ray):
    with pytest.raises(ValueError, match="num_actors must be between 1 and num_envs=2"):
        RayVectorEnv(TOY, num_envs=2, num_actors=3)
    env = RayVectorEnv(TOY, num_envs=2, num_actors=1)
    try:
        env.reset(seed=0)
        with pytest.raises(ValueError, match="expected 2 actions"):
            env.step(["look"])
    finally:
        env.close()
