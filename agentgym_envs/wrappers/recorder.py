"""Write every episode as one JSON line: the trajectory format for analysis and cloning."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gymnasium as gym


class TrajectoryRecorder(gym.Wrapper):
    """Appends one JSON object per episode to ``path`` (JSON Lines), flushed as each one ends.

    A record holds the env id, task id, seed, difficulty, split, goal, the first observation, each
    step (action, observation, reward, terminated, truncated, action_error, expert_action and,
    with ``admissible=True``, the admissible actions before the step), the return, the final
    score and success, and ``complete`` (False for an episode cut off by reset() or close()).
    """

    def __init__(self, env: gym.Env, path: str | Path, admissible: bool = False) -> None:
        super().__init__(env)
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.admissible = admissible
        self._file = self.path.open("a", encoding="utf-8")
        self._record: dict[str, Any] | None = None
        self._last_info: dict[str, Any] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self._flush(complete=False)
        observation, info = self.env.reset(seed=seed, options=options)
        spec = self.env.spec
        self._record = {
            "env_id": spec.id if spec is not None else type(self.env.unwrapped).__name__,
            "task_id": info.get("task_id"),
            "seed": seed,
            "difficulty": info.get("difficulty"),
            "split": info.get("split"),
            "goal": info.get("goal"),
            "observation": observation,
            "steps": [],
        }
        self._last_info = info
        return observation, info

    def step(self, action: Any):
        observation, reward, terminated, truncated, info = self.env.step(action)
        if self._record is not None:
            step = {
                "action": action if isinstance(action, str) else repr(action),
                "observation": observation,
                "reward": float(reward),
                "terminated": bool(terminated),
                "truncated": bool(truncated),
                "action_error": info.get("action_error"),
                "expert_action": self._last_info.get("expert_action"),
            }
            if self.admissible:
                step["admissible_actions"] = self._last_info.get("admissible_actions")
            self._record["steps"].append(step)
            self._last_info = info
            if terminated or truncated:
                self._flush(complete=True)
        return observation, reward, terminated, truncated, info

    def close(self) -> None:
        self._flush(complete=False)
        if not self._file.closed:
            self._file.close()
        super().close()

    def _flush(self, complete: bool) -> None:
        record, self._record = self._record, None
        if record is None or self._file.closed:
            return
        steps = record["steps"]
        record["return"] = sum(s["reward"] for s in steps)
        record["length"] = len(steps)
        record["score"] = float(self._last_info.get("score", 0.0))
        record["success"] = bool(self._last_info.get("success", False))
        record["complete"] = complete
        self._file.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._file.flush()
