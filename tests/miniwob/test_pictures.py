"""Observations wait for pictures: an icon drawn with CSS (``content: url(...)``) has no size, so
no place in the snapshot, until its picture arrives. A slow picture once dropped the email
inbox's star icons from a first observation, and the replay of that episode did not match.

The pictures are slowed down with a route on the page's context (whose handlers can wait without
blocking the page). Page time (``clock``) stands still while a picture is on its way, so however
late it arrives, it arrives at the same page time.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("playwright")

from agentgym_envs.miniwob.actions import parse_action
from agentgym_envs.miniwob.async_page import AsyncMiniWoBPage
from agentgym_envs.miniwob.browser import AsyncBrowser

DELAY_S = 0.4


async def _slowly(route) -> None:
    await asyncio.sleep(DELAY_S)
    await route.continue_()


def _on_a_page(play, slow: str | None = None):
    """``await play(page)`` on a fresh browser whose pictures matching ``slow`` arrive
    ``DELAY_S`` late, in a thread of its own (an event loop left in the test thread breaks sync
    Playwright); returns what ``play`` returns."""

    async def run():
        browser = AsyncBrowser()
        await browser.start()
        new_context = browser.new_context

        async def slowed_context():
            context = await new_context()
            if slow:
                await context.route(slow, _slowly)
            return context

        browser.new_context = slowed_context
        try:
            return await play(AsyncMiniWoBPage(browser))
        finally:
            await browser.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result(timeout=120)


def test_first_observation_has_the_icons_of_a_slow_css_picture():
    async def stars(page) -> int:
        started = await page.start_episode("email-inbox-delete", 8)
        return sum(node.get("cls") == "star" for node in started.nodes)

    assert _on_a_page(stars, slow="**/star.png") == 3  # one per email


def test_an_image_still_loading_is_awaited_with_page_time_standing_still():
    async def sizes(page) -> tuple[bool, bool, float]:
        await page.start_episode("click-test", 1)  # a page that never shows delete.png
        add = """(src) => { const img = document.createElement('img');
                            img.id = 'late'; img.src = src;
                            document.getElementById('area').appendChild(img); }"""
        src = "../common/special/email-inbox/delete.png"
        await page.evaluate(add, src)
        width = "() => document.getElementById('late').getBoundingClientRect().width"
        elapsed = "() => window.__agClock.elapsed()"
        before, clock = await page.evaluate(width), await page.evaluate(elapsed)
        await page.perform(parse_action("noop"))  # 100 ms of page time; the picture awaited
        return before > 0, await page.evaluate(width) > 0, await page.evaluate(elapsed) - clock

    before, after, page_time = _on_a_page(sizes, slow="**/delete.png")
    assert (before, after) == (False, True) and page_time < 1_000 * DELAY_S


def test_pictures_named_by_stylesheets_survive_garbage_collection():
    """The memory cache drops a picture nothing references at the next collection; the opened
    email of email-inbox-noscroll then drew its back and reply icons a layout late (CI's replay
    of a random episode differed at the step that opened an email)."""

    async def widths(page) -> dict[str, float]:
        await page.start_episode("email-inbox-noscroll", 20)
        cdp = await page._context.new_cdp_session(page._page)
        await cdp.send("HeapProfiler.collectGarbage")
        open_email = """() => {  // the sizes in the same task as the click: no layout later
          document.querySelector('#main .email-thread').click();
          const width = (s) => document.querySelector(s).getBoundingClientRect().width;
          return {back: width('#close-email'), reply: width('.email-reply .icon')};
        }"""
        return await page.evaluate(open_email)

    assert _on_a_page(widths) == {"back": 12, "reply": 18}
