"""Fixtures of the ALFWorld tests: a private game cache, one engine per session."""

from __future__ import annotations

import pytest

from tests.alfworld.support import HAVE_ALFWORLD, HAVE_ENGINE


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
