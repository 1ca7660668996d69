"""Fixed task-list sizes per (difficulty, split), mirroring ALFWorld's split sizes.

ALFWorld has 3,553 train games, 140 valid_seen, 134 valid_unseen; we mirror those, with 140 test
and 140 adversarial games. Every difficulty has the same sizes.
"""

from __future__ import annotations

from agentgym_envs.core import DIFFICULTIES, SplitTable

SPLIT_SIZES: dict[str, int] = {
    "train": 3553,
    "valid": 140,
    "test": 140,
    "ood": 134,
    "adversarial": 140,
}

TASK_TABLE = SplitTable(
    "alfworld", {(d, s): n for d in DIFFICULTIES for s, n in SPLIT_SIZES.items()}
)
