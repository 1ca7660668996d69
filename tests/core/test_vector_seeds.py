"""``vector_seeds``: the one expansion of a vector env's reset seed, as Gymnasium's own."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from agentgym_envs.core import vector_seeds


def test_none_int_and_list_expand_as_sync_vector_env_does():
    assert vector_seeds(None, 3) == [None, None, None]
    assert vector_seeds(7, 3) == [7, 8, 9]
    assert vector_seeds([4, None, 1], 3) == [4, None, 1]
    assert vector_seeds((2, 3), 2) == [2, 3]


def test_a_list_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError, match="expected 3 seeds"):
        vector_seeds([1, 2], 3)


def test_gymnasium_seeds_its_sync_vector_env_the_same_way():
    envs = gym.vector.SyncVectorEnv([lambda: gym.make("CartPole-v1")] * 3)
    ours = [gym.make("CartPole-v1").reset(seed=s)[0] for s in vector_seeds(5, 3)]
    theirs, _ = envs.reset(seed=5)
    envs.close()
    np.testing.assert_array_equal(theirs, np.stack(ours))
