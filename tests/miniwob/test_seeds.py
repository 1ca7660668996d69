"""Reset seeds map onto MiniWoB page seeds one to one, in a block per split (no browser)."""

from __future__ import annotations

import numpy as np

from agentgym_envs.miniwob.seeds import BLOCK, page_seed


def test_100k_reset_seeds_give_100k_pages_per_split_and_no_page_is_in_two_splits():
    seen: dict[str, set[int]] = {}
    for split in ("train", "valid", "test", "ood"):
        pages = np.array([page_seed(split, s) for s in range(100_000)])
        assert len(set(pages.tolist())) == 100_000
        seen[split] = set(pages.tolist())
    splits = list(seen)
    for i, a in enumerate(splits):
        for b in splits[i + 1 :]:
            assert not seen[a] & seen[b], (a, b)
    assert page_seed("adversarial", 5) == page_seed("test", 5)  # paired with test's pages
    assert all(0 <= page_seed("ood", s) - 3 * BLOCK < BLOCK for s in (0, 1, 10**9 - 1))
