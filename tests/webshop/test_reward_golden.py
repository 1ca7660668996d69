"""WebShop reward against the ORIGINAL's own functions: 2,400 purchases scored by
princeton-nlp/WebShop's ``get_reward`` (64fa2a5, thefuzz 0.19.0 as pinned) must score the same
here, to 1e-9, part by part. How the cases were drawn and scored: reward_golden/README.md."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("rapidfuzz")

from agentgym_envs.webshop.reward import compute_reward
from agentgym_envs.webshop.schema import Goal, Product

CASES = Path(__file__).parent / "reward_golden" / "cases.jsonl.gz"
KINDS = ("target_right", "target_wrong", "target_partial", "target_none", "search_hit",
         "random_product", "price_at_bound", "price_over", "no_bound", "no_goal_nouns",
         "no_product_nouns", "colour_words", "odd_characters", "many_goal_nouns")  # fmt: skip


def load_cases() -> list[dict]:
    with gzip.open(CASES, "rt", encoding="utf-8") as file:
        return [json.loads(line) for line in file]


def as_records(case: dict) -> tuple[Product, Goal]:
    p, g = case["product"], case["goal"]
    product = Product(
        asin=p["asin"], title=p["title"], category="", query=p["query"],
        product_category=p["product_category"], bullets=tuple(p["bullets"]),
        description=p["description"], pricing=(case["price"],), price=case["price"],
        attributes=tuple(p["attributes"]), type_nouns=tuple(p["type_nouns"]),
    )  # fmt: skip
    goal = Goal(
        goal_id="golden", asin="", instruction="", query=g["query"], category="",
        product_category=g["product_category"], title=g["title"],
        type_nouns=tuple(g["type_nouns"]), attributes=tuple(g["attributes"]),
        options=g["options"], price_upper=g["price_upper"],
    )  # fmt: skip
    return product, goal


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    return load_cases()


def test_golden_cases_cover_every_branch(cases):
    assert len(cases) >= 2000
    kinds = Counter(case["kind"] for case in cases)
    assert set(kinds) == set(KINDS) and min(kinds.values()) >= 50, kinds
    expected = [case["expected"] for case in cases]
    assert {e["r_type"] for e in expected} == {0.0, 0.1, 0.5, 1.0}
    assert {e["r_price"] for e in expected} == {True, False}
    assert any(case["goal"]["price_upper"] is None for case in cases)
    # option matches of every size: none, some and all of the wanted values
    matched = [(c["expected"]["n_opt"], len(c["goal"]["options"])) for c in cases]
    assert {(n > 0) + (n == wanted > 0) for n, wanted in matched} == {0, 1, 2}
    assert any(0 < e["score"] < 1 for e in expected) and any(e["score"] == 1 for e in expected)


def test_reward_equals_the_originals_on_every_golden_case(cases):
    mismatches = []
    for case in cases:
        product, goal = as_records(case)
        ours = compute_reward(product, goal, case["selected"], price=case["price"])
        want = case["expected"]
        got = {"score": ours.score, "r_type": ours.r_type, "title_score": ours.title_score,
               "query_match": ours.query_match, "category_match": ours.category_match,
               "n_att": ours.n_att, "n_opt": ours.n_opt, "r_price": ours.r_price}  # fmt: skip
        if abs(got["score"] - want["score"]) >= 1e-9 or {k: got[k] for k in want} != want:
            mismatches.append((case["kind"], got, want, case["goal"]["options"], case["selected"]))
    assert not mismatches, f"{len(mismatches)} of {len(cases)} differ; first: {mismatches[:3]}"
