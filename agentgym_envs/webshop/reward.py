"""WebShop's purchase reward, re-derived from the rules of the original ``get_reward``.

    score = r_type * (n_att + n_opt + r_price) / (|goal attributes| + |goal options| + 1)

- ``r_type`` (is it the right kind of product?): 1.0 when the bought product shares the goal's query
  subcategory, or at least 2 breadcrumb levels (as a set, order ignored), or more than 20% of the
  goal title's nouns; else 0.5. Then a noun overlap under 10% forces 0.1 and no overlap forces 0.0.
  A goal title without nouns scores a noun overlap of 0.2.
- ``n_att``: goal attributes matched, each either by a fuzzy token-set ratio > 85 against any
  product attribute or as a substring of the lower-cased title, bullet points (joined by spaces)
  or description.
- ``n_opt``: selected options that match. Every selected and every wanted value is first colour
  normalised (the first entry of ``COLOR_SET`` that is a substring of it, if any). A selected
  ``size`` must then equal a wanted value exactly; any other group needs a token-set ratio > 85
  with a wanted value (lenient: ``large`` vs ``x-large`` scores 100). An unmatched selection still
  counts when its value is a substring of the title, bullets or description.
- ``r_price``: 1 when the price is within the goal's bound. A goal without a bound counts the price
  as satisfied, as the original's (1,000,000-dollar) stand-in bound always was.

The fuzzy score is rapidfuzz's ``token_set_ratio`` with the original's preprocessing (ASCII only,
lower case, non-word characters to spaces) and rounded to an integer as thefuzz reports it, so
``> 85`` means a raw score of at least 85.5.

Deviations: our own colour list (below); type nouns come from ``Product.type_nouns`` stored at
generation time instead of a spaCy parse; the total is capped at 1.0 (the original can exceed 1
when extra, unasked-for selections substring-match the product text).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from rapidfuzz import fuzz

from agentgym_envs.webshop.schema import Goal, Product

FUZZY_THRESHOLD = 85
EXACT_MATCH_GROUPS = frozenset({"size"})
BREADCRUMB_SEPARATOR = "›"

#: Colour words in alphabetical order. Normalisation picks the FIRST entry that is a substring of
#: an option value, so "navy blue" -> "blue" and "light blue" -> "blue" (both match each other),
#: and plain substrings count ("hundred" contains "red"), as in the original rule. Modifiers such
#: as "dark" / "light" are deliberately not colours here.
COLOR_SET: tuple[str, ...] = (
    "amber", "apricot", "aqua", "azure", "beige", "black", "blue", "blush", "bronze", "brown",
    "burgundy", "camel", "camo", "caramel", "champagne", "charcoal", "cherry", "chestnut",
    "chocolate", "cinnamon", "clear", "cobalt", "coffee", "copper", "coral", "cream", "crimson",
    "cyan", "denim", "ebony", "emerald", "espresso", "fuchsia", "gold", "graphite", "gray", "green",
    "grey", "hazel", "indigo", "ivory", "jade", "khaki", "lavender", "lemon", "leopard", "lilac",
    "lime", "magenta", "mahogany", "maroon", "mauve", "mint", "mocha", "multicolor", "mustard",
    "navy", "nude", "oatmeal", "olive", "onyx", "orange", "peach", "pearl", "periwinkle", "pewter",
    "pink", "plum", "purple", "rainbow", "raspberry", "red", "rose", "ruby", "rust", "sage",
    "salmon", "sand", "sapphire", "scarlet", "silver", "slate", "smoke", "taupe", "teal",
    "turquoise", "vanilla", "violet", "walnut", "wheat", "white", "wine", "yellow",
)  # fmt: skip

_NON_WORD = re.compile(r"[^a-z0-9_]+")  # \W on ASCII text, as thefuzz's full_process


@dataclass(frozen=True)
class RewardBreakdown:
    """The reward and its parts, for logging and tests."""

    r_type: float
    r_att: float | None  # fraction of goal attributes matched (None: the goal has none)
    r_option: float | None  # fraction of goal options matched (None: the goal has none)
    r_price: bool
    score: float
    query_match: bool = False
    category_match: bool = False
    title_score: float = 0.0
    n_att: int = 0
    n_opt: int = 0


def normalize_color(value: str) -> str:
    """The first ``COLOR_SET`` entry that is a substring of ``value``; ``value`` itself if none."""
    for color in COLOR_SET:
        if color in value:
            return color
    return value


def _fuzzy_key(text: str) -> str:
    ascii_only = text.encode("ascii", "ignore").decode()
    return _NON_WORD.sub(" ", ascii_only.lower()).strip()


def fuzzy_match(a: str, b: str) -> bool:
    """The original's ``fuzz.token_set_ratio(a, b) > 85`` (integer-rounded, preprocessed)."""
    ka, kb = _fuzzy_key(a), _fuzzy_key(b)
    if not ka or not kb:
        return False
    return round(fuzz.token_set_ratio(ka, kb)) > FUZZY_THRESHOLD


def _in_product_text(phrase: str, product: Product) -> bool:
    return (
        phrase in product.title.lower()
        or phrase in " ".join(product.bullets).lower()
        or phrase in product.description.lower()
    )


def type_reward(product: Product, goal: Goal) -> tuple[float, bool, bool, float]:
    """(r_type, query_match, category_match, title_score)."""
    query_match = product.query == goal.query
    bought_levels = {
        level.strip() for level in product.product_category.split(BREADCRUMB_SEPARATOR)
    }
    goal_levels = {level.strip() for level in goal.product_category.split(BREADCRUMB_SEPARATOR)}
    category_match = len(bought_levels & goal_levels) >= 2
    if goal.type_nouns:
        shared = set(product.type_nouns) & set(goal.type_nouns)
        title_score = len(shared) / len(goal.type_nouns)
    else:
        title_score = 0.2
    r_type = 1.0 if (query_match or category_match or title_score > 0.2) else 0.5
    if title_score < 0.1:
        r_type = 0.1
    if title_score == 0.0:
        r_type = 0.0
    return r_type, query_match, category_match, title_score


def attribute_matches(product: Product, goal: Goal) -> int:
    """How many goal attributes the product has (fuzzy attribute match or text substring)."""
    matches = 0
    for wanted in goal.attributes:
        if any(fuzzy_match(have, wanted) for have in product.attributes) or _in_product_text(
            wanted, product
        ):
            matches += 1
    return matches


def option_matches(product: Product, goal: Goal, selected: Mapping[str, str]) -> int:
    """How many selected options match a wanted value (see the module docstring)."""
    wanted = [normalize_color(value) for value in goal.options.values()]
    matches = 0
    for group, value in selected.items():
        value = normalize_color(value)
        if group.lower() in EXACT_MATCH_GROUPS:
            matched = value in wanted
        else:
            matched = any(fuzzy_match(w, value) for w in wanted)
        if matched or _in_product_text(value, product):
            matches += 1
    return matches


def compute_reward(
    product: Product, goal: Goal, selected_options: Mapping[str, str], price: float | None = None
) -> RewardBreakdown:
    """Score buying ``product`` with ``selected_options`` (group -> value) against ``goal``.

    ``price`` defaults to ``product.price`` (the price the item page showed).
    """
    price = product.price if price is None else price
    r_type, query_match, category_match, title_score = type_reward(product, goal)
    n_att = attribute_matches(product, goal)
    n_opt = option_matches(product, goal, selected_options)
    r_price = goal.price_upper is None or price <= goal.price_upper
    denominator = len(goal.attributes) + len(goal.options) + 1
    score = min(1.0, (n_att + n_opt + int(r_price)) / denominator * r_type)  # original's order
    return RewardBreakdown(
        r_type=r_type,
        r_att=n_att / len(goal.attributes) if goal.attributes else None,
        r_option=n_opt / len(goal.options) if goal.options else None,
        r_price=r_price,
        score=score,
        query_match=query_match,
        category_match=category_match,
        title_score=title_score,
        n_att=n_att,
        n_opt=n_opt,
    )
