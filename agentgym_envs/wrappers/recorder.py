"""Write every episode as one JSON line: the trajectory format for analysis and cloning."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gymnasium as gym

from agentgym_envs.core.episode import Trajectory, new_trajectory, step_record


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
        self._trajectory: Trajectory | None = None
        self._last_info: dict[str, Any] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self._flush(complete=False)
        observation, info = self.env.reset(seed=seed, options=options)
        self._trajectory = new_trajectory(self.env, seed, observation, info)
        self._last_info = info
        return observation, info

    def step(self, action: Any):
        observation, reward, terminated, truncated, info = self.env.step(action)
        if self._trajectory is not None:
            self._trajectory.steps.append(
                step_record(
                    action,
                    observation,
                    reward,
                    terminated,
                    truncated,
                    info,
                    self._last_info,
                    self.admissible,
                )
            )
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
        trajectory, self._trajectory = self._trajectory, None
        if trajectory is None or self._file.closed:
            return
        trajectory.score = float(self._last_info.get("score", 0.0))
        trajectory.success = bool(self._last_info.get("success", False))
        trajectory.complete = complete
        self._file.write(json.dumps(trajectory.to_record(), ensure_ascii=False) + "\n")
        self._file.flush()
