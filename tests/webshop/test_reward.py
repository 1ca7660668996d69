"""WebShop reward: every branch of the original's rules against hand-computed values."""

from __future__ import annotations

import dataclasses

import pytest

pytest.importorskip("rapidfuzz")

from agentgym_envs.webshop.reward import (
    COLOR_SET,
    compute_reward,
    fuzzy_match,
    normalize_color,
    type_reward,
)
from agentgym_envs.webshop.schema import Goal, Product

SHIRT = Product(
    asin="B000000001",
    title="Men's Slim Fit Dress Shirt Long Sleeve Cotton",
    category="fashion",
    query="men's dress shirts",
    product_category="Clothing, Shoes & Jewelry › Men › Clothing › Shirts › Dress Shirts",
    bullets=("Wrinkle free fabric", "Button down collar"),
    description="A classic shirt for the office. Machine wash cold.",
    pricing=(24.99,),
    price=24.99,
    options={"color": ("navy blue", "white"), "size": ("large", "x-large")},
    attributes=("long sleeve", "slim fit"),
    type_nouns=("men", "fit", "dress", "shirt", "sleeve", "cotton"),
)

GOAL = Goal(
    goal_id="g1",
    asin=SHIRT.asin,
    instruction="i want a slim fit dress shirt that is machine wash, navy blue, x-large",
    query="men's dress shirts",
    category="fashion",
    product_category=SHIRT.product_category,
    title=SHIRT.title,
    type_nouns=("dress", "shirt"),
    attributes=("slim fit", "machine wash"),
    options={"color": "navy blue", "size": "x-large"},
    price_upper=30.0,
)


def other(**changes) -> Product:
    return dataclasses.replace(SHIRT, **changes)


def test_perfect_purchase_scores_one():
    r = compute_reward(SHIRT, GOAL, {"color": "navy blue", "size": "x-large"})
    assert (r.r_type, r.n_att, r.n_opt, r.r_price, r.score) == (1.0, 2, 2, True, 1.0)
    assert r.r_att == 1.0 and r.r_option == 1.0


# ----------------------------------------------------------------------------------- r_type
def test_r_type_query_match():
    product = other(product_category="A › B", type_nouns=("dress",))  # 1/2 nouns, query equal
    assert type_reward(product, GOAL) == (1.0, True, False, 0.5)


def test_r_type_category_match_two_levels_any_order():
    product = other(query="ties", product_category="Shirts › Men › Toys", type_nouns=("shirt",))
    r_type, query_match, category_match, _ = type_reward(product, GOAL)
    assert (r_type, query_match, category_match) == (1.0, False, True)


def test_r_type_one_shared_level_is_not_a_category_match():
    product = other(query="ties", product_category="Men › Ties", type_nouns=("x", "shirt"))
    goal = dataclasses.replace(GOAL, type_nouns=("a", "b", "c", "d", "shirt"))  # 1/5 = 0.2
    assert type_reward(product, goal) == (0.5, False, False, 0.2)


def test_r_type_title_overlap_above_fifth():
    product = other(query="ties", product_category="X › Y", type_nouns=("shirt", "tie"))
    goal = dataclasses.replace(GOAL, type_nouns=("shirt", "a", "b", "c"))  # 1/4 = 0.25 > 0.2
    assert type_reward(product, goal) == (1.0, False, False, 0.25)


def test_r_type_no_match_is_half():
    product = other(query="ties", product_category="X › Y", type_nouns=("shirt",))
    goal = dataclasses.replace(GOAL, type_nouns=("shirt", "a", "b", "c", "d"))  # exactly 0.2
    assert type_reward(product, goal)[0] == 0.5


def test_r_type_small_overlap_forces_point_one_even_with_query_match():
    goal = dataclasses.replace(GOAL, type_nouns=("shirt", *"abcdefghijk"))  # 1/12
    assert type_reward(SHIRT, goal) == (0.1, True, True, pytest.approx(1 / 12))


def test_r_type_zero_overlap_forces_zero():
    product = other(type_nouns=("hat",))
    assert type_reward(product, GOAL) == (0.0, True, True, 0.0)
    r = compute_reward(product, GOAL, {"color": "navy blue", "size": "x-large"})
    assert r.score == 0.0


def test_r_type_goal_without_nouns_scores_point_two():
    goal = dataclasses.replace(GOAL, type_nouns=())
    product = other(query="ties", product_category="X › Y")
    assert type_reward(product, goal) == (0.5, False, False, 0.2)  # 0.2 is not > 0.2
    assert type_reward(SHIRT, goal)[0] == 1.0  # query match still lifts it


# ------------------------------------------------------------------------------- attributes
def test_attribute_fuzzy_match_against_product_attributes():
    goal = dataclasses.replace(GOAL, attributes=("slim-fit",), options={})
    product = other(title="Shirt", bullets=(), description="", attributes=("slim fit",))
    r = compute_reward(product, goal, {})
    # r_type: query match -> 1; (1 attr + 1 price) / (1 + 0 + 1)
    assert (r.n_att, r.score) == (1, 1.0)


def test_attribute_substring_of_title_bullets_or_description():
    for field, text in [("title", "Machine Wash Shirt"), ("bullets", ("Machine wash ok",)),
                        ("description", "machine wash only")]:  # fmt: skip
        bare = {"title": "Shirt", "bullets": (), "description": "", "attributes": ()}
        product = other(**{**bare, field: text})
        goal = dataclasses.replace(GOAL, attributes=("machine wash",), options={})
        assert compute_reward(product, goal, {}).n_att == 1, field


def test_attribute_missing_lowers_score():
    product = other(attributes=(), title="Shirt", bullets=(), description="")
    r = compute_reward(product, GOAL, {"color": "navy blue", "size": "x-large"})
    # 0 attrs + 2 options + price = 3 of 5
    assert (r.n_att, r.r_att, r.score) == (0, 0.0, pytest.approx(3 / 5))


def test_fuzzy_threshold_uses_integer_rounding():
    assert fuzzy_match("machine wash", "machine washable")  # 85.71 -> 86 > 85
    assert not fuzzy_match("x" * 20, "x" * 27)  # 85.1 -> 85, not > 85
    assert not fuzzy_match("", "anything")


# ---------------------------------------------------------------------------------- options
def test_color_normalisation_first_substring_in_list_order():
    assert list(COLOR_SET) == sorted(COLOR_SET)
    assert normalize_color("navy blue") == "blue"  # "blue" precedes "navy"
    assert normalize_color("light blue") == "blue"
    assert normalize_color("x-large") == "x-large"  # no colour: unchanged


def test_option_colour_normalisation_makes_shades_match():
    bare = other(title="Shirt", bullets=(), description="", attributes=("slim fit", "machine wash"))
    r = compute_reward(bare, GOAL, {"color": "light blue", "size": "x-large"})
    assert r.n_opt == 2 and r.score == 1.0


def test_option_wrong_colour_does_not_match():
    bare = other(title="Shirt", bullets=(), description="", attributes=("slim fit", "machine wash"))
    r = compute_reward(bare, GOAL, {"color": "white", "size": "x-large"})
    assert (r.n_opt, r.score) == (1, pytest.approx(4 / 5))


def test_size_is_exact_but_other_groups_lenient():
    bare = other(title="Shirt", bullets=(), description="", attributes=("slim fit", "machine wash"))
    # size exact: "large" is not "x-large"
    r = compute_reward(bare, GOAL, {"color": "navy blue", "size": "large"})
    assert (r.n_opt, r.score) == (1, pytest.approx(4 / 5))
    # the same values under another group name are fuzzy: token-set("x-large", "large") = 100
    goal = dataclasses.replace(GOAL, options={"fit": "x-large"})
    r = compute_reward(bare, goal, {"fit": "large"})
    assert (r.n_opt, r.score) == (1, 1.0)


def test_unmatched_option_counts_when_in_product_text():
    product = other(attributes=("slim fit", "machine wash"), title="Large Shirt")
    r = compute_reward(product, GOAL, {"color": "navy blue", "size": "large"})
    assert r.n_opt == 2  # "large" is a substring of the title


def test_no_selection_scores_only_attributes_and_price():
    r = compute_reward(SHIRT, GOAL, {})
    assert (r.n_opt, r.r_option, r.score) == (0, 0.0, pytest.approx(3 / 5))


# ------------------------------------------------------------------------------------ price
def test_price_above_bound_loses_one_part():
    r = compute_reward(SHIRT, GOAL, {"color": "navy blue", "size": "x-large"}, price=30.01)
    assert (r.r_price, r.score) == (False, pytest.approx(4 / 5))
    r = compute_reward(SHIRT, GOAL, {"color": "navy blue", "size": "x-large"}, price=30.0)
    assert r.r_price and r.score == 1.0


def test_no_price_bound_counts_as_satisfied():
    goal = dataclasses.replace(GOAL, price_upper=None)
    r = compute_reward(other(price=5000.0), goal, {"color": "navy blue", "size": "x-large"})
    assert (r.r_price, r.score) == (True, 1.0)


def test_type_multiplier_scales_total():
    product = other(query="ties", product_category="X › Y", type_nouns=("shirt", "x"))
    goal = dataclasses.replace(GOAL, type_nouns=("shirt", "a", "b", "c", "d"))  # 0.2 -> r_type 0.5
    r = compute_reward(product, goal, {"color": "white", "size": "x-large"})
    # (2 attrs + 1 option + price) / 5 * 0.5
    assert r.score == pytest.approx(0.5 * 4 / 5)


def test_extra_selections_cannot_push_score_above_one():
    goal = dataclasses.replace(GOAL, options={"color": "navy blue"})
    product = other(title="Large Shirt")
    r = compute_reward(product, goal, {"color": "navy blue", "size": "large"})
    # the unasked size substring-matches the title: (2 + 2 + 1) / 4 in the original, capped at 1
    assert (r.n_opt, r.score) == (2, 1.0)
