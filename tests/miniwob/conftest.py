"""Fixtures of the MiniWoB tests: one browser per session, envs on it."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def browser_keeper():
    """Hold the process's page loop for the whole session so envs share one Chromium instead of
    relaunching it after each test's last env closes."""
    from agentgym_envs.miniwob.async_page import PageLoop

    loop = PageLoop.acquire()
    yield
    PageLoop.release(loop)


@pytest.fixture
def make_env(browser_keeper):
    """Build MiniWoB envs and close them all at the end of the test."""
    from agentgym_envs.miniwob.env import MiniWoBEnv

    envs = []

    def _make(**kwargs):
        env = MiniWoBEnv(**kwargs)
        envs.append(env)
        return env

    yield _make
    for env in envs:
        env.close()
