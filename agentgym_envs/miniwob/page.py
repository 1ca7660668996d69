"""The MiniWoB episode protocol's shared pieces: its limits and timings, its errors
(``BrowserCrashed``, ``StepTimedOut``), what an episode start returns, and the pure helpers of the
actions (mouse paths, option matching, input values).

The driver is ``async_page.AsyncMiniWoBPage`` (Playwright's asyncio API), the one
implementation of the protocol; ``MiniWoBPage``, a single env's page, is its blocking face on the
process's shared event loop (``async_page.MiniWoBPage``). The page is
loaded once per task and reused across episodes (``core.startEpisodeReal`` rebuilds the task); it
is reloaded every ``reload_every`` episodes, on a task change,
every episode for tasks whose state leaks across episodes, and after a crash. Pages run on
virtual time (``clock``): the timings below are page time, which costs next to no real time. A
dead page or browser surfaces as ``BrowserCrashed`` so the env can report a truncated episode and
start over on a fresh context.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from agentgym_envs.core import ActionError, EpisodeAborted

#: Trusted clicks wait at most this long for actionability before the JS fallback.
CLICK_TIMEOUT_MS = 200
#: Page time (virtual ms, see ``clock``) that passes after every action and episode start before
#: the page is asked whether it is idle: the page's own queued work (handlers run after a click,
#: zero-delay timers) happens first.
FIRST_WAIT_MS = 20
#: Timers due within this much page time count as an action's effect, which the observation
#: waits for (``page_js.SETTLE_STEP``); later ones are the page's own pace.
IDLE_HORIZON_MS = 1_000
#: Settling advances page time by at least this much a round (an animation steps every frame).
SETTLE_STEP_MS = 50
#: Settling stops after this much page time even if the page is still busy (a page that never
#: idles: moving targets, a spinning animation).
SETTLE_LIMIT_MS = 4_000
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
#: ``noop`` lets this much page time pass (delayed content, animations, hover menus).
NOOP_MS = 100
#: Page time between the mouse events of a drag or a drawn stroke (a 60 Hz pointer), so a
#: drag has a speed (drag-cube turns its cube by the pointer's momentum).
POINTER_MOVE_MS = 16
#: After the pointer moved onto a target whose press point is not reachable yet (a hover style
#: loading its picture), page time passes in steps of this much, this many times at most.
HOVER_WAIT_MS, HOVER_TRIES = 16, 30
#: Before an observation, wait at most this long (real ms) for pictures still loading.
PICTURE_TIMEOUT_MS = 2_000
#: Page loads and protocol calls fail (and count as a crash) after this long.
LOAD_TIMEOUT_MS = 15_000
#: A step (action and observation) that takes longer than this is stopped (its call cancelled
#: and its page closed); the episode is truncated. Steps take a few ms of real time (page time
#: is virtual: ``wait 5`` too).
STEP_TIMEOUT_S = 30.0
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


#: A stylesheet larger than this is not read for ``hover_rules`` (the page then counts it as
#: hover-sensitive); MiniWoB's largest is ~0.1 MB.
MAX_STYLESHEET_BYTES = 4_000_000


def hover_rules(hrefs: list[str]) -> dict[str, list[str]]:
    """The ``:hover`` selector lists (the text before a ``{`` that holds ``:hover``) of each
    ``file://`` stylesheet among ``hrefs``, which the page cannot read itself
    (``page_js.HOVER_SENSITIVE_FN``); a sheet that is not a readable regular file of at most
    ``MAX_STYLESHEET_BYTES``, or that imports another, is left out (the page then counts it as
    hover-sensitive)."""
    rules = {href: _hover_selectors(href) for href in hrefs}
    return {href: list(found) for href, found in rules.items() if found is not None}


@functools.lru_cache(maxsize=512)
def _hover_selectors(href: str) -> tuple[str, ...] | None:
    url = urlparse(href)
    if url.scheme != "file":
        return None
    path = Path(unquote(url.path))
    try:
        if not path.is_file() or path.stat().st_size > MAX_STYLESHEET_BYTES:
            return None
        text = path.read_text(errors="replace")
    except OSError:
        return None
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    if "@import" in text:
        return None
    preludes = re.findall(r"([^{};]+)\{", text)
    return tuple(p.strip() for p in preludes if ":hover" in p and not p.strip().startswith("@"))


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
