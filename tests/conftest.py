"""Test order for parallel runs (``scripts/test.sh`` runs pytest-xdist workers): the tests that
take minutes start first, so they overlap the many short ones instead of running alone at the
end (the GRPO learning test alone is ~8 minutes of one core)."""

from __future__ import annotations

import pytest

#: Modules whose tests take minutes each, longest first (figures from a 2-core run).
HEAVIEST = (
    "tests/train/test_learning.py",  # GRPO ~500 s, PPO ~230 s
    "tests/miniwob/test_replay.py",  # every task's random and oracle episodes, replayed
    "tests/train/test_shipped_configs.py",  # the Qwen recipe with SmolLM2 standing in
)


def _rank(item: pytest.Item) -> tuple[int, int]:
    path = item.nodeid.split("::")[0]
    if path in HEAVIEST:
        return (0, HEAVIEST.index(path))
    return (1, 0) if item.get_closest_marker("slow") else (2, 0)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: the order inside each group stays as collected
