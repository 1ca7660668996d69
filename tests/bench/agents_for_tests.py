"""Agents the runner tests load by ``module:callable`` (worker processes import them by name)."""

from __future__ import annotations

import json
import random
import time
from typing import Any


class _Hangs:
    """Hangs on the first task of each list (seed 0), plays the first admissible action
    elsewhere (a custom agent never sees the oracle's)."""

    def reset(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, observation: str, info: dict[str, Any]) -> str:
        if self.seed == 0:
            time.sleep(3600)
        return (info.get("admissible_actions") or ["look"])[0]


class _Raises:
    def act(self, observation: str, info: dict[str, Any]) -> str:
        raise RuntimeError("the model server went away")


def hangs_on_seed_0(env: Any) -> _Hangs:
    return _Hangs()


def raises(env: Any) -> _Raises:
    return _Raises()


#: every ``act_batch`` call of the batch agents in this process: the (task, slot) of its slots
CALLS: list[list[tuple[str, int]]] = []
#: the live slots of every ``_BatchRandom`` of this process (they batch together)
_SLOTS: dict[int, tuple[random.Random, int | None, list[int]]] = {}


class _BatchRandom:
    """A seeded random player with the batch protocol: each episode's moves depend only on its
    seed (a random admissible action; no move after 2 + seed steps), unbatched or in a batch.
    Its instances share their slots (``batch_with``), as the model agents do; each call's slots
    are appended to ``CALLS`` and, with ``log``, to that file (one JSON list per call). With
    ``fail_on_seed`` that seed's episodes fail at their second move: ``act`` raises, and
    ``act_batch`` puts the exception in the slot's place (lockstep's per-episode errors)."""

    batch_with = "batch-random"

    def __init__(self, log: str | None = None, hang_on_seed: int | None = None,
                 fail_on_seed: int | None = None) -> None:  # fmt: skip
        self.log, self.hang_on_seed, self.fail_on_seed = log, hang_on_seed, fail_on_seed
        self.reset(None)

    def reset(self, seed: int | None = None) -> None:
        self.own = (random.Random(seed), seed, [0])

    def act(self, observation: str, info: dict[str, Any]) -> str | None:
        return _move(self.own, info, self.fail_on_seed)

    def start_slot(self, slot: int, seed: int | None) -> None:
        _SLOTS[slot] = (random.Random(seed), seed, [0])

    def end_slot(self, slot: int) -> None:
        del _SLOTS[slot]

    def act_batch(self, slots: Any, observations: Any, infos: Any) -> list[str | None]:
        CALLS.append([(info["task_id"], slot) for slot, info in zip(slots, infos, strict=True)])
        if self.log:
            with open(self.log, "a", encoding="utf-8") as out:
                out.write(json.dumps(CALLS[-1]) + "\n")
        if self.hang_on_seed is not None and any(
            _SLOTS[slot][1] == self.hang_on_seed for slot in slots
        ):
            time.sleep(3600)
        actions: list[str | Exception | None] = []
        for slot, info in zip(slots, infos, strict=True):
            try:
                actions.append(_move(_SLOTS[slot], info, self.fail_on_seed))
            except RuntimeError as error:  # this slot's episode alone fails
                actions.append(error)
        return actions


def _move(state: tuple[random.Random, int | None, list[int]], info: dict[str, Any],
          fail_on_seed: int | None = None) -> str | None:  # fmt: skip
    rng, seed, steps = state
    steps[0] += 1
    if seed == fail_on_seed and steps[0] == 2:
        raise RuntimeError(f"no second move for seed {seed}")
    if steps[0] > 2 + (seed or 0):
        return None
    return rng.choice(sorted(info["admissible_actions"]))


def batch_random(env: Any, **options: Any) -> _BatchRandom:
    return _BatchRandom(**options)


class _CopiesTheOracle:
    """Sends the oracle's next action whenever its env gives one (the attack on the board: a
    custom agent copying ``info["expert_action"]``), else says it has none."""

    def act(self, observation: str, info: dict[str, Any]) -> str:
        return info.get("expert_action") or "no oracle"


def copies_the_oracle(env: Any) -> _CopiesTheOracle:
    return _CopiesTheOracle()
