"""Test order for parallel runs (``scripts/test.sh`` runs pytest-xdist workers): the tests that
take minutes start first, one worker each, so they overlap each other and the many short ones
instead of queueing behind one another.

xdist's ``worksteal`` scheduler hands each worker one contiguous block of the collected order
(sizes as ``_block_sizes``) and lets an idle worker take the back half of the longest queue. With
every long test at the front, all of them fell into the first worker's block: PPO's learning
test ran there, then GRPO's behind it (1,511 s in a row of a 1,742 s run). So the long tests are
dealt to the heads of the blocks, longest first onto the block with the least work so far.
The order is the same in every worker (xdist checks that the collections agree).
"""

from __future__ import annotations

import os

import pytest

#: The tests that take minutes (a part of the node id names them), with their seconds in a
#: 3-worker run on the 2-core machine (2026-12-03; the learning tests and SmolLM2's shipped
#: recipes 2026-12-07, each beside two other CPU-heavy processes).
HEAVY_SECONDS = {
    "test_learning.py::test_grpo_after_short_warm_start_reaches_08": 680,
    "test_learning.py::test_ppo_after_short_warm_start_reaches_08": 330,
    "test_committed_board.py::test_every_committed_submission_replays": 249,
    "test_replay.py::test_every_task_replays_exactly[random]": 207,
    "test_shipped_config_trains_one_update[smollm2/miniwob]": 180,
    "test_replay.py::test_every_task_replays_exactly[oracle]": 156,
    "test_env.py::test_oracle_on_every_default_task": 137,
    "test_mcp_soak_leaves_the_server_flat[Toy]": 140,
    "test_shipped_config_trains_one_update[smollm2/webshop]": 121,
    "test_shipped_config_trains_one_update[webshop-qwen-lora]": 98,
}


def _heavy_seconds(item: pytest.Item) -> int:
    return next((s for name, s in HEAVY_SECONDS.items() if name in item.nodeid), 0)


def _block_sizes(count: int, workers: int) -> list[int]:
    """The block each worker gets first from ``worksteal`` (its ``check_schedule``)."""
    sizes, left = [], count
    for index in range(workers):
        sizes.append(left // (workers - index))
        left -= sizes[-1]
    return sizes


def _dealt(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """The order whose first blocks each start with their share of the long tests."""
    heavy = sorted((i for i in items if _heavy_seconds(i)), key=_heavy_seconds, reverse=True)
    rest = iter([i for i in items if not _heavy_seconds(i)])
    heads: list[list[pytest.Item]] = [[] for _ in range(workers)]
    load = [0] * workers
    for item in heavy:
        block = load.index(min(load))
        heads[block].append(item)
        load[block] += _heavy_seconds(item)
    # the rest (slow-marked first) fills the blocks from the last: the first block, which holds
    # the longest test, gets the quickest ones, so what waits behind that test is short and
    # what idle workers steal from its back is not
    blocks = list(zip(heads, _block_sizes(len(items), workers), strict=True))
    filled = [head + [next(rest) for _ in range(max(0, size - len(head)))]
              for head, size in reversed(blocks)]  # fmt: skip
    return [item for block in reversed(filled) for item in block] + list(rest)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: 0 if item.get_closest_marker("slow") else 1)  # stable
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers > 1:
        items[:] = _dealt(items, workers)
    else:
        items.sort(key=lambda item: -_heavy_seconds(item))
