"""Title nouns replay spaCy's parse (the original's type reward) from the distilled lexicon."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from agentgym_envs.webshop.title_nouns import lexicon, split_words, title_nouns, word_shape

#: 2,000 titles of the seed-1 default catalog (not the seed the lexicon was distilled on) with
#: the nouns spaCy 3.8.18 + en_core_web_sm 3.8.0 found in them (scripts/webshop_title_nouns.py).
SPACY_CASES = Path(__file__).with_name("title_nouns_spacy.jsonl.gz")


def _cases() -> list[dict]:
    with gzip.open(SPACY_CASES, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def test_nouns_agree_with_spacy_on_unseen_titles():
    cases = _cases()
    assert len(cases) == 2_000
    same = sum(title_nouns(c["title"]) == tuple(c["spacy_nouns"]) for c in cases)
    assert same / len(cases) >= 0.89  # measured 91.8% on all 100,000 titles of that catalog


def test_shape_rule_and_exceptions():
    assert lexicon()["shapes"] == {"X": True, "Xx": True, "d": False, "other": False, "x": False}
    assert word_shape("Zorbex") == "Xx" and word_shape("ZORBEX") == "X"
    assert word_shape("12") == "d" and word_shape("with") == "x" and word_shape("3-Tier") == "other"
    # an unseen capitalised word (an invented brand) is a proper noun; "for" and digits are not
    assert title_nouns("Qwzzyx Phone Case for Women, 2 Count") == (
        "qwzzyx", "phone", "case", "women", "count")  # fmt: skip
    assert split_words("Lamp,  Black;") == ["Lamp", "Black"]


def test_nouns_keep_repeats_in_title_order():
    """The original counts the goal's noun tokens with repeats (its overlap's denominator)."""
    nouns = title_nouns("Case Case Phone Case")
    assert nouns == ("case", "case", "phone", "case")
