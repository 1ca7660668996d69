"""The single env's page: the async driver behind a blocking face on the process's shared loop."""

from __future__ import annotations

import asyncio
import concurrent.futures

from tests.miniwob.support import needs_browser

pytestmark = needs_browser

HANG_ON_MOUSEDOWN = "() => document.addEventListener('mousedown', () => { for (;;) {} }, true)"


def test_envs_of_a_process_share_one_loop_and_browser(make_env):
    first, second = make_env(task="click-test"), make_env(task="click-button")
    first.reset(seed=0)
    second.reset(seed=0)
    assert first.unwrapped.page.loop is second.unwrapped.page.loop
    assert first.unwrapped.page.driver._context is not second.unwrapped.page.driver._context


def test_a_hung_step_stops_only_its_own_env(make_env):
    hung, other = make_env(task="click-button", step_timeout_s=2.0), make_env(task="click-button")
    _, hung_info = hung.reset(seed=0)
    _, other_info = other.reset(seed=1)
    hung.unwrapped.page.evaluate(HANG_ON_MOUSEDOWN)  # the page's JS never returns
    *_, truncated, info = hung.step(hung_info["expert_action"])
    assert truncated and info["truncated_reason"].startswith("step timed out after 2 s")
    _, reward, terminated, truncated, info = other.step(other_info["expert_action"])
    assert (reward, terminated, truncated) == (1.0, True, False)  # its episode went on
    _, info = hung.reset(seed=0)
    assert hung.step(info["expert_action"])[2]  # a fresh page, the same episode


def test_an_env_works_inside_a_running_event_loop(make_env):
    # Playwright's sync API refuses to run there; the page loop runs in its own thread.
    env = make_env(task="click-test")

    async def play() -> bool:
        _, info = env.reset(seed=0)
        return env.step(info["expert_action"])[4]["success"]

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        assert pool.submit(asyncio.run, play()).result(timeout=120)


def test_a_hung_browser_is_killed_and_the_next_reset_launches_a_new_one(monkeypatch):
    import os
    import signal

    from agentgym_envs.miniwob import async_page
    from agentgym_envs.miniwob.vector import MiniWoBVectorEnv

    monkeypatch.setattr(async_page, "CLOSE_TIMEOUT_S", 1.0)
    vec = MiniWoBVectorEnv(1, task="click-button", step_timeout_s=2.0)  # a browser of its own
    try:
        _, infos = vec.reset(seed=[0])
        stopped = vec.envs[0].unwrapped.page.loop.browser_pid
        assert stopped is not None
        os.kill(stopped, signal.SIGSTOP)  # the browser answers nothing, closes nothing
        _, _, _, truncated, infos = vec.step(list(infos["expert_action"]))
        assert truncated[0] and infos["truncated_reason"][0].startswith("step timed out")
        _, infos = vec.reset(seed=[0])  # its context would not close: the browser was killed
        assert vec.envs[0].unwrapped.page.loop.browser_pid not in (None, stopped)
        _, _, terminated, _, infos = vec.step(list(infos["expert_action"]))
        assert terminated[0] and infos["success"][0]
    finally:
        vec.close()
