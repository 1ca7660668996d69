"""Which MiniWoB page seed an episode plays: one block of page seeds per split, and a bijection
from reset seeds into it, so different reset seeds never share a page and no page is in two
splits (before, a random draw from a 10,000-wide range per split gave 6,350 distinct pages
for reset seeds 0..9,999, and valid, test and ood shared their offsets).

Reset seed s of split X plays page seed ``BLOCK * X + (s * STRIDE mod BLOCK)``: distinct for the
first billion reset seeds, disjoint across train / valid / test / ood; adversarial replays
test's pages (with decoys). A reset without a seed keeps drawing from the episode's RNG, mapped
the same way.
"""

from __future__ import annotations

#: page seeds per split block
BLOCK = 1_000_000_000
#: odd and not a multiple of 5 (coprime with BLOCK), so s -> s * STRIDE mod BLOCK is a bijection
STRIDE = 387_420_489  # 3**18
SPLIT_BLOCK = {"train": 0, "valid": 1, "test": 2, "ood": 3, "adversarial": 2}


def page_seed(split: str, seed: int) -> int:
    """The page seed reset seed ``seed`` plays in ``split``."""
    return SPLIT_BLOCK[split] * BLOCK + (seed * STRIDE) % BLOCK


__all__ = ["BLOCK", "SPLIT_BLOCK", "STRIDE", "page_seed"]
