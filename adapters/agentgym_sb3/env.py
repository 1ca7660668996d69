"""An AgentGym env as Stable-Baselines3 wants it: a vector observation and a ``Discrete`` action.

SB3 has no text spaces, so ``SB3TextEnv`` shows the policy a float vector — the hashed goal, the
hashed observation, one hashed block per admissible action (slot k describes what action k does)
and, per slot, how much the action's words overlap the goal's and the observation's (cosine of
the hashed vectors: the cue a text task rewards, which a small MLP is slow to find in raw hashed
blocks) — and takes ``k`` in ``Discrete(max_actions)`` to mean the k-th admissible action.
``action_masks()`` marks the slots that hold an action, for ``sb3_contrib.MaskablePPO``; plain
PPO, A2C or DQN may pick an empty slot, which is played as an invalid action (the env spends the
step and reports it) and costs ``invalid_penalty``.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from agentgym_sb3.featurize import TextHasher

#: the action an empty slot is played as: no env accepts it, so it spends the step as an error
EMPTY_SLOT_ACTION = "(no action in this slot)"


class SB3TextEnv(gym.Wrapper):
    """Vector observations and ``Discrete(max_actions)`` actions over an AgentGym env."""

    def __init__(
        self,
        env: gym.Env,
        max_actions: int = 32,
        text_dim: int = 256,
        action_dim: int = 64,
        invalid_penalty: float = 0.1,
    ) -> None:
        super().__init__(env)
        if max_actions < 1:
            raise ValueError(f"max_actions must be at least 1, got {max_actions}")
        self.max_actions = max_actions
        self.invalid_penalty = invalid_penalty
        self.text = TextHasher(text_dim)
        self.action_text = TextHasher(action_dim)
        size = 2 * text_dim + max_actions * (action_dim + 2)
        self.observation_space = gym.spaces.Box(-1.0, 1.0, shape=(size,), dtype=np.float32)
        self.action_space = gym.spaces.Discrete(max_actions)
        self._actions: list[str] = []
        self._goal = ""
        #: admissible actions beyond ``max_actions`` that could not be offered (raise it if > 0)
        self.dropped_actions = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        observation, info = self.env.reset(seed=seed, options=options)
        self._goal = str(info.get("goal", ""))
        return self._observe(observation, info), info

    def step(self, action: int):
        slot = int(action)
        valid = 0 <= slot < len(self._actions)
        text = self._actions[slot] if valid else EMPTY_SLOT_ACTION
        observation, reward, terminated, truncated, info = self.env.step(text)
        if not valid:
            reward = float(reward) - self.invalid_penalty
        info = {**info, "sb3_action_text": text, "sb3_valid_slot": valid}
        return self._observe(observation, info), float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """True for the slots that hold an admissible action (slot 0 when there is none, so a
        masked policy always has a move)."""
        mask = np.zeros(self.max_actions, dtype=bool)
        mask[: len(self._actions)] = True
        if not mask.any():
            mask[0] = True
        return mask

    def _observe(self, observation: str, info: dict[str, Any]) -> np.ndarray:
        if "admissible_actions" not in info:
            raise ValueError(
                f"{self.env.spec.id if self.env.spec else self.env} reports no "
                "info['admissible_actions']; SB3TextEnv needs them to define its actions"
            )
        admissible = list(info["admissible_actions"] or [])
        self.dropped_actions += max(len(admissible) - self.max_actions, 0)
        self._actions = admissible[: self.max_actions]
        goal, seen = self.text(self._goal), self.text(str(observation))
        slots = np.zeros((self.max_actions, self.action_text.dim + 2), dtype=np.float32)
        for slot, action in enumerate(self._actions):
            slots[slot, :-2] = self.action_text(action)
            words = self.text(action)  # in the goal's hashing space, for the overlaps
            slots[slot, -2:] = (float(words @ goal), float(words @ seen))
        return np.concatenate([goal, seen, slots.reshape(-1)])


def make_sb3_env(env_id: str, wrapper_kwargs: dict[str, Any] | None = None, **make_kwargs):
    """``gymnasium.make(env_id, **make_kwargs)`` wrapped in ``SB3TextEnv(**wrapper_kwargs)``:
    a callable for SB3's ``make_vec_env`` / ``DummyVecEnv`` is ``lambda: make_sb3_env(...)``."""
    import agentgym_envs  # noqa: F401 - registers the AgentGym ids

    return SB3TextEnv(gym.make(env_id, **make_kwargs), **(wrapper_kwargs or {}))


__all__ = ["EMPTY_SLOT_ACTION", "SB3TextEnv", "make_sb3_env"]
