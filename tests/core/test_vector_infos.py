"""``unbatch_info``: a vector env's batched infos read back, env by env, equal to what the
single env returns, on every env family, across episode ends (next-step autoreset)."""

from __future__ import annotations

import random

import gymnasium as gym
import numpy as np
import pytest

import agentgym_envs
from agentgym_envs.core import unbatch_info
from tests.support import CONTRACT_IDS

NUM_ENVS = 3
STEPS = 24
#: MiniWoB's default id draws any task, real-time ones too (whose oracle reads the clock)
KWARGS = {"AgentGym/MiniWoB-v0": {"task": "click-checkboxes"}}


def _action(info: dict, rng: random.Random) -> str:
    """Mostly the oracle's move (so episodes end, WebShop's with a purchase), else a listed one
    or nonsense (so infos carry errors)."""
    draw = rng.random()
    if draw < 0.7 and info.get("expert_action"):
        return info["expert_action"]
    listed = info.get("admissible_actions") or []
    return rng.choice(listed) if listed and draw < 0.9 else "no such action"


@pytest.mark.parametrize("env_id", CONTRACT_IDS)
def test_batched_infos_read_back_as_the_single_envs(env_id):
    kwargs = KWARGS.get(env_id, {})
    vector = agentgym_envs.make_vec(env_id, NUM_ENVS, vectorization_mode="sync", **kwargs)
    singles = [gym.make(env_id, **kwargs) for _ in range(NUM_ENVS)]
    rng = random.Random(0)
    try:
        _, infos = vector.reset(seed=[3, 4, 5])
        expected = [env.reset(seed=3 + i)[1] for i, env in enumerate(singles)]
        ended = [False] * NUM_ENVS
        for _ in range(STEPS):
            for i in range(NUM_ENVS):
                assert unbatch_info(infos, i) == expected[i]
            actions = [_action(info, rng) for info in expected]
            observations, rewards, terminated, truncated, infos = vector.step(actions)
            for i, env in enumerate(singles):
                if ended[i]:  # next-step autoreset: this step resets, without a seed
                    observation, expected[i] = env.reset()
                    reward, ended[i] = 0.0, False
                else:
                    observation, reward, term, trunc, expected[i] = env.step(actions[i])
                    ended[i] = term or trunc
                assert observations[i] == observation
                assert rewards[i] == reward
            np.testing.assert_array_equal(terminated | truncated, ended)
    finally:
        vector.close()
        for env in singles:
            env.close()


def test_a_key_set_by_some_envs_only_is_absent_from_the_others():
    infos = {
        "score": np.array([0.5, 0.0]),
        "_score": np.array([True, True]),
        "purchased_price": np.array([19.99, 0.0]),
        "_purchased_price": np.array([True, False]),
        "nested": {"n": np.array([1, 2]), "_n": np.array([True, True])},
        "_nested": np.array([True, True]),
    }
    first, second = unbatch_info(infos, 0), unbatch_info(infos, 1)
    assert first == {"score": 0.5, "purchased_price": 19.99, "nested": {"n": 1}}
    assert second == {"score": 0.0, "nested": {"n": 2}}
    assert type(first["score"]) is float and type(first["nested"]["n"]) is int


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_reset_after_an_episode_end_is_not_undone_by_the_next_step(mode):
    """``reset_mask`` starts an ended env's next episode with a chosen seed; the following step
    plays it (Gymnasium 1.4's own async worker, without shared memory, reset it again)."""
    vector = agentgym_envs.make_vec("AgentGym/Toy-v0", 2, vectorization_mode=mode)
    single = gym.make("AgentGym/Toy-v0")
    try:
        _, infos = vector.reset(seed=[0, 1])
        while True:  # play env 0 to its end with the oracle; env 1 idles on a bad action
            actions = [unbatch_info(infos, 0)["expert_action"], "no such action"]
            _, _, terminated, _, infos = vector.step(actions)
            if terminated[0]:
                break
        observations, infos = vector.reset(
            seed=[7, None], options={"reset_mask": np.array([True, False])}
        )
        observation, info = single.reset(seed=7)
        assert observations[0] == observation
        action = info["expert_action"]
        observations, rewards, *_ = vector.step([action, "no such action"])
        assert observations[0] == single.step(action)[0]  # the action was played, not dropped
    finally:
        vector.close()
        single.close()
