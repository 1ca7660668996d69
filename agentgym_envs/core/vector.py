"""What every AgentGym vector env shares with Gymnasium's own: how ``reset(seed=...)`` seeds it,
and how one env's info is read back out of a vector env's batched infos."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np


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


__all__ = ["unbatch_info", "vector_seeds"]
