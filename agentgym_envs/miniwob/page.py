"""``MiniWoBPage``: one env's Playwright page and the episode protocol on it (sync API).

The page is loaded once per task and reused across episodes (``core.startEpisodeReal`` rebuilds the
task); it is reloaded every ``reload_every`` episodes, on a task change, every episode for tasks
whose state leaks across episodes, and after a crash. A dead page or browser surfaces as
``BrowserCrashed`` so the env can report a truncated episode and start over on a fresh context.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from agentgym_envs.core import ActionError, EpisodeAborted
from agentgym_envs.miniwob import page_js
from agentgym_envs.miniwob.actions import Action
from agentgym_envs.miniwob.browser import BrowserUnavailable, SyncBrowser, kill_process
from agentgym_envs.miniwob.tasks import FROZEN_NOW_MS, TASKS, task_url

#: Trusted clicks wait at most this long for actionability before the JS fallback.
CLICK_TIMEOUT_MS = 200
#: After an action, wait at most this long for jQuery animations to finish (then go on).
ANIMATION_TIMEOUT_MS = 2_000
#: After an episode starts or an action, wait at most this long for pictures still loading.
IMAGE_TIMEOUT_MS = 2_000
#: After an action, the DOM must stay unchanged this long (ms) before the observation, giving up
#: after QUIET_LIMIT_MS (a page that keeps changing, e.g. stock-market's ticker).
QUIET_MS, QUIET_LIMIT_MS = 10, 500
#: Actions that move the mouse pointer (the next episode parks it first).
POINTER_ACTIONS = frozenset(
    {"click", "hover", "type", "select", "click_xy", "drag", "select_text", "draw"}
)
#: Pointer actions at page coordinates or along a mouse path (see ``pointer_ops``).
PATH_ACTIONS = frozenset({"click_xy", "drag", "draw"})
#: A drag moves the pressed mouse in at least this many steps (drag-and-drop libraries such as
#: jQuery UI start a drag only after a move, and sortable lists reorder on intermediate moves).
DRAG_STEPS = 10
#: A drag or draw moves the pressed mouse at most this many CSS pixels per mousemove event.
STROKE_STEP_PX = 4.0
#: ``noop`` lets this much time pass (delayed content, animations, hover menus).
NOOP_SECONDS = 0.1
#: Page loads and protocol calls fail (and count as a crash) after this long.
LOAD_TIMEOUT_MS = 15_000
#: A step (action and observation) that takes longer than this is stopped by killing the browser;
#: the episode is truncated. Normal steps take 10-300 ms (``wait 5`` about 5 s).
STEP_TIMEOUT_S = 30.0
#: ``settle``: the page counts as settled once unchanged for SETTLE_QUIET_S, polled every
#: SETTLE_POLL_S, giving up after SETTLE_LIMIT_S.
SETTLE_QUIET_S, SETTLE_POLL_S, SETTLE_LIMIT_S = 0.3, 0.05, 4.0
TEXT_INPUT_TYPES = {"text", "password", "email", "search", "tel", "url", "number", ""}
#: ``type`` on these clicks nothing: they are controls, not containers of a focusable field.
NEVER_TYPED_TAGS = {"button", "a", "select", "option", "input", "label", "img"}
FILL_INPUT_TYPES = {"date", "time", "datetime-local", "month", "week", "color", "range"}


class BrowserCrashed(EpisodeAborted):
    """The page or the browser died mid-episode; the env truncates the episode and recovers."""

    def __str__(self) -> str:
        return f"browser crashed: {super().__str__().splitlines()[0][:200]}"


class StepTimedOut(BrowserCrashed):
    """A step ran past its deadline; the browser was killed to stop it."""

    def __str__(self) -> str:
        return Exception.__str__(self)


@dataclass(frozen=True)
class Instruction:
    """The episode's instruction: Farama's utterance, structured fields (nl-turk tasks), and the
    goal shown to the agent (the utterance, with icons named where the page draws pictures)."""

    utterance: str
    fields: dict[str, str]
    goal: str

    @classmethod
    def from_page(cls, raw: Any, query: str) -> Instruction:
        if isinstance(raw, dict):
            utterance, fields = str(raw["utterance"]), dict(raw.get("fields") or {})
        else:
            utterance, fields = str(raw), {}
        goal = query if "[" in query and "[" not in utterance else utterance
        return cls(utterance, fields, goal)


@dataclass
class EpisodeState:
    done: bool
    raw: float
    reason: Any
    utterance: Any

    @classmethod
    def from_page(cls, result: dict[str, Any]) -> EpisodeState:
        """From ``page_js.EPISODE_STATE``'s result."""
        raw = float(result["raw"] or 0.0)
        return cls(bool(result["done"]), raw, result["reason"], result["utterance"])


@dataclass(frozen=True)
class Started:
    """A started episode: its instruction and its first view (reward state and snapshot)."""

    instruction: Instruction
    state: EpisodeState
    nodes: list[dict[str, Any]]


def _is_crash(error: BaseException) -> bool:
    text = str(error).lower()
    return any(
        marker in text
        for marker in (
            "target closed",
            "has been closed",
            "crash",
            "browser has disconnected",
            "connection closed",
            "target page, context or browser",
        )
    )


def target_error(element: int, error: str) -> str:
    """The agent-facing reason why element ``element`` cannot be acted on."""
    return {
        "missing": f"no element [{element}] on the page",
        "disabled": f"element [{element}] is disabled",
        "hidden": f"element [{element}] is not visible",
    }.get(error, f"element [{element}]: {error}")


def match_options(element: int, wanted: list[str], labels: list[str], multiple: bool) -> list[str]:
    """The option labels to select (exact match first, then case-insensitive); ActionError else."""
    if len(wanted) > 1 and not multiple:
        raise ActionError(f"[{element}] takes one option; it is not a multi-select list")
    found = []
    for label in (w.strip() for w in wanted):
        match = next((x for x in labels if x == label), None) or next(
            (x for x in labels if x.lower() == label.lower()), None
        )
        if match is None:
            raise ActionError(f"[{element}] has no option {label!r}; options: {labels}")
        found.append(match)
    return found


def type_target(element: int, target: dict[str, Any]) -> tuple[str, bool]:
    """``(input type, is a text field)`` of a ``type`` action's target, or an ActionError when
    the element can never take text. Shared by the sync and async pages."""
    kind = target["type"].lower() if target["tag"] == "input" else ""
    is_text = (target["tag"] == "input" and kind in TEXT_INPUT_TYPES | FILL_INPUT_TYPES) or (
        target["tag"] == "textarea" or target["editable"]
    )
    if not is_text and target["tag"] in NEVER_TYPED_TAGS:
        raise ActionError(f"element [{element}] is not a text field")
    return kind, is_text


def stroke_steps(a: tuple[float, float], b: tuple[float, float], least: int = 1) -> int:
    """Mouse moves from ``a`` to ``b``: one per STROKE_STEP_PX pixels, at least ``least``."""
    return max(least, math.ceil(math.dist(a, b) / STROKE_STEP_PX))


def pointer_ops(kind: str, points: list[tuple[float, float]]) -> list[tuple[Any, ...]]:
    """The mouse operations of a path action over viewport ``points``: ``("move", x, y, steps)``,
    ``("down",)``, ``("up",)``. Shared by the sync and async pages, so both press the same path.
    click_xy moves to the point, then presses and releases there; drag presses at the first
    point and releases at the second after DRAG_STEPS or more moves; draw presses at the first
    point and moves through the others (a polyline) before releasing at the last."""
    first = points[0]
    ops: list[tuple[Any, ...]] = [("move", first[0], first[1], 1), ("down",)]
    if kind == "click_xy":
        return [*ops, ("up",)]
    least = DRAG_STEPS if kind == "drag" else 1
    for before, after in itertools.pairwise(points):
        ops.append(("move", after[0], after[1], stroke_steps(before, after, least)))
    return [*ops, ("up",)]


def selection_matches(selected: str, wanted: str) -> bool:
    """Whether the page's selection is ``wanted`` (whitespace runs compared as one space)."""
    return " ".join(selected.split()).lower() == " ".join(wanted.split()).lower()


def path_error(error: str) -> str:
    return f"{error}; page coordinates are CSS pixels from the page's top-left corner"


def check_clickable(element: int, target: dict[str, Any]) -> None:
    if target["tag"] == "option":
        raise ActionError(f'[{element}] is an option; use select [id] "option" on its list')


def to_input_value(kind: str, text: str) -> str:
    """Accept the human forms MiniWoB asks for in date/time fields (12/31/2016, 3:46 PM)."""
    text = text.strip()
    if kind == "date":
        match = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", text)
        if match:
            month, day, year = match.groups()
            return f"{year}-{int(month):02d}-{int(day):02d}"
    if kind == "time":
        match = re.fullmatch(r"(\d{1,2}):(\d{2})\s*([AaPp][Mm])?", text)
        if match:
            hour, minute, half = match.groups()
            hour24 = (
                int(hour) % 12 + (12 if half and half.lower() == "pm" else 0) if half else int(hour)
            )
            return f"{hour24:02d}:{minute}"
    return text


class MiniWoBPage:
    """A page that plays MiniWoB episodes. Not thread-safe; one per env."""

    def __init__(
        self,
        reload_every: int = 50,
        step_timeout_s: float | None = STEP_TIMEOUT_S,
        boxes: bool = False,
    ) -> None:
        self.reload_every = reload_every
        self.step_timeout_s = step_timeout_s
        #: Snapshots give each node its box (``box``: page x, y, width, height in CSS pixels).
        self.boxes = boxes
        self._context: Any = None
        self._page: Any = None
        self._task: str | None = None
        self._episodes_since_load = 0
        self._pointer_parked = False  # the pointer rests at (0, 0), hovering nothing
        #: Clicks of this episode that fell back to a JS ``el.click()`` (untrusted: the element
        #: was occluded or moving); oracles aim for none.
        self.untrusted_clicks = 0

    # ---- lifecycle ---------------------------------------------------------------------------
    def _ensure_page(self) -> Any:
        if self._page is None or self._page.is_closed():
            self._drop_context()
            self._context = SyncBrowser.acquire()
            self._context.set_default_timeout(LOAD_TIMEOUT_MS)
            self._page = self._context.new_page()
            self._task = None
            self._pointer_parked = False
        return self._page

    def _drop_context(self) -> None:
        context, self._context, self._page = self._context, None, None
        if context is not None:
            SyncBrowser.release(context)

    def close(self) -> None:
        """Close the context (the shared browser closes with its last user). Idempotent."""
        self._drop_context()
        self._task = None

    def recover(self) -> None:
        """Throw the page away after a crash; the next episode starts on a fresh context."""
        self._drop_context()
        self._task = None

    @contextlib.contextmanager
    def deadline(self, seconds: float | None) -> Iterator[None]:
        """Bound the calls inside: past ``seconds`` a watchdog thread kills the browser (the sync
        API cannot be interrupted from another thread), the blocked call fails, and this raises
        ``StepTimedOut``. Other envs of this thread share the browser and truncate too; every
        env recovers at its next reset. ``None`` or 0: no deadline."""
        if not seconds:
            yield
            return
        pid = SyncBrowser.browser_pid()
        fired = threading.Event()

        def stop_browser() -> None:
            fired.set()
            if pid is not None:
                kill_process(pid)

        watchdog = threading.Timer(seconds, stop_browser)
        watchdog.daemon = True
        watchdog.start()
        timed_out = StepTimedOut(
            f"step timed out after {seconds:g} s (the browser was stopped; reset starts a new one)"
        )
        try:
            yield
        except Exception as error:
            if fired.is_set():
                raise timed_out from error
            raise
        finally:
            watchdog.cancel()
        if fired.is_set():  # it finished as the watchdog fired: the browser is gone anyway
            raise timed_out

    # ---- episode protocol --------------------------------------------------------------------
    def start_episode(
        self, task: str, seed: int, fresh_page: bool = False, data_mode: str = "train"
    ) -> Started:
        """Load the task if needed and start the seeded episode in MiniWoB's ``data_mode``
        ('train', or 'test' for a task's own test distribution): its instruction and first view,
        in one round trip on a loaded page."""
        try:
            page = self._ensure_page()
            stale = self._episodes_since_load >= self.reload_every
            if self._task != task or fresh_page or stale:
                page.goto(task_url(task), wait_until="load")
                page.wait_for_function(page_js.PAGE_READY, timeout=LOAD_TIMEOUT_MS)
                self._task = task
                self._episodes_since_load = 0
            self._episodes_since_load += 1
            self.untrusted_clicks = 0
            if not self._pointer_parked:
                # Left where the last episode clicked, the pointer would hover (and restyle:
                # social-media swaps icon images on hover) an element of the new episode's page.
                page.mouse.move(0, 0)
                self._pointer_parked = True
            frozen_now = FROZEN_NOW_MS if TASKS[task].clock else None
            start = [
                seed, page_js.NO_TIMEOUT_MS, data_mode, IMAGE_TIMEOUT_MS, frozen_now, self.boxes
            ]  # fmt: skip
            result = page.evaluate(page_js.START_EPISODE, start)
            if result["ready"]:
                state, nodes = EpisodeState.from_page(result["state"]), result["nodes"]
            else:
                page.wait_for_function("() => WOB_TASK_READY === true", timeout=LOAD_TIMEOUT_MS)
                result = page.evaluate(page_js.EPISODE_STATE)
                result["query"] = page.evaluate(page_js.QUERY_TEXT)
                page.evaluate(page_js.WAIT_IMAGES, IMAGE_TIMEOUT_MS)
                state, nodes = self.state(), self.snapshot()
            instruction = Instruction.from_page(result["utterance"], result["query"])
            return Started(instruction, state, nodes)
        except BrowserUnavailable:
            raise
        except Exception as error:
            self._task = None
            raise BrowserCrashed(f"could not start {task!r}: {error}") from error

    def settle(self) -> None:
        """Return once the visible page has stopped changing (an opening animation finished)."""
        last = self.snapshot()
        since = time.monotonic()
        deadline = since + SETTLE_LIMIT_S
        while time.monotonic() < deadline:
            time.sleep(SETTLE_POLL_S)
            now = self.snapshot()
            if now != last:
                last, since = now, time.monotonic()
            elif time.monotonic() - since >= SETTLE_QUIET_S:
                return

    def state(self) -> EpisodeState:
        return EpisodeState.from_page(self._call(page_js.EPISODE_STATE))

    def snapshot(self) -> list[dict[str, Any]]:
        return self._call(page_js.SNAPSHOT)

    def evaluate(self, script: str, arg: Any = None) -> Any:
        """Run page JS (used by oracles and decoy injection); crashes become BrowserCrashed."""
        return self._call(script, arg)

    def _call(self, script: str, arg: Any = None) -> Any:
        page = self._page
        if page is None:
            raise BrowserCrashed("the page is not open")
        try:
            return page.evaluate(script, arg)
        except Exception as error:  # dead page, or a page in a state our scripts cannot read
            raise BrowserCrashed(f"the page died: {str(error).splitlines()[0][:200]}") from error

    # ---- actions -----------------------------------------------------------------------------
    def perform(self, action: Action) -> None:
        """Apply ``action`` and let the animations it started finish; ActionError if impossible,
        BrowserCrashed if the page died."""
        try:
            self._perform(action)
        except (ActionError, BrowserCrashed):
            raise
        except Exception as error:
            if _is_crash(error) or self._page is None or self._page.is_closed():
                raise BrowserCrashed(f"the page died: {error}") from error
            reason = str(error).splitlines()[0][:120]
            raise ActionError(f"{action.render()} failed: {reason}") from None
        self._finish_animations()

    def _finish_animations(self) -> None:
        """Let the page settle after an action, so that the observation does not depend on
        timing: the animations it started end (up to ANIMATION_TIMEOUT_MS); where the page
        changed under the resting pointer, the pointer is moved there again, so hover states
        follow the page as it is now (Chrome otherwise updates them from a timer); the DOM stays
        unchanged for QUIET_MS; the pictures it shows have loaded."""
        self._call(page_js.WAIT_ANIMATIONS, ANIMATION_TIMEOUT_MS)
        if not self._pointer_parked:
            at = self._call(page_js.POINTER_AT)
            if at:
                self._page.mouse.move(at[0], at[1])
        self._call(page_js.WAIT_QUIET, [QUIET_MS, QUIET_LIMIT_MS])
        self._call(page_js.WAIT_IMAGES, IMAGE_TIMEOUT_MS)

    def _perform(self, action: Action) -> None:
        page = self._page
        if action.kind in POINTER_ACTIONS:
            self._pointer_parked = False
        if action.kind == "noop":
            time.sleep(NOOP_SECONDS)
            return
        if action.kind == "wait":
            time.sleep(float(action.text))
            return
        if action.kind == "press":
            page.keyboard.press(action.text)
            return
        if action.kind == "scroll":
            if not page.evaluate(page_js.SCROLL, [action.element, action.text]):
                raise ActionError(f"no element [{action.element}] on the page")
            return
        if action.kind == "select_text":
            self._select_text(action)
            return
        if action.kind in PATH_ACTIONS:
            self._run_ops(pointer_ops(action.kind, self._path(action)))
            return
        target = self._click_target(action.element)
        if action.kind == "hover":
            self._page.mouse.move(target["x"], target["y"])
        elif action.kind == "click":
            self._click(action.element, target)
        elif action.kind == "type":
            self._type(action, target)
        elif action.kind == "select":
            self._select(action, target)

    def _click_target(self, element: int) -> dict[str, Any]:
        target = self._page.evaluate(page_js.CLICK_TARGET, element)
        if target.get("error"):
            raise ActionError(target_error(element, target["error"]))
        return target

    def _path(self, action: Action) -> list[tuple[float, float]]:
        """Viewport points of a path action: the element centres of ``drag [a] to [b]``, else
        its page points (ActionError for one outside the page or off its visible part)."""
        if action.target is not None:
            self._click_target(action.element)  # scroll it into view first
            end = self._click_target(action.target)
            start = self._click_target(action.element)
            return [(start["x"], start["y"]), (end["x"], end["y"])]
        found = self._page.evaluate(page_js.VIEWPORT_POINTS, [list(p) for p in action.points])
        if found.get("error"):
            raise ActionError(path_error(found["error"]))
        return [tuple(p) for p in found["points"]]

    def _run_ops(self, ops: list[tuple[Any, ...]]) -> None:
        mouse = self._page.mouse
        for op in ops:
            if op[0] == "move":
                mouse.move(op[1], op[2], steps=op[3])
            elif op[0] == "down":
                mouse.down()
            else:
                mouse.up()

    def _select_text(self, action: Action) -> None:
        """A mouse drag from the first to the last character of the text; if the page's selection
        is then not that text, a DOM Range selects it (counted in ``untrusted_clicks``)."""
        span = self._page.evaluate(page_js.TEXT_SPAN, [action.element, action.text])
        if span.get("error") == "not found":
            raise ActionError(f"element [{action.element}] has no text {action.text!r}")
        if span.get("error"):
            raise ActionError(target_error(action.element, span["error"]))
        self._run_ops(pointer_ops("drag", [tuple(span["start"]), tuple(span["end"])]))
        selected = self._page.evaluate(page_js.SELECTION_TEXT)
        if not selection_matches(selected, action.text):
            self._page.evaluate(page_js.SELECT_RANGE, [action.element, action.text])
            self.untrusted_clicks += 1

    def screenshot(self) -> bytes:
        """PNG of the task area (``#wrap``; the whole viewport if the page has none)."""
        box = self._call(page_js.TASK_AREA)
        try:
            return self._page.screenshot(clip=box, type="png") if box else self._page.screenshot()
        except Exception as error:
            reason = str(error).splitlines()[0][:200]
            raise BrowserCrashed(f"screenshot failed: {reason}") from error

    def _click(self, element: int, target: dict[str, Any]) -> None:
        check_clickable(element, target)
        if target["reachable"]:
            self._page.mouse.move(target["x"], target["y"])  # hover first: it may reflow
            target = self._page.evaluate(page_js.SETTLED_TARGET, element)
            if target["reachable"]:
                self._page.mouse.click(target["x"], target["y"])
                return
        locator = self._page.locator(self._selector(element))
        try:
            locator.click(timeout=CLICK_TIMEOUT_MS)
        except Exception as error:  # occluded or moving: fall back to a JS click
            if _is_crash(error):
                raise
            self._page.evaluate(page_js.JS_CLICK, element)
            self.untrusted_clicks += 1

    def _type(self, action: Action, target: dict[str, Any]) -> None:
        kind, is_text = type_target(action.element, target)
        if kind in FILL_INPUT_TYPES:
            text = to_input_value(kind, action.text)
            try:
                self._page.locator(self._selector(action.element)).fill(text, timeout=1000)
            except Exception as error:
                if _is_crash(error):
                    raise
                raise ActionError(f"{text!r} is not a valid {kind} value") from None
            return
        self._click(action.element, target)
        if not self._page.evaluate(page_js.CLEAR_FIELD, [action.element, is_text]):
            if is_text:  # the page reacted to the click (e.g. a popup disabled the field)
                return
            raise ActionError(f"element [{action.element}] is not a text field")
        if action.text:
            self._page.keyboard.type(action.text)

    def _select(self, action: Action, target: dict[str, Any]) -> None:
        if target["tag"] != "select":
            raise ActionError(f"element [{action.element}] is not a dropdown list")
        locator = self._page.locator(self._selector(action.element))
        labels = [o.strip() for o in locator.evaluate("s => Array.from(s.options, o => o.text)")]
        multiple = locator.evaluate("s => s.multiple")
        matches = match_options(action.element, action.text.split("\n"), labels, multiple)
        locator.select_option(label=matches, timeout=CLICK_TIMEOUT_MS)

    def _selector(self, element: int) -> str:
        episode = self._page.evaluate("() => window.__ag.ep")
        return f'[data-agid="{element}"][data-agep="{episode}"]'
