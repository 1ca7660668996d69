"""Helpers of the ALFWorld tests: skip cleanly without the optional ALFWorld stack."""

from __future__ import annotations

import importlib.util

import pytest

HAVE_ALFWORLD = importlib.util.find_spec("alfworld") is not None
HAVE_ENGINE = all(importlib.util.find_spec(m) is not None for m in ("textworld", "fast_downward"))

needs_alfworld = pytest.mark.skipif(
    not HAVE_ALFWORLD, reason="alfworld==0.4.2 is not installed (run scripts/install_alfworld.sh)"
)
needs_engine = pytest.mark.skipif(
    not (HAVE_ALFWORLD and HAVE_ENGINE),
    reason="textworld/fast-downward-textworld/alfworld missing: run scripts/install_alfworld.sh",
)
