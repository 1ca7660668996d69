"""Curriculum over difficulty levels: advance by update number or by training success rate, or
train every level at once (``mixed``)."""

from __future__ import annotations

from collections import deque
from typing import Any

from agentgym_train.config import CurriculumConfig


class Curriculum:
    """Which difficulty the training envs use now.

    ``by_update``: stage k+1 starts at update ``switch_updates[k]``. ``by_success``: the next stage
    starts once the mean training success rate over the last ``window`` updates reaches
    ``success_threshold``. ``mixed``: update k plays stage k mod the number of stages, so one
    policy learns them all. ``none``: the env kwargs' own difficulty throughout.
    """

    def __init__(self, config: CurriculumConfig, env_kwargs: dict[str, Any]) -> None:
        self.config = config
        self.base_kwargs = dict(env_kwargs)
        self.stage = 0
        self._recent: deque[float] = deque(maxlen=max(config.window, 1))
        if config.mode == "by_update" and len(config.switch_updates) < len(config.stages) - 1:
            raise ValueError(
                "curriculum.switch_updates needs one update number per stage after the first "
                f"({len(config.stages) - 1} for stages {config.stages})"
            )

    def env_kwargs(self) -> dict[str, Any]:
        """The training envs' kwargs now."""
        if self.config.mode == "none" or not self.config.stages:
            return dict(self.base_kwargs)
        return {**self.base_kwargs, "difficulty": self.config.stages[self.stage]}

    def every_stage(self) -> list[dict[str, Any]]:
        """What behaviour cloning and evaluation cover: each stage's kwargs in ``mixed`` mode,
        else the current kwargs alone."""
        if self.config.mode != "mixed" or not self.config.stages:
            return [self.env_kwargs()]
        return [{**self.base_kwargs, "difficulty": d} for d in self.config.stages]

    def observe(self, update: int, success_rate: float) -> None:
        """Record one finished update; move to the next stage when its condition holds."""
        last = len(self.config.stages) - 1
        if self.config.mode == "mixed":
            self.stage = update % len(self.config.stages) if self.config.stages else 0
        elif self.config.mode == "by_update":
            while self.stage < last and update >= self.config.switch_updates[self.stage]:
                self.stage += 1
        elif self.config.mode == "by_success":
            self._recent.append(success_rate)
            full = len(self._recent) == self._recent.maxlen
            mean = sum(self._recent) / len(self._recent)
            if self.stage < last and full and mean >= self.config.success_threshold:
                self.stage += 1
                self._recent.clear()

    def state(self) -> dict[str, Any]:
        return {"stage": self.stage, "recent": list(self._recent)}

    def load_state(self, state: dict[str, Any]) -> None:
        self.stage = int(state.get("stage", 0))
        self._recent.clear()
        self._recent.extend(state.get("recent", []))
