"""Crash safety: dead browsers and pages truncate the episode and recover; nothing is orphaned."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from tests.miniwob.support import needs_browser

pytestmark = needs_browser


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _wait_gone(pids: list[int], seconds: float = 15.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        alive = [p for p in pids if _alive(p)]
        if not alive:
            return []
        time.sleep(0.1)
    return [p for p in pids if _alive(p)]


def test_killed_browser_truncates_the_episode_then_recovers(make_env):
    env = make_env(task="click-button")
    env.reset(seed=0)
    env.unwrapped.page.loop.kill_browser()
    obs, reward, terminated, truncated, info = env.step("click [1]")
    assert truncated and not terminated and reward == 0.0
    assert info["truncated_reason"].startswith("browser crashed")
    assert "browser crashed" in obs
    _, _, terminated, truncated, info = env.step("click [1]")  # the end is reported again
    assert truncated and not terminated and "reset()" in info["action_error"]
    assert info["truncated_reason"].startswith("browser crashed")
    obs, info = env.reset(seed=0)  # a fresh browser, the same episode as before the crash
    assert info["utterance"] and "[1]" in obs
    _, _, terminated, truncated, _ = env.step("noop")
    assert not truncated


def test_closed_page_truncates_the_episode(make_env):
    env = make_env(task="enter-text")
    env.reset(seed=0)
    page = env.unwrapped.page
    page.loop.run(page.driver._page.close())  # the tab dies under the env
    *_, truncated, info = env.step('type [1] "x"')
    assert truncated and "closed" in info["truncated_reason"]
    obs, _ = env.reset(seed=1)
    assert "Submit" in obs


def test_close_leaves_no_chromium_behind():
    code = textwrap.dedent(
        """
        import os
        from agentgym_envs.miniwob.env import MiniWoBEnv
        from agentgym_envs.miniwob.browser import chromium_descendants
        env = MiniWoBEnv(task="click-test")
        env.reset(seed=0)
        print(" ".join(map(str, chromium_descendants(os.getpid(), ""))), flush=True)
        env.close()
        env.close()
        """
    )
    child = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=os.getcwd(),
        check=True,
    )
    pids = [int(p) for p in child.stdout.split()]
    assert len(pids) >= 2  # the Node driver and Chromium's processes
    assert _wait_gone(pids) == []


_CHILD = textwrap.dedent(
    """
    import os, signal, sys
    from agentgym_envs.miniwob.env import MiniWoBEnv
    from agentgym_envs.miniwob.browser import chromium_descendants
    env = MiniWoBEnv(task="click-test")
    env.reset(seed=0)
    print(" ".join(map(str, chromium_descendants(os.getpid(), ""))), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
    """
)


@pytest.mark.parametrize("how", ["sigkill", "sigterm"])
def test_killed_parent_leaves_no_chromium_behind(how):
    code = _CHILD if how == "sigkill" else _CHILD.replace("SIGKILL", "SIGTERM")
    child = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=os.getcwd()
    )
    assert child.returncode in (-signal.SIGKILL, -signal.SIGTERM), child.stderr[-2000:]
    pids = [int(p) for p in child.stdout.split()]
    assert pids, child.stderr[-2000:]
    assert _wait_gone(pids) == [], "Chromium outlived its parent"


HANG_ON_MOUSEDOWN = "() => document.addEventListener('mousedown', () => { for (;;) {} }, true)"


def _a_click(info) -> str:
    return next(a for a in info["admissible_actions"] if a.startswith("click"))


def test_a_step_past_its_timeout_is_truncated_and_the_next_reset_recovers(make_env):
    env = make_env(task="click-button", step_timeout_s=5.0)  # margin for a loaded machine
    _, info = env.reset(seed=0)
    env.unwrapped.task.page.evaluate(HANG_ON_MOUSEDOWN)  # the page's JS never returns
    obs, reward, terminated, truncated, info = env.step(_a_click(info))
    assert (reward, terminated, truncated) == (0.0, False, True)
    assert info["truncated_reason"].startswith("step timed out after 5 s")
    obs, info = env.reset(seed=0)  # a fresh browser
    _, _, terminated, truncated, info = env.step(info["expert_action"])
    assert terminated and not truncated and info["success"]


def test_overlong_type_is_an_action_error_before_the_browser(make_env):
    env = make_env(task="enter-text")
    _, info = env.reset(seed=0)
    field = info["expert_action"].split("]")[0].removeprefix("type [")  # the text field
    obs, reward, terminated, truncated, info = env.step(f'type [{field}] "{"x" * 100_000}"')
    assert "at most 500 characters, got 100000" in info["action_error"]
    assert not (terminated or truncated) and env.unwrapped.task.history == []
    _, _, _, _, info = env.step(f'type [{field}] "{"x" * 500}"')  # the cap itself is typed
    assert info["action_error"] is None
