"""Built-in reference agents: the floor (random) and the ceiling (oracle) of every benchmark."""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np


class Agent(Protocol):
    """Anything that maps (observation, info) to an action string."""

    name: str

    def reset(self, seed: int | None = None) -> None: ...

    def act(self, observation: str, info: dict[str, Any]) -> str: ...


class RandomAgent:
    """Picks uniformly among ``info["admissible_actions"]`` (seeded by ``reset``)."""

    name = "random"

    def __init__(self) -> None:
        self._rng = np.random.default_rng()

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def act(self, observation: str, info: dict[str, Any]) -> str:
        actions = info.get("admissible_actions") or []
        if not actions:
            return "look"
        return actions[int(self._rng.integers(len(actions)))]


class OracleAgent:
    """Follows ``info["expert_action"]``: the upper bound a benchmark can check itself against."""

    name = "oracle"

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: str, info: dict[str, Any]) -> str:
        action = info.get("expert_action")
        if action is None:
            actions = info.get("admissible_actions") or ["look"]
            return actions[0]
        return action


AGENTS: dict[str, type] = {"random": RandomAgent, "oracle": OracleAgent}


def make_agent(name: str) -> Agent:
    """A built-in agent by name; ValueError lists the known ones."""
    if name not in AGENTS:
        from agentgym_envs.registration import did_you_mean

        known = sorted(AGENTS)
        hint = did_you_mean(name, known, otherwise=f"; the built-in agents are {', '.join(known)}")
        raise ValueError(f"unknown agent {name!r}{hint}")
    return AGENTS[name]()
