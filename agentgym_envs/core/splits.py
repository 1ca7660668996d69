"""Difficulty levels, splits, and the checks that turn a typo into a helpful ``ValueError``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

DIFFICULTIES: tuple[str, ...] = ("easy", "medium", "hard")
SPLITS: tuple[str, ...] = ("train", "valid", "test", "ood", "adversarial")
#: the generalization ladder results are read on: i.i.d. test, out of distribution, adversarial
HELD_OUT: tuple[str, ...] = ("test", "ood", "adversarial")


def check_choice(name: str, value: object, valid: Iterable[str]) -> str:
    """Return ``value`` if it is one of ``valid``; otherwise raise a ValueError that lists them."""
    options = tuple(valid)
    if value not in options:
        listed = ", ".join(repr(v) for v in options)
        raise ValueError(f"{name}={value!r} is not valid; choose one of {listed}")
    return value  # type: ignore[return-value]


class SplitTable:
    """Task-list sizes per (difficulty, split) and the task ids they imply.

    Ids read ``<prefix>-<difficulty>-<split>-<index:05d>``, so a task id alone says where it
    came from, and the list is the same on every machine.
    """

    def __init__(self, prefix: str, sizes: Mapping[tuple[str, str], int]) -> None:
        for difficulty, split in sizes:
            check_choice("difficulty", difficulty, DIFFICULTIES)
            check_choice("split", split, SPLITS)
        self.prefix = prefix
        self.sizes = dict(sizes)

    def size(self, difficulty: str, split: str) -> int:
        check_choice("difficulty", difficulty, DIFFICULTIES)
        check_choice("split", split, SPLITS)
        return self.sizes.get((difficulty, split), 0)

    def task_ids(self, difficulty: str, split: str) -> list[str]:
        count = self.size(difficulty, split)
        return [f"{self.prefix}-{difficulty}-{split}-{i:05d}" for i in range(count)]

    def parse(self, task_id: str) -> tuple[str, str, int]:
        """Split a task id into (difficulty, split, index); ValueError if it is not one of ours."""
        parts = task_id.rsplit("-", 3)
        if len(parts) != 4 or parts[0] != self.prefix or not parts[3].isdigit():
            raise ValueError(
                f"task_id {task_id!r} is not a {self.prefix} task id "
                f"(expected '{self.prefix}-<difficulty>-<split>-<index>')"
            )
        _, difficulty, split, index = parts
        if not 0 <= int(index) < self.size(difficulty, split):
            raise ValueError(
                f"task_id {task_id!r}: index out of range for {difficulty}/{split} "
                f"(size {self.size(difficulty, split)})"
            )
        return difficulty, split, int(index)
