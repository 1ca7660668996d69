"""Oracles for the tool widgets: an SVG grid, a hex colour field with a picker, a rich-text editor.

Each plays what a text agent sees and can do: grid-coordinate's circles carry their coordinates
as element ids; use-colorwheel's picker writes a plain text input that takes the hex; text-editor
(Quill) is selected with keys (Control+A, Control+Arrow / Shift+Arrow) and styled with its
toolbar.
"""

from __future__ import annotations

import re
from typing import Any

from agentgym_envs.miniwob.actions import quote
from agentgym_envs.miniwob.oracles.view import View, click, submit


def grid_coordinate(view: View) -> str | None:
    """Click the circle whose id is the asked coordinate, e.g. ``(-2,1)``."""
    match = re.search(r"\(-?\d+,-?\d+\)", view.utterance)
    return click(view.first(f'circle[id="{match.group(0)}"]')) if match else None


_COLORWHEEL = r"""
(name) => ({
  hex: ui_utils.colorNameToHex(name),
  open: document.getElementById('col').classList.contains('jscolor-active'),
  focus: document.activeElement ? document.activeElement.id : '',
})
"""


def use_colorwheel(view: View) -> str | None:
    """Type the colour's hex into the picker's text input, then press Submit.

    Typing opens jscolor's picker over the Submit button (a click there would land on the picker),
    so the oracle tabs to the button and presses Enter while the picker is open.
    """
    match = re.search(r"Select (\w+) with", view.utterance)
    field = view.first("#col")
    if match is None or field is None:
        return None
    state = view.js(_COLORWHEEL, match.group(1))
    hex_digits = state["hex"].lstrip("#")
    if str(view.node(field).get("value", "")).lower() != hex_digits.lower():
        return f"type [{field}] {quote(hex_digits)}"
    if state["focus"] == "subbtn":
        return 'press "Enter"'
    if not state["open"]:
        return submit(view)
    return 'press "Tab"' if state["focus"] == "col" else click(field)


#: The page's style names, the Quill format each sets, and the first (primary) swatch of each
#: colour the page accepts (it takes any of five shades).
_FORMATS = {"bold": "bold", "italics": "italic", "underlined": "underline"}
_SWATCHES = {
    "red": "#e60000",
    "orange": "#ff9900",
    "yellow": "#ffff00",
    "green": "#008a00",
    "blue": "#0066cc",
    "purple": "#9933ff",
}
_EDITOR = r"""
() => ({
  text: editor.getText().replace(/\n$/, ''),
  sel: editor.getSelection(),
  saved: editor.selection.savedRange,
  ops: editor.getContents().ops,
  open: document.querySelector('.ql-color.ql-expanded') !== null,
})
"""


def _goal(utterance: str) -> tuple[str | None, str, Any] | None:
    """(word or None for everything, Quill format, value) asked by the instruction."""
    if m := re.search(r"give the text (\S+) the style (\w+)", utterance):
        return m.group(1), _FORMATS[m.group(2)], True
    if m := re.search(r"give everything the style (\w+)", utterance):
        return None, _FORMATS[m.group(1)], True
    if m := re.search(r"give the text (\S+) the color (\w+)", utterance):
        return m.group(1), "color", _SWATCHES[m.group(2)]
    if m := re.search(r"make everything the color (\w+)", utterance):
        return None, "color", _SWATCHES[m.group(1)]
    return None


def _target(text: str, word: str | None) -> tuple[int, int]:
    """(start, length) to style: the whole text, or the last whitespace-separated token equal to
    ``word`` (the page scores the last op equal to the word, so a repeated word takes the last)."""
    if word is None:
        return 0, len(text)
    start, found = 0, None
    for token in text.split(" "):
        if token == word:
            found = start
        start += len(token) + 1
    return (found, len(word)) if found is not None else (-1, 0)


def _styled(ops: list[dict[str, Any]], text: str, word: str | None, fmt: str, value: Any) -> bool:
    """Exactly the asked range carries exactly the asked format (the page's own check)."""
    want = {fmt: value}
    if word is None:
        return ops[0]["insert"].split("\n")[0] == text and ops[0].get("attributes") == want
    styled = [op for op in ops if op.get("attributes")]
    return (
        len(styled) == 1
        and styled[0]["attributes"] == want
        and re.sub(r"\s", "", styled[0]["insert"]) == word
    )


def text_editor(view: View) -> str | None:
    """Select the asked text with keys, style it from the toolbar, then press Submit."""
    goal = _goal(view.utterance)
    if goal is None:
        return None
    word, fmt, value = goal
    state = view.js(_EDITOR)
    text, sel, ops = state["text"], state["sel"], state["ops"]
    start, length = _target(text, word)
    if start < 0:
        return None
    if _styled(ops, text, word, fmt, value):
        return submit(view)
    target = {"index": start, "length": length}
    if fmt == "color" and state["open"]:
        if state["saved"] == target:
            return click(view.first(f'.ql-color .ql-picker-item[data-value="{value}"]'))
        return click(view.first(".ql-color .ql-picker-label"))  # close it, then select again
    if sel is None:
        return click(view.first(".ql-editor p") or view.first(".ql-editor"))
    if any(op.get("attributes") for op in ops):
        return 'press "Control+Z"'  # a wrong style: undo it
    if sel == target:
        if fmt == "color":
            return click(view.first(".ql-color .ql-picker-label"))
        return click(view.first(f"button.ql-{fmt}"))
    return _select_move(word, start, length, sel)


def _select_move(word: str | None, start: int, length: int, sel: dict[str, int]) -> str:
    """The next key toward selecting [start, start + length) from the selection ``sel``.

    Control+Arrow moves by words (Control+ArrowLeft to a word start, so it never passes the
    token's start), Shift extends the selection from its anchor; punctuation is its own word.
    """
    if word is None:
        return 'press "Control+A"'
    index, span = sel["index"], sel["length"]
    if span and index != start:
        return 'press "ArrowLeft"'  # collapse to the selection's start, then move
    if span == 0 and index > start:
        return 'press "Control+ArrowLeft"'
    if span == 0 and index < start:
        return 'press "ArrowRight"' if start - index == 1 else 'press "Control+ArrowRight"'
    if span > length:
        return 'press "Shift+ArrowLeft"'
    if word[span].isalnum():
        return 'press "Control+Shift+ArrowRight"'  # to the end of this run of letters
    return 'press "Shift+ArrowRight"'
