"""Where generated data lives on disk, and the lock that lets parallel processes build it once."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path


def cache_home() -> Path:
    """``$AGENTGYM_CACHE`` if set, else ``~/.cache/agentgym`` (DESIGN.md §4)."""
    base = os.environ.get("AGENTGYM_CACHE")
    return Path(base) if base else Path.home() / ".cache" / "agentgym"


@contextlib.contextmanager
def build_lock(directory: Path) -> Iterator[None]:
    """An exclusive inter-process lock beside ``directory`` (a no-op where fcntl is missing)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    directory.parent.mkdir(parents=True, exist_ok=True)
    with open(directory.with_name(directory.name + ".lock"), "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
