"""Shared fixtures: skip cleanly without the optional ALFWorld stack; a private game cache."""

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


@pytest.fixture(scope="session")
def alfworld_cache(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("agentgym-cache"))


@pytest.fixture(autouse=True)
def _private_cache(alfworld_cache: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTGYM_CACHE", alfworld_cache)


@pytest.fixture(scope="session")
def engine():
    if not (HAVE_ALFWORLD and HAVE_ENGINE):
        pytest.skip("ALFWorld stack not installed (run scripts/install_alfworld.sh)")
    from agentgym_envs.alfworld.engine import GameEngine

    eng = GameEngine()
    yield eng
    eng.close()
