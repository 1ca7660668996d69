"""The env contract of docs/ARCHITECTURE.md §3, checked on every registered env family by
``agentgym_envs.check_text_env`` (its rules live in ``agentgym_envs/checker.py``)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import pytest

import agentgym_envs
from agentgym_envs.toy.env import ToyEnv
from tests.support import CONTRACT_IDS


@pytest.mark.parametrize("env_id", CONTRACT_IDS)
def test_env_keeps_the_contract(env_id):
    agentgym_envs.check_text_env(env_id)


class _StepRaisesOnBadText(ToyEnv):
    """Breaks "step never raises on agent text"."""

    def step(self, action: Any) -> Any:
        if not isinstance(action, str) or not action.strip():
            raise ValueError("empty action")
        return super().step(action)


class _NoAdmissibleActions(ToyEnv):
    """Breaks "info always holds admissible_actions"."""

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> Any:
        obs, info = super().reset(seed=seed, options=options)
        del info["admissible_actions"]
        return obs, info


@pytest.mark.parametrize(
    ("env_class", "rule", "detail"),
    [
        (_StepRaisesOnBadText, "malformed actions never raise", "raised ValueError: empty action"),
        (_NoAdmissibleActions, "info keys and spaces", "lacks ['admissible_actions']"),
    ],
)
def test_checker_names_the_broken_rule(env_class, rule, detail):
    env_id = f"AgentGymTest/{env_class.__name__.strip('_')}-v0"
    gym.register(env_id, entry_point=env_class)
    try:
        with pytest.raises(AssertionError) as caught:
            agentgym_envs.check_text_env(env_id)
    finally:
        del gym.registry[env_id]
    message = str(caught.value)
    assert message.startswith(f"{env_id}: rule {rule!r} broken: "), message
    assert detail in message, message


def test_checker_refuses_an_unregistered_id():
    with pytest.raises(ValueError, match="rule 'registered' broken"):
        agentgym_envs.check_text_env("AgentGym/NoSuchFamily-v0")
