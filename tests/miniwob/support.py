"""Helpers of the MiniWoB tests: browser tests skip (with the install command) where Chromium is
missing."""

from __future__ import annotations

import pytest

from agentgym_envs.miniwob.browser import browser_available


def _miniwob_installed() -> tuple[bool, str]:
    try:
        from agentgym_envs.miniwob.tasks import html_root

        html_root()
    except ModuleNotFoundError as error:
        return False, str(error)
    return True, ""


_BROWSER_OK, _BROWSER_WHY = browser_available()
_MINIWOB_OK, _MINIWOB_WHY = _miniwob_installed()

#: Apply to tests that drive a real page.
needs_browser = pytest.mark.skipif(
    not (_BROWSER_OK and _MINIWOB_OK),
    reason=f"MiniWoB browser tests need Chromium, playwright and miniwob: "
    f"{_BROWSER_WHY or _MINIWOB_WHY} (or run scripts/install_miniwob.sh)",
)
needs_miniwob = pytest.mark.skipif(not _MINIWOB_OK, reason=_MINIWOB_WHY or "miniwob missing")
