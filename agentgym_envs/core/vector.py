"""What every AgentGym vector env shares with Gymnasium's own: how ``reset(seed=...)`` seeds it,
how a sub-env autoresets (``AutoresetSlot``), and how one env's info is read back out of a vector
env's batched infos."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode


def vector_seeds(seed: int | Sequence[int | None] | None, num_envs: int) -> list[int | None]:
    """Each sub-env's reset seed, as Gymnasium's ``SyncVectorEnv.reset`` expands ``seed``:
    ``None`` -> no seed for any, an int ``s`` -> ``s, s + 1, ..., s + num_envs - 1``, a sequence
    -> itself (ValueError unless it has ``num_envs`` entries; an entry may be None)."""
    if seed is None:
        return [None] * num_envs
    if isinstance(seed, int):
        return [seed + i for i in range(num_envs)]
    seeds = list(seed)
    if len(seeds) != num_envs:
        raise ValueError(f"expected {num_envs} seeds (one per env), got {len(seeds)}")
    return seeds


class AutoresetSlot:
    """One sub-env of a vector env and its pending autoreset: Gymnasium's rule, in one place for
    every AgentGym vector env. ``NEXT_STEP``: the step after an episode's end resets the env
    (its action ignored) and returns the reset observation with reward 0, neither terminated
    nor truncated; ``SAME_STEP``: the end's step resets at once, the ended episode's last
    observation and info in ``info["final_obs"]`` / ``["final_info"]``; ``DISABLED``: stepping
    an ended env is an error. ``ended=True``: the first step is such a (seedless) reset."""

    def __init__(
        self, env: gym.Env, mode: str | AutoresetMode = AutoresetMode.NEXT_STEP, ended: bool = False
    ) -> None:
        self.env, self.mode, self.ended = env, AutoresetMode(mode), ended

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        """``env.reset(**kwargs)``, which clears the pending autoreset."""
        observation, info = self.env.reset(**kwargs)
        self.ended = False
        return observation, info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """The env's step under the autoreset mode (see the class)."""
        if self.ended and self.mode == AutoresetMode.NEXT_STEP:
            observation, info = self.reset()
            return observation, 0.0, False, False, info
        if self.ended and self.mode == AutoresetMode.DISABLED:
            raise RuntimeError("stepped an env whose episode ended, with autoreset disabled: "
                               "reset it first (options={'reset_mask': ...})")  # fmt: skip
        observation, reward, terminated, truncated, info = self.env.step(action)
        self.ended = bool(terminated or truncated)
        if self.ended and self.mode == AutoresetMode.SAME_STEP:
            final = {"final_obs": observation, "final_info": info}
            observation, reset_info = self.env.reset()
            info = {**final, **reset_info}
        return observation, reward, terminated, truncated, info


def unbatch_info(infos: Mapping[str, Any], index: int) -> dict[str, Any]:
    """Env ``index``'s own info dict from a vector env's infos (Gymnasium's layout: each key an
    array over the envs, ``"_key"`` a mask of the envs that set it; nested dicts alike).

    Numpy scalars come back as Python values, so an AgentGym env's info reads back equal to
    the single env's (its fields keep one type per key, and a field with no value is left out
    rather than set to None, which Gymnasium's float arrays would turn into nan)."""
    info: dict[str, Any] = {}
    for key, values in infos.items():
        if key.startswith("_"):
            continue
        mask = infos.get(f"_{key}")
        if mask is not None and not mask[index]:
            continue
        if isinstance(values, Mapping):
            info[key] = unbatch_info(values, index)
            continue
        value = values[index]
        info[key] = value.item() if isinstance(value, np.generic) else value
    return info


__all__ = ["AutoresetSlot", "unbatch_info", "vector_seeds"]
