"""Observations wait for pictures: an icon drawn with CSS (``content: url(...)``) has no size, so
no place in the snapshot, until its picture arrives. A slow picture once dropped the email
inbox's star icons from a first observation, and the replay of that episode did not match.

The pictures are slowed down with a route on the async page (whose handlers can wait without
blocking the page); the sync page sends the same scripts.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("playwright")

from agentgym_envs.miniwob import page_js
from agentgym_envs.miniwob.async_page import AsyncMiniWoBPage
from agentgym_envs.miniwob.browser import AsyncBrowser

DELAY_S = 0.4


async def _slowly(route) -> None:
    await asyncio.sleep(DELAY_S)
    await route.continue_()


def _on_a_page(play):
    """``await play(page, playwright_page)`` on a fresh browser, in a thread of its own (an event
    loop left in the test thread breaks sync Playwright); returns what ``play`` returns."""

    async def run():
        browser = AsyncBrowser()
        await browser.start()
        try:
            page = AsyncMiniWoBPage(browser)
            return await play(page, await page._ensure_page())
        finally:
            await browser.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result(timeout=120)


def test_first_observation_has_the_icons_of_a_slow_css_picture():
    async def stars(page, playwright_page) -> int:
        await playwright_page.route("**/star.png", _slowly)
        await page.start_episode("email-inbox-delete", 8)
        nodes = await page.snapshot()
        return sum(node.get("cls") == "star" for node in nodes)

    assert _on_a_page(stars) == 3  # one per email


def test_an_image_still_loading_is_awaited():
    async def sizes(page, playwright_page) -> tuple[bool, bool]:
        await playwright_page.route("**/delete.png", _slowly)
        await page.start_episode("click-test", 1)  # a page that never shows delete.png
        add = """(src) => { const img = document.createElement('img');
                            img.id = 'late'; img.src = src;
                            document.getElementById('area').appendChild(img); }"""
        src = "../common/special/email-inbox/delete.png"
        await playwright_page.evaluate(add, src)
        width = "() => document.getElementById('late').getBoundingClientRect().width"
        before = await playwright_page.evaluate(width)
        await page.evaluate(page_js.WAIT_IMAGES, 2_000)
        after = await playwright_page.evaluate(width)
        return before > 0, after > 0

    assert _on_a_page(sizes) == (False, True)


def test_pictures_named_by_stylesheets_survive_garbage_collection():
    """The memory cache drops a picture nothing references at the next collection; the opened
    email of email-inbox-noscroll then drew its back and reply icons a layout late (CI's replay
    of a random episode differed at the step that opened an email)."""

    async def widths(page, playwright_page) -> dict[str, float]:
        await page.start_episode("email-inbox-noscroll", 20)
        cdp = await playwright_page.context.new_cdp_session(playwright_page)
        await cdp.send("HeapProfiler.collectGarbage")
        open_email = """() => {  // the sizes in the same task as the click: no layout later
          document.querySelector('#main .email-thread').click();
          const width = (s) => document.querySelector(s).getBoundingClientRect().width;
          return {back: width('#close-email'), reply: width('.email-reply .icon')};
        }"""
        return await playwright_page.evaluate(open_email)

    assert _on_a_page(widths) == {"back": 12, "reply": 18}
