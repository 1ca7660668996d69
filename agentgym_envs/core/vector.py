"""What every AgentGym vector env shares with Gymnasium's own: how ``reset(seed=...)`` seeds it."""

from __future__ import annotations

from collections.abc import Sequence


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


__all__ = ["vector_seeds"]
