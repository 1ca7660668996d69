"""Fixtures of the benchmark tests (the pieces behind them live in support.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bench.support import TINY_SUITE, Stub, serving


@pytest.fixture
def suite_file(tmp_path: Path) -> Path:
    """The tiny Toy suite written to a file."""
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY_SUITE)
    return path


@pytest.fixture
def stub() -> Iterator[Stub]:
    """A stub OpenAI-compatible server, serving for the test."""
    with serving(Stub()) as running:
        yield running
