"""Agents the runner tests load by ``module:callable`` (worker processes import them by name)."""

from __future__ import annotations

import time
from typing import Any


class _Hangs:
    """Hangs on the first task of each list (seed 0), plays the expert action elsewhere."""

    def reset(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, observation: str, info: dict[str, Any]) -> str:
        if self.seed == 0:
            time.sleep(3600)
        return info["expert_action"]


class _Raises:
    def act(self, observation: str, info: dict[str, Any]) -> str:
        raise RuntimeError("the model server went away")


def hangs_on_seed_0(env: Any) -> _Hangs:
    return _Hangs()


def raises(env: Any) -> _Raises:
    return _Raises()
