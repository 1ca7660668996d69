"""WebShop's purchase reward: the original ``get_reward`` rule for rule, checked against it.

    score = r_type * (n_att + n_opt + r_price) / (|goal attributes| + |goal options| + 1)

- ``r_type`` (is it the right kind of product?): 1.0 when the bought product shares the goal's query
  subcategory, or at least 2 breadcrumb levels (as a set, order ignored), or more than 20% of the
  goal title's nouns; else 0.5. Then a noun overlap under 10% forces 0.1 and no overlap forces 0.0.
  The overlap is |set(bought nouns) & set(goal nouns)| / len(goal nouns) (a noun repeated in the
  goal title counts twice below the line, as the original's token list does); a goal title
  without nouns scores 0.2.
- ``n_att``: goal attributes matched, each either by a fuzzy token-set ratio > 85 against any
  product attribute or as a substring of the lower-cased title, bullet points (joined by spaces)
  or description.
- ``n_opt``: wanted option values matched. Wanted and selected values are colour normalised (the
  first entry of ``COLOR_SET`` that is a substring of the value, if any); a wanted value counts
  once when any selected value has a token-set ratio > 85 with it. Option groups play no part
  (a selected "large" size meets a wanted "x-large": their token-set ratio is 100), unasked
  selections cannot add anything, and nothing is looked up in the product text.
- ``r_price``: 1 when the price is within the goal's bound. A goal without a bound counts the price
  as satisfied, as the original's 1,000,000-dollar stand-in bound always is.

The fuzzy score is thefuzz's ``token_set_ratio`` as the original's pinned install computes it
(thefuzz 0.19.0 alone, without python-Levenshtein, so its ratio is difflib's
``SequenceMatcher``): characters U+0080-U+00FF dropped, non-word characters to spaces, lower
case, stripped; the best of the three token-set comparisons, each ratio rounded to an integer,
so ``> 85`` means at least 86. A Levenshtein ratio (rapidfuzz, or thefuzz with
python-Levenshtein) differs on rare inputs: "breathable lining" against "BREATHABLE’ LINÉ–ING"
scores 80 with difflib and 86 with Levenshtein (1 of a fresh draw of 10,000 golden cases).

Checked against the original's own functions (princeton-nlp/WebShop 64fa2a5,
``web_agent_site/engine/goal.py``) on the golden cases in tests/webshop/reward_golden: identical
on every one. Deviations: goal options are the wanted values (the layout of the original's human
goals; the dict we keep only names their groups for the instruction). The original, given a
dict of options (its synthetic goals), fuzzy-matches the ``(group, value)`` tuples of
``.items()`` instead of the values; that is a bug of the original and is not reproduced. Type
nouns come from ``Product.type_nouns``, found at catalog build time by ``title_nouns`` (spaCy's
parse replayed from a distilled lexicon; ``r_type`` identical to spaCy's in 99.8% of purchases,
see that module) instead of a spaCy parse of both titles at every purchase.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from difflib import SequenceMatcher

from agentgym_envs.webshop.schema import Goal, Product

FUZZY_THRESHOLD = 85
BREADCRUMB_SEPARATOR = "›"

#: The original's colour words, in its order (``normalize.COLOR_SET``): normalisation picks the
#: FIRST entry that is a substring of a value, so "navy blue" -> "blue", "light grey" -> "light",
#: "dark wash" -> "ash", and plain substrings count ("standard" contains "tan").
COLOR_SET: tuple[str, ...] = (
    "alabaster", "apricot", "aqua", "ash", "asphalt", "azure", "banana", "beige", "black", "blue",
    "blush", "bordeaux", "bronze", "brown", "burgundy", "camel", "camo", "caramel", "champagne",
    "charcoal", "cheetah", "chestnut", "chocolate", "christmas", "coffee", "cognac", "copper",
    "coral", "cranberry", "cream", "crystal", "dark", "denim", "eggplant", "elephant", "espresso",
    "fuchsia", "gold", "granite", "grape", "graphite", "grass", "gray", "green", "grey",
    "heather", "indigo", "ivory", "ivy", "khaki", "lavender", "lemon", "leopard", "light",
    "lilac", "lime", "magenta", "maroon", "mauve", "merlot", "midnight", "mint", "mocha",
    "multicolor", "mushroom", "mustard", "natural", "navy", "nude", "olive", "orange", "peach",
    "pewter", "pink", "plum", "purple", "rainbow", "red", "rose", "royal", "rust", "sand",
    "sapphire", "seashell", "silver", "skull", "slate", "steel", "stone", "stonewash",
    "sunflower", "tan", "taupe", "teal", "tiger", "turquoise", "violet", "walnut", "wheat",
    "white", "wine", "yellow",
)  # fmt: skip

_LATIN1 = {code: None for code in range(0x80, 0x100)}  # thefuzz's "ascii dammit" table
_NON_WORD = re.compile(r"\W", re.UNICODE | re.IGNORECASE)


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
    """thefuzz's ``full_process(text, force_ascii=True)``."""
    return _NON_WORD.sub(" ", text.translate(_LATIN1)).lower().strip()


def _ratio(a: str, b: str) -> int:
    """thefuzz 0.19's ``fuzz.ratio`` on its difflib fallback: 0 for an empty side."""
    if not a or not b:
        return 0
    return round(100 * SequenceMatcher(None, a, b).ratio())


def token_set_ratio(a: str, b: str) -> int:
    """thefuzz 0.19's ``fuzz.token_set_ratio`` of two preprocessed strings: the shared tokens
    (sorted) against each side's shared + own tokens, and those two against each other."""
    tokens_a, tokens_b = set(a.split()), set(b.split())
    shared = " ".join(sorted(tokens_a & tokens_b))
    side_a = (shared + " " + " ".join(sorted(tokens_a - tokens_b))).strip()
    side_b = (shared + " " + " ".join(sorted(tokens_b - tokens_a))).strip()
    return max(_ratio(shared, side_a), _ratio(shared, side_b), _ratio(side_a, side_b))


def fuzzy_match(a: str, b: str) -> bool:
    """The original's ``fuzz.token_set_ratio(a, b) > 85`` (preprocessed as thefuzz does)."""
    ka, kb = _fuzzy_key(a), _fuzzy_key(b)
    if not ka or not kb:
        return False
    return token_set_ratio(ka, kb) > FUZZY_THRESHOLD


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


def _in_product_text(phrase: str, product: Product) -> bool:
    return (
        phrase in product.title.lower()
        or phrase in " ".join(product.bullets).lower()
        or phrase in product.description.lower()
    )


def attribute_matches(product: Product, goal: Goal) -> int:
    """How many goal attributes the product has (fuzzy attribute match or text substring)."""
    return sum(
        any(fuzzy_match(have, wanted) for have in product.attributes)
        or _in_product_text(wanted, product)
        for wanted in goal.attributes
    )


def option_matches(goal: Goal, selected: Mapping[str, str]) -> int:
    """How many wanted option values some selected value meets (see the module docstring)."""
    chosen = [normalize_color(value) for value in selected.values()]
    wanted = [normalize_color(value) for value in goal.options.values()]
    return sum(any(fuzzy_match(have, want) for have in chosen) for want in wanted)


def compute_reward(
    product: Product, goal: Goal, selected_options: Mapping[str, str], price: float | None = None
) -> RewardBreakdown:
    """Score buying ``product`` with ``selected_options`` (group -> value) against ``goal``.

    ``price`` defaults to ``product.price`` (the price the item page showed).
    """
    price = product.price if price is None else price
    r_type, query_match, category_match, title_score = type_reward(product, goal)
    n_att = attribute_matches(product, goal)
    n_opt = option_matches(goal, selected_options)
    r_price = goal.price_upper is None or price <= goal.price_upper
    denominator = len(goal.attributes) + len(goal.options) + 1
    score = (n_att + n_opt + int(r_price)) / denominator * r_type  # the original's order
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
