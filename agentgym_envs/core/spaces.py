"""Text spaces whose charset holds real text, not Gymnasium's default alphanumerics."""

from __future__ import annotations

import copy
import functools

from gymnasium import spaces

#: Every printable character of Unicode's Basic Multilingual Plane, plus newline and tab.
CHARSET_RANGE = (0x20, 0x10000)
REPLACEMENT = "\ufffd"


@functools.cache
def _charset() -> frozenset[str]:
    chars = {chr(c) for c in range(*CHARSET_RANGE) if chr(c).isprintable()}
    return frozenset(chars | {"\n", "\t"})


@functools.cache
def _template(max_length: int, min_length: int) -> spaces.Text:
    return spaces.Text(max_length, min_length=min_length, charset=_charset())


def text_space(max_length: int, min_length: int = 0) -> spaces.Text:
    """A ``spaces.Text`` over printable BMP text; cheap to call (shares one charset table)."""
    space = copy.copy(_template(max_length, min_length))
    space.seed(None)
    return space


def clean_text(text: str, max_length: int) -> str:
    """Make ``text`` a member of ``text_space(max_length)``: replace characters outside the
    charset with U+FFFD and cut it to ``max_length`` (marking the cut)."""
    charset = _charset()
    if not all(c in charset for c in text):
        text = "".join(c if c in charset else REPLACEMENT for c in text)
    if len(text) > max_length:
        marker = "\n[... cut]"
        text = text[: max_length - len(marker)] + marker
    return text


__all__ = ["REPLACEMENT", "clean_text", "text_space"]
