"""Title nouns as the original's spaCy parse finds them, without spaCy.

The original's type reward parses both titles with spaCy's ``en_core_web_sm`` and keeps, in
order and with repeats, every token tagged NOUN or PROPN (lower-cased). On listing titles, which
are written in Title Case, that is nearly every word: brands, features and type words alike,
while "for", "with", numbers, punctuation and a few adjectives ("Black") drop out.

We replay that parse from a lexicon distilled from spaCy's own output on generated titles
(``title_nouns.json``, written by ``scripts/webshop_title_nouns.py``, which names the spaCy and
model versions and the measured agreement): each whitespace word of a title maps to the nouns
spaCy found in it most often; a word the lexicon has not seen (mostly invented brand names) is
decided by its shape (capitalised, all capitals, lower case, digits, other), again by spaCy's
majority. No model is loaded at catalog build time, so every machine builds the same catalog.
Catalog cache keys cover the lexicon file (``sources.content_digest``): a new one rebuilds caches.

Measured (``scripts/webshop_title_nouns.py check``; lexicon from the seed-0 default catalog,
checked on the seed-1 catalog, 100,000 titles): against spaCy 3.8.18 + en_core_web_sm 3.8.0 the
noun lists are identical for 91.8% of titles and ``r_type`` for 99.87% of 11,000 purchases (each
medium goal's target and its top-10 search results) and 99.77% of 10,000 purchases of another
query subcategory; against spaCy 3.6.1 + en_core_web_sm 3.6.0, 88.4% / 99.85% / 99.55%. The two
spaCy versions agree with each other on 87.5% of the noun lists. (The word heuristic this
replaced agreed with spaCy on 12.8% of titles.)
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

LEXICON_PATH = Path(__file__).with_name("title_nouns.json")
#: Characters split off the end of a word before lookup (spaCy tokenises them apart).
TRAILING = ",;:"


def word_shape(word: str) -> str:
    """A coarse shape class of ``word``: "Xx", "X", "x", "d" or "other"."""
    if word.isdigit():
        return "d"
    if word.isalpha():
        if word.isupper():
            return "X"
        if word[0].isupper():
            return "Xx"
        if word.islower():
            return "x"
    return "other"


def split_words(title: str) -> list[str]:
    """The title's words with trailing commas and the like removed (empty words dropped)."""
    words = (word.rstrip(TRAILING) for word in title.split())
    return [word for word in words if word]


@functools.cache
def lexicon_digest() -> str:
    """The first 8 hex digits of the lexicon file's SHA-256 (part of catalog cache keys)."""
    return hashlib.sha256(LEXICON_PATH.read_bytes()).hexdigest()[:8]


@functools.cache
def lexicon() -> dict:
    """The distilled lexicon: ``{"words": {word: [nouns]}, "shapes": {shape: bool}, ...}``."""
    return json.loads(LEXICON_PATH.read_text(encoding="utf-8"))


def title_nouns(title: str) -> tuple[str, ...]:
    """The nouns spaCy's parse of ``title`` gives, lower case, in order, with repeats."""
    table = lexicon()
    words, shapes = table["words"], table["shapes"]
    nouns: list[str] = []
    for word in split_words(title):
        known = words.get(word)
        if known is not None:
            nouns.extend(known)
        elif shapes.get(word_shape(word), False):
            nouns.append(word.lower())
    return tuple(nouns)
