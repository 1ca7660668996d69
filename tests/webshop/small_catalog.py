"""A 2,000-product generated catalog built once per test session in a private cache folder."""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
from pathlib import Path

SMALL = 2_000


@functools.cache
def small_cache_root() -> Path:
    """A private cache folder, removed when the test process exits."""
    root = Path(tempfile.mkdtemp(prefix="agentgym-webshop-test-"))
    atexit.register(shutil.rmtree, root, True)
    return root


@functools.cache
def small_catalog(num_products: int = SMALL, seed: int = 0):
    """Build (once) and load a small catalog under a temporary AGENTGYM_CACHE."""
    from agentgym_envs.webshop.sources import load_catalog

    previous = os.environ.get("AGENTGYM_CACHE")
    os.environ["AGENTGYM_CACHE"] = str(small_cache_root())
    try:
        return load_catalog(num_products=num_products, seed=seed)
    finally:
        if previous is None:
            del os.environ["AGENTGYM_CACHE"]
        else:
            os.environ["AGENTGYM_CACHE"] = previous
