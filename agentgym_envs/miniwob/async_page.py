"""The MiniWoB page driver: ``AsyncMiniWoBPage``, the one implementation of the episode protocol
(Playwright's asyncio API), and its blocking faces ``LoopPage`` / ``MiniWoBPage`` for the envs.

Same JavaScript (``page_js``) and shared helpers (``page``) for every caller; every driver call is
awaitable, so one event loop drives many pages at once. A ``PageLoop`` is that loop, run in a
daemon thread with one Chromium on it: ``MiniWoBPage`` (a single env's page) uses the process's
shared one, and ``vector.MiniWoBVectorEnv`` owns one for its N envs, whose blocking calls, made
from N threads, interleave on it. A step past its deadline is cancelled and closes only its own
page.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import threading
import time
from collections.abc import Coroutine, Iterator
from typing import Any, ClassVar

from agentgym_envs.core import ActionError
from agentgym_envs.miniwob import page_js
from agentgym_envs.miniwob.actions import Action
from agentgym_envs.miniwob.browser import (
    AsyncBrowser,
    BrowserUnavailable,
    _browser_pids,
    kill_process,
    launched_browser_pid,
)
from agentgym_envs.miniwob.clock import VirtualClock
from agentgym_envs.miniwob.page import (
    CLICK_TIMEOUT_MS,
    FILL_INPUT_TYPES,
    FIRST_WAIT_MS,
    HOVER_TRIES,
    HOVER_WAIT_MS,
    IDLE_HORIZON_MS,
    LOAD_TIMEOUT_MS,
    NOOP_MS,
    PATH_ACTIONS,
    PICTURE_TIMEOUT_MS,
    POINTER_ACTIONS,
    POINTER_MOVE_MS,
    SETTLE_LIMIT_MS,
    SETTLE_STEP_MS,
    STEP_TIMEOUT_S,
    BrowserCrashed,
    EpisodeState,
    Instruction,
    Started,
    StepTimedOut,
    _is_crash,
    check_clickable,
    hover_rules,
    match_options,
    path_error,
    pointer_ops,
    selection_matches,
    target_error,
    to_input_value,
    type_target,
)
from agentgym_envs.miniwob.tasks import FROZEN_NOW_MS, TASKS, task_url


class AsyncMiniWoBPage:
    """One page on a shared browser (an ``AsyncBrowser`` or a ``PageLoop``: anything with ``await
    new_context()``), run on virtual time (``clock``); reloaded per task change, staleness or
    crash."""

    def __init__(self, browser: Any, reload_every: int = 50, boxes: bool = False) -> None:
        self.browser = browser
        self.reload_every = reload_every
        #: Snapshots give each node its box (as ``MiniWoBPage.boxes``).
        self.boxes = boxes
        self._context: Any = None
        self._page: Any = None
        self.clock: VirtualClock | None = None
        self._task: str | None = None
        self._episodes_since_load = 0
        self.untrusted_clicks = 0  # as MiniWoBPage.untrusted_clicks
        self._pointer_parked = False
        self._pointer: tuple[float, float] = (0.0, 0.0)  # where the last mouse event went
        #: the observation the last settling read from the idle page, until the page is touched
        self._observed: dict[str, Any] | None = None

    async def _load(self, task: str) -> Any:
        """Load ``task``'s page (its logical clock starts with the document)."""
        if self._context is None:
            await self.recover()
            self._context = await self.browser.new_context()
            self._context.set_default_timeout(LOAD_TIMEOUT_MS)
            await self._context.add_init_script(page_js.VIRTUAL_TIME_INIT)
            await self._context.add_init_script(page_js.HOVER_WATCH_INIT)
        if self._page is None or self._page.is_closed():
            self._page = await self._context.new_page()
            self._pointer_parked, self._pointer = False, (0.0, 0.0)
        self.clock, self._task = None, None
        await self._page.goto(task_url(task), wait_until="load")
        self.clock = VirtualClock(self._page)
        waited = 0
        while not await self._page.evaluate(page_js.PAGE_READY):  # set up from page timers
            if waited >= LOAD_TIMEOUT_MS:
                raise BrowserCrashed(f"{task!r} was not ready after {waited} ms of page time")
            await self.clock.advance(SETTLE_STEP_MS)
            waited += SETTLE_STEP_MS
        hrefs = await self._page.evaluate(page_js.STYLESHEETS)
        await self._page.evaluate(page_js.SET_HOVER_RULES, hover_rules(hrefs))
        self._task, self._episodes_since_load = task, 0
        return self._page

    async def recover(self) -> None:
        context, self._context, self._page, self._task = self._context, None, None, None
        self.clock = None
        if context is not None:
            with contextlib.suppress(Exception):  # already dead
                await context.close()

    close = recover

    async def start_episode(
        self, task: str, seed: int, fresh_page: bool = False, data_mode: str = "train"
    ) -> Started:
        try:
            page = self._page
            stale = self._episodes_since_load >= self.reload_every
            if page is None or page.is_closed() or self._task != task or fresh_page or stale:
                page = await self._load(task)
            self._episodes_since_load += 1
            self.untrusted_clicks = 0
            if not self._pointer_parked:  # see MiniWoBPage.start_episode
                await self._move(0, 0)
                self._pointer_parked = True
            frozen_now = FROZEN_NOW_MS if TASKS[task].clock else None
            settle = self._settle_args(0)
            start = [seed, page_js.NO_TIMEOUT_MS, data_mode, frozen_now, self.boxes, settle]
            self._observed = None
            result = await page.evaluate(page_js.START_EPISODE, start)
            if result["ready"]:
                await self._settle(first=result["settle"])
            waited = 0
            while not result["ready"]:  # a task that builds itself later: its page time passes
                if waited >= LOAD_TIMEOUT_MS:
                    raise BrowserCrashed(f"{task!r} was not ready after {waited} ms of page time")
                await self._advance(SETTLE_STEP_MS)
                waited += SETTLE_STEP_MS
                if await page.evaluate("() => WOB_TASK_READY === true"):
                    await self._settle()
                    query = await page.evaluate(page_js.QUERY_TEXT)
                    state = await page.evaluate(page_js.EPISODE_STATE)
                    result = {"ready": True, "utterance": state["utterance"], "query": query}
            state, nodes = await self.observe()
            instruction = Instruction.from_page(result["utterance"], result["query"])
            return Started(instruction, state, nodes)
        except BrowserUnavailable:
            raise
        except Exception as error:
            self._task = None
            raise BrowserCrashed(f"could not start {task!r}: {error}") from error

    async def evaluate(self, script: str, arg: Any = None) -> Any:
        self._observed = None  # the script may change the page
        if self._page is None:
            raise BrowserCrashed("the page is not open")
        try:
            return await self._page.evaluate(script, arg)
        except Exception as error:
            raise BrowserCrashed(f"the page died: {str(error).splitlines()[0][:200]}") from error

    async def observe(self) -> tuple[EpisodeState, list[dict[str, Any]]]:
        """The reward state and the snapshot: the ones the last settling read, if nothing
        touched the page since, else in one round trip."""
        observed, self._observed = self._observed, None
        if observed is None:
            observed = await self.evaluate(page_js.OBSERVE)
        return EpisodeState.from_page(observed["state"]), observed["nodes"]

    async def _advance(self, ms: float) -> None:
        """Let ``ms`` of page time pass (``VirtualClock.advance``)."""
        if self.clock is None:
            raise BrowserCrashed("the page is not open")
        try:
            await self.clock.advance(ms)
        except Exception as error:
            raise BrowserCrashed(f"the page died: {str(error).splitlines()[0][:200]}") from error

    def _settle_args(self, waited: float) -> list[Any]:
        """``SETTLE_STEP``'s arguments after ``waited`` ms of settling."""
        least = FIRST_WAIT_MS if waited == 0 else 0
        quantum = SETTLE_STEP_MS if waited > 0 else 0
        cap = max(0, SETTLE_LIMIT_MS - waited)
        return [least, quantum, cap, IDLE_HORIZON_MS, not self._pointer_parked]

    async def _settle(self, first: dict[str, Any] | None = None) -> None:
        """Let page time pass until the page is idle (``page_js.SETTLE_STEP``: the timers due
        within ``IDLE_HORIZON_MS``, running animations), ``FIRST_WAIT_MS`` at least and
        ``SETTLE_LIMIT_MS`` at most: what an action's effect needs, on every machine the same.
        Whenever the page has changed under a still pointer, the pointer moves there again
        first, so the page sees it enter and leave at that instant of page time; pictures still
        loading are awaited (in real time, page time standing still). The idle page's
        observation comes with the last round trip and is kept for ``observe``. ``first``: a
        round already played (by ``START_EPISODE``)."""
        waited, syncs = 0.0, 0
        result = first
        while True:
            if result is None:
                result = await self.evaluate(page_js.SETTLE_STEP, self._settle_args(waited))
            waited += result["advanced"]
            if (result["pointer"] or result["loading"]) and syncs < 2 * HOVER_TRIES:
                syncs += 1
                if result["pointer"]:
                    await self._move(*result["pointer"])
                else:  # page time stands still meanwhile
                    await self.evaluate(page_js.WAIT_PICTURES, PICTURE_TIMEOUT_MS)
                result = None
                continue
            if result["need"] <= 0 or waited >= SETTLE_LIMIT_MS:
                self._observed = result.get("observed")
                return
            result = None

    async def perform(self, action: Action) -> None:
        self._observed = None
        try:
            await self._perform(action)
        except (ActionError, BrowserCrashed):
            raise
        except Exception as error:
            if _is_crash(error) or self._page is None or self._page.is_closed():
                raise BrowserCrashed(f"the page died: {error}") from error
            reason = str(error).splitlines()[0][:120]
            raise ActionError(f"{action.render()} failed: {reason}") from None
        await self._settle()

    async def act(self, action: Action) -> tuple[EpisodeState, list[dict[str, Any]]]:
        """``perform`` then ``observe``: a step in one call (one hop onto the page loop)."""
        await self.perform(action)
        return await self.observe()

    async def _move(self, x: float, y: float) -> None:
        await self._page.mouse.move(x, y)
        self._pointer = (x, y)

    async def _perform(self, action: Action) -> None:
        page = self._page
        if action.kind in POINTER_ACTIONS:
            self._pointer_parked = False
        if action.kind == "noop":
            await self._advance(NOOP_MS)
        elif action.kind == "wait":
            await self._advance(float(action.text) * 1000)
        elif action.kind == "press":
            await page.keyboard.press(action.text)
        elif action.kind == "scroll":
            if not await page.evaluate(page_js.SCROLL, [action.element, action.text]):
                raise ActionError(f"no element [{action.element}] on the page")
        elif action.kind == "select_text":
            await self._select_text(action)
        elif action.kind in PATH_ACTIONS:
            await self._run_ops(pointer_ops(action.kind, await self._path(action)))
        else:
            target = await page.evaluate(page_js.CLICK_TARGET, action.element)
            if target.get("error"):
                raise ActionError(target_error(action.element, target["error"]))
            if action.kind == "hover":
                await self._move(target["x"], target["y"])
            elif action.kind == "click":
                await self._click(action.element, target)
            elif action.kind == "type":
                await self._type(action, target)
            else:
                await self._select(action, target)

    async def _target(self, element: int) -> dict[str, Any]:
        target = await self._page.evaluate(page_js.CLICK_TARGET, element)
        if target.get("error"):
            raise ActionError(target_error(element, target["error"]))
        return target

    async def _path(self, action: Action) -> list[tuple[float, float]]:
        """As ``MiniWoBPage._path``."""
        if action.target is not None:
            await self._target(action.element)
            end = await self._target(action.target)
            start = await self._target(action.element)
            return [(start["x"], start["y"]), (end["x"], end["y"])]
        points = [list(p) for p in action.points]
        found = await self._page.evaluate(page_js.VIEWPORT_POINTS, points)
        if found.get("error"):
            raise ActionError(path_error(found["error"]))
        return [tuple(p) for p in found["points"]]

    async def _run_ops(self, ops: list[tuple[Any, ...]]) -> None:
        """Play ``pointer_ops``: a move of N steps is N mouse events along the segment, with
        ``POINTER_MOVE_MS`` of page time after each while the button is down (a drag has a
        speed, the same on every machine)."""
        mouse, pressed = self._page.mouse, False
        for op in ops:
            if op[0] == "move":
                (x0, y0), (x, y), steps = self._pointer, (op[1], op[2]), max(1, op[3])
                for i in range(1, steps + 1):
                    await self._move(x0 + (x - x0) * i / steps, y0 + (y - y0) * i / steps)
                    if pressed:
                        await self._advance(POINTER_MOVE_MS)
            elif op[0] == "down":
                await mouse.down()
                pressed = True
            else:
                await mouse.up()
                pressed = False

    async def _select_text(self, action: Action) -> None:
        """As ``MiniWoBPage._select_text``."""
        span = await self._page.evaluate(page_js.TEXT_SPAN, [action.element, action.text])
        if span.get("error") == "not found":
            raise ActionError(f"element [{action.element}] has no text {action.text!r}")
        if span.get("error"):
            raise ActionError(target_error(action.element, span["error"]))
        await self._run_ops(pointer_ops("drag", [tuple(span["start"]), tuple(span["end"])]))
        selected = await self._page.evaluate(page_js.SELECTION_TEXT)
        if not selection_matches(selected, action.text):
            await self._page.evaluate(page_js.SELECT_RANGE, [action.element, action.text])
            self.untrusted_clicks += 1

    async def screenshot(self) -> bytes:
        """As ``MiniWoBPage.screenshot``: a PNG of the task area."""
        box = await self.evaluate(page_js.TASK_AREA)
        try:
            if box:
                return await self._page.screenshot(clip=box, type="png")
            return await self._page.screenshot()
        except Exception as error:
            reason = str(error).splitlines()[0][:200]
            raise BrowserCrashed(f"screenshot failed: {reason}") from error

    async def _selector(self, element: int) -> str:
        episode = await self._page.evaluate("() => window.__ag.ep")
        return f'[data-agid="{element}"][data-agep="{episode}"]'

    async def _click(self, element: int, target: dict[str, Any]) -> None:
        check_clickable(element, target)
        if target["reachable"] and not target["hover"]:  # hovering changes nothing: press
            await self._page.mouse.click(target["x"], target["y"])
            self._pointer = (target["x"], target["y"])
            return
        if target["reachable"]:
            await self._move(target["x"], target["y"])  # hover first: it may reflow
            target = await self._settled_target(element)
            if target["reachable"]:
                await self._page.mouse.click(target["x"], target["y"])
                self._pointer = (target["x"], target["y"])
                return
        try:
            await self._page.locator(await self._selector(element)).click(timeout=CLICK_TIMEOUT_MS)
        except Exception as error:
            if _is_crash(error):
                raise
            await self._page.evaluate(page_js.JS_CLICK, element)
            self.untrusted_clicks += 1

    async def _settled_target(self, element: int) -> dict[str, Any]:
        """Where a press on ``element`` lands now that the pointer is on it (``SETTLED_TARGET``),
        letting page time pass while it is not reachable (a hover style loading its picture)."""
        for _ in range(HOVER_TRIES):
            target = await self._page.evaluate(page_js.SETTLED_TARGET, element)
            if target["reachable"]:
                return target
            await self._advance(HOVER_WAIT_MS)
        return {"reachable": False}

    async def _type(self, action: Action, target: dict[str, Any]) -> None:
        kind, is_text = type_target(action.element, target)
        if kind in FILL_INPUT_TYPES:
            text = to_input_value(kind, action.text)
            locator = self._page.locator(await self._selector(action.element))
            try:
                await locator.fill(text, timeout=1000)
            except Exception as error:
                if _is_crash(error):
                    raise
                raise ActionError(f"{text!r} is not a valid {kind} value") from None
            return
        await self._click(action.element, target)
        if not await self._page.evaluate(page_js.CLEAR_FIELD, [action.element, is_text]):
            if is_text:  # the page reacted to the click (e.g. a popup disabled the field)
                return
            raise ActionError(f"element [{action.element}] is not a text field")
        if action.text:
            await self._page.keyboard.type(action.text)

    async def _select(self, action: Action, target: dict[str, Any]) -> None:
        if target["tag"] != "select":
            raise ActionError(f"element [{action.element}] is not a dropdown list")
        locator = self._page.locator(await self._selector(action.element))
        labels = [
            o.strip() for o in await locator.evaluate("s => Array.from(s.options, o => o.text)")
        ]
        multiple = await locator.evaluate("s => s.multiple")
        matches = match_options(action.element, action.text.split("\n"), labels, multiple)
        await locator.select_option(label=matches, timeout=CLICK_TIMEOUT_MS)


class PageLoop:
    """An asyncio event loop in a daemon thread with one Chromium on it, for blocking callers:
    ``run(coroutine)`` runs a coroutine there and waits for it. Pages that share it (one context
    each) work concurrently while their callers wait in separate threads. ``close()`` closes the
    browser and ends the thread.

    A vector env owns one; the single envs of a process share one (``acquire``/``release``,
    reference counted as a browser per process: the last release closes it; a forked child
    starts its own). Why a thread: Playwright's sync API and a caller's own event loop both
    occupy the calling thread's loop, so a private loop there could not run."""

    _shared: ClassVar[PageLoop | None] = None
    _users: ClassVar[int] = 0
    _shared_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self) -> None:
        self.browser = AsyncBrowser()
        self.pid = os.getpid()  # the process whose thread runs the loop
        self.browser_pid: int | None = None  # Chromium's main process, found at each launch
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, daemon=True, name="miniwob-page-loop"
        )
        self._thread.start()
        self._context_lock: asyncio.Lock | None = None

    @classmethod
    def acquire(cls) -> PageLoop:
        """The process's shared loop, started if needed; ``release`` it when done."""
        with cls._shared_lock:
            shared = cls._shared
            if shared is None or shared.pid != os.getpid() or shared.closed:
                cls._shared, cls._users = PageLoop(), 0
            cls._users += 1
            assert cls._shared is not None
            return cls._shared

    @classmethod
    def release(cls, loop: PageLoop) -> None:
        """Give back ``acquire``'s loop; the last user's release closes its browser and thread."""
        with cls._shared_lock:
            if loop is not cls._shared:
                return
            cls._users -= 1
            if cls._users > 0:
                return
            cls._shared = None
        loop.close()

    @property
    def closed(self) -> bool:
        return self._loop.is_closed() or not self._thread.is_alive()

    def submit(self, coroutine: Coroutine[Any, Any, Any]) -> concurrent.futures.Future[Any]:
        """Schedule ``coroutine`` on the loop; its future (``cancel()`` cancels it there)."""
        if self.closed or self.pid != os.getpid():
            coroutine.close()
            raise BrowserCrashed("the page loop is closed")
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop)

    def run(self, coroutine: Coroutine[Any, Any, Any], timeout: float | None = None) -> Any:
        return self.submit(coroutine).result(timeout)

    async def new_context(self) -> Any:
        """A fresh context; a dead or unstarted browser is (re)launched once, however many pages
        ask at the same time."""
        if self._context_lock is None:
            self._context_lock = asyncio.Lock()
        async with self._context_lock:
            if self.browser.connected:
                return await self.browser.new_context()
            running = set(_browser_pids())
            context = await self.browser.new_context()
            self.browser_pid = launched_browser_pid(running)
            return context

    def kill_browser(self) -> None:
        """Kill the Chromium process abruptly: a hung browser (a page that will not close after a
        timed-out step) and the crash-recovery tests."""
        if self.browser_pid is not None:
            kill_process(self.browser_pid)

    def close(self) -> None:
        """Close the browser and stop the loop's thread (idempotent)."""
        if self.closed:
            return
        with contextlib.suppress(Exception):  # best effort on a dead or hung browser
            self.run(self.browser.close(), timeout=30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        if not self._thread.is_alive():
            self._loop.close()


class _NoLoop:
    """The loop of a ``MiniWoBPage`` before its first episode: every call is a crash."""

    pid = -1

    def kill_browser(self) -> None:
        """No browser to kill."""

    def submit(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        coroutine.close()
        raise BrowserCrashed("the page is not open")

    def run(self, coroutine: Coroutine[Any, Any, Any], timeout: float | None = None) -> Any:
        return self.submit(coroutine)

    async def new_context(self) -> Any:
        raise BrowserCrashed("the page is not open")


_NO_LOOP: Any = _NoLoop()

#: How long ``LoopPage.recover``/``close`` wait for a page's context to close before dropping it.
CLOSE_TIMEOUT_S = 10.0


class LoopPage:
    """The blocking face of an ``AsyncMiniWoBPage`` on a ``PageLoop``: what ``MiniWoBTask``, the
    oracles and decoy injection use of ``MiniWoBPage``, with the same errors.

    ``deadline(seconds)`` bounds the calls inside it: past the deadline the running call is
    cancelled on the loop and ``StepTimedOut`` raised; the env's recovery then closes this page's
    context (a page whose script never returns), and the other pages on the loop go on."""

    def __init__(
        self,
        loop: PageLoop,
        reload_every: int = 50,
        step_timeout_s: float | None = STEP_TIMEOUT_S,
        boxes: bool = False,
    ) -> None:
        self.loop = loop
        self.driver = AsyncMiniWoBPage(loop, reload_every, boxes)
        self.step_timeout_s = step_timeout_s
        self._deadline: tuple[float, float] | None = None  # (monotonic end, seconds)

    @property
    def boxes(self) -> bool:
        return self.driver.boxes

    @property
    def reload_every(self) -> int:
        return self.driver.reload_every

    @property
    def untrusted_clicks(self) -> int:
        return self.driver.untrusted_clicks

    @contextlib.contextmanager
    def deadline(self, seconds: float | None) -> Iterator[None]:
        """Bound the calls inside to ``seconds`` in all (``None`` or 0: no bound)."""
        if not seconds:
            yield
            return
        self._deadline = (time.monotonic() + seconds, seconds)
        try:
            yield
        finally:
            self._deadline = None

    def _run(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        if self._deadline is None:
            return self.loop.run(coroutine)
        end, seconds = self._deadline
        future = self.loop.submit(coroutine)
        done, _ = concurrent.futures.wait([future], timeout=max(0.0, end - time.monotonic()))
        if not done:
            future.cancel()
            raise StepTimedOut(
                f"step timed out after {seconds:g} s (its page was closed; reset starts a new one)"
            )
        return future.result()

    def start_episode(
        self, task: str, seed: int, fresh_page: bool = False, data_mode: str = "train"
    ) -> Started:
        return self._run(self.driver.start_episode(task, seed, fresh_page, data_mode))

    def observe(self) -> tuple[EpisodeState, list[dict[str, Any]]]:
        return self._run(self.driver.observe())

    def evaluate(self, script: str, arg: Any = None) -> Any:
        return self._run(self.driver.evaluate(script, arg))

    def act(self, action: Action) -> tuple[EpisodeState, list[dict[str, Any]]]:
        return self._run(self.driver.act(action))

    def screenshot(self) -> bytes:
        return self._run(self.driver.screenshot())

    def recover(self) -> None:
        """Close the page's context (a crashed or hung page); the next episode opens a new one.
        A context that does not close within CLOSE_TIMEOUT_S means a hung browser: it is killed,
        and the next episode launches a new one."""
        try:
            self.loop.run(self.driver.recover(), timeout=CLOSE_TIMEOUT_S)
        except TimeoutError:
            self.loop.kill_browser()
        except Exception:  # a dead loop or browser: nothing left to close
            pass

    close = recover


class MiniWoBPage(LoopPage):
    """A single env's page: a ``LoopPage`` on the process's shared ``PageLoop`` (one Chromium
    for every env of the process, one context each), held from the first episode to
    ``close()``; the page is reused across episodes (see ``page`` for when it is reloaded)."""

    def __init__(
        self,
        reload_every: int = 50,
        step_timeout_s: float | None = STEP_TIMEOUT_S,
        boxes: bool = False,
    ) -> None:
        super().__init__(_NO_LOOP, reload_every, step_timeout_s, boxes)
        self._held = False

    def start_episode(
        self, task: str, seed: int, fresh_page: bool = False, data_mode: str = "train"
    ) -> Started:
        if not self._held or self.loop.pid != os.getpid():  # first use, or a forked child
            self.driver = AsyncMiniWoBPage(PageLoop.acquire(), self.reload_every, self.boxes)
            self.loop, self._held = self.driver.browser, True
        return super().start_episode(task, seed, fresh_page, data_mode)

    def close(self) -> None:
        """Close the context and give back the shared loop (its last user closes the browser).
        Idempotent; a later episode acquires it again."""
        if not self._held:
            return
        self.recover()
        self._held = False
        PageLoop.release(self.loop)
