"""Keep an agent inside the admissible action list: by index, or by the nearest string."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from rapidfuzz import fuzz, process


class AdmissibleOnly(gym.Wrapper):
    """Map each action onto ``info["admissible_actions"]`` before the env sees it.

    An action may be an index into the current list (an ``int`` or a digit string such as ``"3"``,
    counting from 1 as the listing shows) or text: exact matches (ignoring case and spacing) pass,
    otherwise the most similar admissible action is taken if its similarity (rapidfuzz WRatio,
    0–100) is at least ``cutoff``. Anything else reaches the env unchanged, so it is reported as an
    invalid action there. ``info["mapped_action"]`` says what was sent. With ``listing=True`` the
    observation ends with the numbered list.
    """

    def __init__(self, env: gym.Env, cutoff: float = 80.0, listing: bool = True) -> None:
        super().__init__(env)
        if not 0 <= cutoff <= 100:
            raise ValueError(f"cutoff must lie in [0, 100], got {cutoff}")
        self.cutoff = cutoff
        self.listing = listing
        self._admissible: list[str] = []

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        observation, info = self.env.reset(seed=seed, options=options)
        return self._observe(observation, info), info

    def step(self, action: Any):
        mapped = self.map_action(action)
        observation, reward, terminated, truncated, info = self.env.step(mapped)
        info = dict(info)
        info["mapped_action"] = mapped
        return self._observe(observation, info), reward, terminated, truncated, info

    def map_action(self, action: Any) -> Any:
        """The admissible action ``action`` stands for, or ``action`` itself if none does."""
        choices = self._admissible
        if isinstance(action, (int,)) and not isinstance(action, bool):
            return choices[action - 1] if 1 <= action <= len(choices) else str(action)
        if not isinstance(action, str) or not choices:
            return action
        text = " ".join(action.split()).lower()
        if text.isdigit():
            return self.map_action(int(text))
        for choice in choices:
            if choice.lower() == text:
                return choice
        best = process.extractOne(text, choices, scorer=fuzz.WRatio, processor=str.lower)
        if best is not None and best[1] >= self.cutoff:
            return best[0]
        return action

    def _observe(self, observation: str, info: dict[str, Any]) -> str:
        self._admissible = list(info.get("admissible_actions") or [])
        if not self.listing or not self._admissible:
            return observation
        lines = "\n".join(f"{i}. {a}" for i, a in enumerate(self._admissible, 1))
        return f"{observation}\n\nAdmissible actions:\n{lines}"
