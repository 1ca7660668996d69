"""WebShop reward: every branch of the original's rules against hand-computed values."""

from __future__ import annotations

import dataclasses

import pytest

from agentgym_envs.webshop.reward import (
    COLOR_SET,
    _fuzzy_key,
    compute_reward,
    fuzzy_match,
    normalize_color,
    token_set_ratio,
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
def test_color_normalisation_first_substring_in_the_originals_order():
    assert COLOR_SET[:4] == ("alabaster", "apricot", "aqua", "ash") and len(COLOR_SET) == 102
    assert normalize_color("navy blue") == "blue"  # "blue" precedes "navy"
    assert normalize_color("light pink") == "light"  # "light" precedes "pink"
    assert normalize_color("dark wash") == "ash"  # a plain substring counts
    assert normalize_color("standard") == "tan"
    assert normalize_color("x-large") == "x-large"  # no colour: unchanged


def test_fuzzy_preprocessing_drops_latin1_and_splits_on_other_symbols():
    assert _fuzzy_key("Women\u2019s Caf\u00e9 \u00d7 2") == "women s caf  2"
    assert fuzzy_match("CAF\u00c9", "caf")


def test_option_colour_normalisation_makes_shades_match():
    bare = other(title="Shirt", bullets=(), description="", attributes=("slim fit", "machine wash"))
    r = compute_reward(bare, GOAL, {"color": "royal blue", "size": "x-large"})
    assert r.n_opt == 2 and r.score == 1.0  # blue == blue


def test_option_wrong_colour_does_not_match():
    bare = other(title="Shirt", bullets=(), description="", attributes=("slim fit", "machine wash"))
    r = compute_reward(bare, GOAL, {"color": "white", "size": "x-large"})
    assert (r.n_opt, r.score) == (1, pytest.approx(4 / 5))


def test_every_group_is_fuzzy_and_groups_do_not_matter():
    bare = other(title="Shirt", bullets=(), description="", attributes=("slim fit", "machine wash"))
    # token-set("large", "x-large") = 100: a large meets a wanted x-large, in any group
    r = compute_reward(bare, GOAL, {"color": "navy blue", "fit": "large"})
    assert (r.n_opt, r.score) == (2, 1.0)
    goal = dataclasses.replace(GOAL, options={"size": "24 ounce"})
    r = compute_reward(bare, goal, {"size": "1 ounce (pack of 24)"})  # {24, ounce} in both
    assert (r.n_opt, r.score) == (1, 1.0)
    r = compute_reward(bare, goal, {"size": "2 ounce"})  # "ounce 24" vs "ounce 2": 93
    assert r.n_opt == 1
    r = compute_reward(bare, goal, {"size": "12 fl oz"})
    assert (r.n_opt, r.score) == (0, pytest.approx(3 / 4))


def test_unmatched_option_never_counts_through_the_product_text():
    product = other(attributes=("slim fit", "machine wash"), title="Large Shirt")
    goal = dataclasses.replace(GOAL, options={"size": "small"})
    r = compute_reward(product, goal, {"size": "large"})  # "small" is not in the title
    assert r.n_opt == 0
    goal = dataclasses.replace(GOAL, options={"color": "red", "size": "x-large"})
    r = compute_reward(other(title="Upholstered Shirt"), goal, {"size": "x-large"})
    assert r.n_opt == 1  # the title's "upholstered" holds "red" but is not a selection


def test_no_selection_scores_only_attributes_and_price():
    r = compute_reward(SHIRT, GOAL, {})
    assert (r.n_opt, r.r_option, r.score) == (0, 0.0, pytest.approx(3 / 5))


def test_each_wanted_value_counts_once_and_extras_add_nothing():
    goal = dataclasses.replace(GOAL, options={"color": "navy blue"})
    r = compute_reward(SHIRT, goal, {"color": "navy blue", "size": "large", "fit": "blue"})
    assert (r.n_opt, r.score) == (1, 1.0)  # (2 attributes + 1 option + price) / 4
    goal = dataclasses.replace(GOAL, options={"color": "blue", "trim": "blue"})
    r = compute_reward(SHIRT, goal, {"color": "navy blue"})  # one selection meets both
    assert r.n_opt == 2


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


def test_fuzzy_score_is_the_pinned_thefuzz_difflib_one():
    """The original pins thefuzz 0.19.0 without python-Levenshtein: difflib's ratio, which is
    below a Levenshtein ratio here (80 vs 86), so this pair does not match in the original."""
    key = _fuzzy_key("BREATHABLE\u2019 LIN\u00c9\u2013ING")
    assert key == "breathable  lin ing"
    assert token_set_ratio("breathable lining", key) == 80
    assert not fuzzy_match("breathable lining", "BREATHABLE\u2019 LIN\u00c9\u2013ING")
    assert token_set_ratio("large", "x large") == 100  # tokens shared: the lenient match
    assert token_set_ratio("", "x") == 0
