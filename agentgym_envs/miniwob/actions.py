"""The text action grammar of the MiniWoB envs and its parser (no browser needed).

    click [id]            trusted mouse click at the element's centre (JS click if occluded)
    type [id] "text"      click the field, clear it, type the text (real key events); on a
                          non-field (e.g. a terminal) it types into what the click focused;
                          at most MAX_TYPE_CHARS (500) characters
    select [id] "option"  choose an option of a <select> by its label
    press "Key"           a key or chord on the focused element: Enter, Tab, Control+A, ...
    scroll [id] up|down   scroll a scrollable element (or the page) by most of a view
    scroll [id] top|bottom  scroll it all the way
    hover [id]            move the mouse over the element (opens hover menus)
    select [id] "a" "b"   several options of a multi-select list
    noop                  wait 100 ms (for delayed content and animations)
    wait N                wait N seconds (0 < N <= 5; tasks that ask you to wait)
    click_xy X Y          trusted mouse click at page coordinates (CSS pixels from the page's
                          top-left corner; the ``text_bbox`` observation gives element boxes)
    drag [id] to [id]     press on the first element's centre, move in steps, release on the second
    drag X1 Y1 X2 Y2      the same between two page points
    select_text [id] "text"  select that text inside the element with a mouse drag
    draw X1 Y1 X2 Y2 ...  press at the first point, move through the others, release at the last
                          (2 to MAX_DRAW_POINTS points)

Ids are the bracketed numbers of the current observation. Quotes inside text are escaped as \\".
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from agentgym_envs.core import POINTS, ActionError, ActionSet, ActionSpec, Arg

_NUM = r"-?\d+(?:\.\d+)?"
_SEP = r"(?:\s*,\s*|\s+)"
_QUOTED = r'"((?:[^"\\]|\\.)*)"'
_PATTERNS = {
    "click": re.compile(r"click\s*\[(\d+)\]", re.IGNORECASE),
    "type": re.compile(r"type\s*\[(\d+)\]\s*" + _QUOTED, re.IGNORECASE | re.DOTALL),
    "select": re.compile(
        r"select\s*\[(\d+)\]\s*(" + _QUOTED + r"(?:\s*,?\s*" + _QUOTED + r")*)",
        re.IGNORECASE | re.DOTALL,
    ),
    "press": re.compile(r"press\s*" + _QUOTED, re.IGNORECASE),
    "scroll": re.compile(r"scroll\s*\[(\d+)\]\s*(up|down|top|bottom)", re.IGNORECASE),
    "noop": re.compile(r"noop(?:\(\))?", re.IGNORECASE),
    "hover": re.compile(r"hover\s*\[(\d+)\]", re.IGNORECASE),
    "wait": re.compile(r"wait\s+(\d+(?:\.\d+)?)", re.IGNORECASE),
    "click_xy": re.compile(rf"click_xy\s+({_NUM}){_SEP}({_NUM})", re.IGNORECASE),
    "drag": re.compile(
        rf"drag\s*(?:\[(\d+)\]\s*to\s*\[(\d+)\]|({_NUM}(?:{_SEP}{_NUM}){{3}}))",
        re.IGNORECASE,
    ),
    "select_text": re.compile(r"select_text\s*\[(\d+)\]\s*" + _QUOTED, re.IGNORECASE | re.DOTALL),
    "draw": re.compile(rf"draw\s+({_NUM}(?:{_SEP}{_NUM})*)", re.IGNORECASE),
}
_BASE_KEYS = {
    "enter": "Enter",
    "tab": "Tab",
    "backspace": "Backspace",
    "delete": "Delete",
    "escape": "Escape",
    "space": " ",
    "arrowup": "ArrowUp",
    "arrowdown": "ArrowDown",
    "arrowleft": "ArrowLeft",
    "arrowright": "ArrowRight",
    "home": "Home",
    "end": "End",
    "pageup": "PageUp",
    "pagedown": "PageDown",
}
MAX_WAIT_SECONDS = 5.0
#: Longest ``type`` text. Key events cost ~2.5 ms a character, so this bounds a step at ~1.3 s
#: (100k characters took minutes); no MiniWoB field needs more than a few dozen.
MAX_TYPE_CHARS = 500
#: Most points a ``draw`` takes (a polyline; each segment is a few mouse moves).
MAX_DRAW_POINTS = 200
#: Largest coordinate accepted (CSS pixels); the page checks the real bounds.
MAX_COORDINATE = 10_000
_MODIFIERS = {"control": "Control", "ctrl": "Control", "shift": "Shift", "alt": "Alt"}


@dataclass(frozen=True)
class Action:
    """A parsed action: ``kind`` is one of click/type/select/press/scroll/noop/hover/wait and the
    pointer kinds click_xy/drag/select_text/draw. ``target`` is the drop element of
    ``drag [id] to [id]``; ``points`` the page coordinates of click_xy, drag X1 Y1 X2 Y2, draw."""

    kind: str
    element: int | None = None
    text: str = ""
    target: int | None = None
    points: tuple[tuple[float, float], ...] = ()

    def render(self) -> str:
        """The canonical action string (``parse(a.render()) == a``)."""
        if self.kind == "noop":
            return "noop"
        if self.kind == "drag" and self.target is not None:
            return f"drag [{self.element}] to [{self.target}]"
        if self.kind in ("click_xy", "drag", "draw"):
            return f"{self.kind} " + " ".join(f"{x:g} {y:g}" for x, y in self.points)
        if self.kind == "wait":
            return f"wait {self.text}"
        if self.kind == "select":
            labels = " ".join(quote(label) for label in self.text.split("\n"))
            return f"select [{self.element}] {labels}"
        if self.kind == "press":
            return f"press {quote(self.text)}"
        if self.kind == "scroll":
            return f"scroll [{self.element}] {self.text}"
        if self.kind in ("click", "hover"):
            return f"{self.kind} [{self.element}]"
        return f"{self.kind} [{self.element}] {quote(self.text)}"


def quote(text: str) -> str:
    """``text`` in double quotes with backslash escapes (JSON string syntax)."""
    return json.dumps(text, ensure_ascii=False)


def _unquote(body: str) -> str:
    try:
        return json.loads(f'"{body}"')
    except json.JSONDecodeError:
        return body.replace('\\"', '"').replace("\\\\", "\\")


def normalize_key(key: str) -> str:
    """Playwright key name for ``key`` ('enter' -> 'Enter', 'ctrl+a' -> 'Control+a')."""
    parts = [p.strip() for p in key.split("+")] if key != "+" else ["+"]
    if not all(parts):
        raise ActionError(f'bad key {key!r}; use e.g. press "Enter" or press "Control+A"')
    *mods, base = parts
    names = []
    for mod in mods:
        if mod.lower() not in _MODIFIERS:
            raise ActionError(f"unknown modifier {mod!r} in {key!r}; use Control, Shift or Alt")
        names.append(_MODIFIERS[mod.lower()])
    if base.lower() in _BASE_KEYS:
        names.append(_BASE_KEYS[base.lower()])
    elif len(base) == 1:
        names.append(base.lower() if mods else base)
    else:
        known = ", ".join(sorted(set(_BASE_KEYS.values()) - {" "}))
        raise ActionError(f"unknown key {base!r}; known keys: {known}, Space, or one character")
    return "+".join(names)


def _points(body: str, verb: str) -> tuple[tuple[float, float], ...]:
    numbers = [float(n) for n in re.findall(_NUM, body)]
    if len(numbers) % 2:
        raise ActionError(f"{verb} takes x y pairs of page coordinates, got {len(numbers)} numbers")
    for n in numbers:
        if not 0 <= n <= MAX_COORDINATE:
            raise ActionError(
                f"coordinate {n:g} is outside the page; page coordinates are CSS pixels >= 0"
            )
    return tuple(zip(numbers[::2], numbers[1::2], strict=True))


def parse_action(text: str) -> Action:
    """Parse one action string; ActionError with the grammar when it is malformed."""
    text = text.strip()
    verb = text.split(None, 1)[0].lower() if text else ""
    verb = re.split(r"[\[\"(]", verb, maxsplit=1)[0]
    pattern = _PATTERNS.get(verb)
    match = pattern.fullmatch(text) if pattern else None
    if match is None:
        raise ActionError(f"cannot parse {text[:80]!r}; actions: {ACTION_HELP}")
    if verb in ("click_xy", "drag", "draw", "select_text"):
        return _parse_pointer(verb, match)
    if verb == "noop":
        return Action("noop")
    if verb == "wait":
        seconds = float(match.group(1))
        if not 0 < seconds <= MAX_WAIT_SECONDS:
            raise ActionError(f"wait takes 0 to {MAX_WAIT_SECONDS:g} seconds, got {seconds:g}")
        return Action("wait", text=f"{seconds:g}")
    if verb == "select":
        labels = [_unquote(m) for m in re.findall(_QUOTED, match.group(2))]
        return Action("select", int(match.group(1)), "\n".join(labels))
    if verb == "press":
        return Action("press", text=normalize_key(_unquote(match.group(1))))
    element = int(match.group(1))
    if verb in ("click", "hover"):
        return Action(verb, element)
    if verb == "scroll":
        return Action("scroll", element, match.group(2).lower())
    typed = _unquote(match.group(2))
    if len(typed) > MAX_TYPE_CHARS:
        raise ActionError(
            f"type text is at most {MAX_TYPE_CHARS} characters, got {len(typed)}; "
            "type the text the field needs"
        )
    return Action(verb, element, typed)


def _parse_pointer(verb: str, match: re.Match[str]) -> Action:
    if verb == "click_xy":
        return Action("click_xy", points=_points(f"{match.group(1)} {match.group(2)}", verb))
    if verb == "select_text":
        wanted = _unquote(match.group(2))
        if not wanted.strip():
            raise ActionError('select_text needs the text to select: select_text [id] "text"')
        return Action("select_text", int(match.group(1)), wanted)
    if verb == "drag":
        if match.group(1) is not None:
            return Action("drag", int(match.group(1)), target=int(match.group(2)))
        return Action("drag", points=_points(match.group(3), verb))
    points = _points(match.group(1), verb)
    if not 2 <= len(points) <= MAX_DRAW_POINTS:
        raise ActionError(
            f"draw takes 2 to {MAX_DRAW_POINTS} points (x y pairs), got {len(points)}"
        )
    return Action("draw", points=points)


ELEMENT = Arg(
    "element", int, 'The element\'s number in the observation, e.g. 4 for "[4] button".', "id"
)
X, Y = (Arg(a, float, f"Page {a} in CSS pixels from the top-left corner.", a.upper()) for a in "xy")
CORNERS = tuple(
    Arg(
        f"{a}{i}", float, f"The {'start' if i == 1 else 'end'} point's page {a}.", f"{a.upper()}{i}"
    )
    for i in (1, 2)
    for a in "xy"
)
ACTIONS = ActionSet(
    (
        ActionSpec("click", "click [{element}]", "Click an element of the page.", (ELEMENT,)),
        ActionSpec("hover", "hover [{element}]",
                   "Move the mouse over an element (opens hover menus).", (ELEMENT,)),
        ActionSpec("type_text", "type [{element}] {text}",
                   "Click a text field, clear it and type text into it.",
                   (ELEMENT, Arg("text", str, "The text to type.", quoted=True))),
        ActionSpec("select_option", "select [{element}] {option}",
                   "Choose an option of a dropdown list.",
                   (ELEMENT, Arg("option", str, "The option's label.", quoted=True))),
        ActionSpec("press_key", "press {key}", "Press a key or chord on the focused element.",
                   (Arg("key", str, 'A key name such as "Enter", "Tab", "ArrowDown" or a chord '
                        'such as "Control+A".', "Key", quoted=True),)),
        ActionSpec("scroll", "scroll [{element}] {direction}",
                   "Scroll a scrollable element (or the page) by most of a view, or all the way.",
                   (ELEMENT, Arg("direction", str, "Which way.",
                                 choices=("up", "down", "top", "bottom")))),
        ActionSpec("noop", "noop", "Wait 100 ms (for delayed content and animations)."),
        ActionSpec("wait", "wait {seconds}", "Let time pass, for tasks that ask you to wait.",
                   (Arg("seconds", float, f"How long, more than 0 and at most "
                        f"{MAX_WAIT_SECONDS:g}.", "N"),)),
        ActionSpec("click_xy", "click_xy {x} {y}",
                   "Click a point of the page (the text_bbox observation gives element boxes).",
                   (X, Y)),
        ActionSpec("drag", "drag [{element}] to [{target}]",
                   "Drag an element onto another (press, move in steps, release).",
                   (ELEMENT, Arg("target", int, "The number of the element to drop it on.",
                                 "id"))),
        ActionSpec("drag_xy", "drag {x1} {y1} {x2} {y2}",
                   "Drag from one page point to another.", CORNERS),
        ActionSpec("select_text", "select_text [{element}] {text}",
                   "Select a piece of text inside an element with a mouse drag.",
                   (ELEMENT, Arg("text", str, "The text to select.", quoted=True))),
        ActionSpec("draw", "draw {points}",
                   "Press at the first point, move through the others, release at the last.",
                   (Arg("points", POINTS, f"x y page coordinates, flat: x1, y1, x2, y2, ... "
                        f"(2 to {MAX_DRAW_POINTS} points).", "X1 Y1 X2 Y2 ..."),)),
    ),
    parser=parse_action,
)  # fmt: skip
ACTION_HELP = ACTIONS.describe()
