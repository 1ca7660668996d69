"""Deterministic product generator: the vocabulary in ``vocab`` turned into realistic listings.

Products come in *clusters*. Cluster ``k`` draws everything from ``random.Random(seed * 2**32 + k)``
(Python's Mersenne Twister, seeded from an int: the same stream on every machine and version), so
the first N products of a bigger catalog equal a catalog of N products. A cluster is one *anchor*
product plus 0-3 *near-miss siblings*: same subcategory and head noun, mostly the same attributes
and option groups, another (or the same) brand, and a price just above one of the price bounds a
goal on the anchor can get (the next multiples of 10 above the anchor's price).

A product's attributes come from its own subcategory's list (things such a product has); its title
is shaped like a real listing and its bullets and description state its own attributes and option
values (``product_text``). Each attribute is always in the attribute list; where it also shows up
in the text is drawn per attribute: the title, the first bullet, a later bullet, the description,
or nowhere (attribute list only). A *keyword-rich* listing (``RICH_LISTING_SHARE``) puts nearly all
of its attributes in title / first bullet / description; a *sparse* one (longer, generic
description) nearly none. Title, description, first bullet and options are what the search index
covers, so this split is the main knob of search difficulty: it makes the target's rank for a
search of the instruction bimodal (rank 1 or beyond 50), as the original's was. The constants below
were tuned with ``python -m agentgym_envs.webshop.calibrate`` (figures in its docstring).
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass

from agentgym_envs.webshop import product_text as text
from agentgym_envs.webshop.schema import Product
from agentgym_envs.webshop.title_nouns import title_nouns
from agentgym_envs.webshop.vocab import OPTION_POOLS, SUBCATEGORIES, Subcategory

ASIN_SPACE = 36**8
_ASIN_MULTIPLIER = 2_654_435_761  # prime, coprime to 36: i -> asin is a bijection
_BASE36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

#: How many attributes a product has (mean 2.8, as in the original).
ATTRIBUTE_COUNTS = ((1, 0.12), (2, 0.28), (3, 0.32), (4, 0.2), (5, 0.08))
#: Where an attribute's phrase appears besides the attribute list: keyword-rich listings put
#: most attributes in searchable text, sparse ones mostly in later bullets or the list only.
RICH_LISTING_SHARE = 0.33
RICH_PLACEMENT = (
    ("title", 0.5),
    ("bullet0", 0.2),
    ("description", 0.27),
    ("bullet", 0.02),
    ("list", 0.01),
)
SPARSE_PLACEMENT = (("title", 0.01), ("bullet0", 0.01), ("description", 0.01), ("bullet", 0.37),
                    ("list", 0.60))  # fmt: skip
#: Share of products without options; the others offer every option group of their subcategory.
OPTIONLESS_SHARE = 0.18
#: Extra near-miss siblings per cluster.
SIBLING_COUNTS = ((0, 0.66), (1, 0.16), (2, 0.11), (3, 0.07))
RANGE_PRICE_SHARE = 0.2
PREMIUM_SHARE = 0.25
BRANDS_PER_SUBCATEGORY = 80
#: How far above a multiple of 10 a near-miss sibling is priced.
JUST_ABOVE = (0.49, 0.95, 0.99, 1.49, 1.99, 2.49, 2.99, 3.99, 4.99)


@dataclass(frozen=True)
class Generated:
    """One product plus what goal selection needs to know about it without decoding it."""

    product: Product
    subcategory: int
    cluster: int
    siblings: int  # near-miss products in its cluster besides itself (last cluster may be cut)
    is_anchor: bool


def asin_for(index: int, seed: int) -> str:
    """The ASIN of catalog row ``index``: "B0" + 8 base-36 digits, unique per catalog."""
    value = (index * _ASIN_MULTIPLIER + seed * 7_919 + 104_729) % ASIN_SPACE
    digits = []
    for _ in range(8):
        value, digit = divmod(value, 36)
        digits.append(_BASE36[digit])
    return "B0" + "".join(reversed(digits))


def weighted_choice(rng: random.Random, table: tuple[tuple[object, float], ...]) -> object:
    """One value of ``table`` ((value, weight), ...) drawn by weight with a single ``random()``."""
    point = rng.random() * sum(w for _, w in table)
    for value, weight in table:
        point -= weight
        if point < 0:
            return value
    return table[-1][0]


def _subcategory_weights() -> list[float]:
    """Fixed popularity per subcategory (1.0-3.0), so some queries are more crowded than others."""
    return [1.0 + ((s.index * 37) % 11) / 5 for s in SUBCATEGORIES]


_SUBCATEGORY_CUMULATIVE = list(itertools.accumulate(_subcategory_weights()))


def _pick_subcategory(rng: random.Random) -> Subcategory:
    point = rng.random() * _SUBCATEGORY_CUMULATIVE[-1]
    index = bisect.bisect_right(_SUBCATEGORY_CUMULATIVE, point)
    return SUBCATEGORIES[min(index, len(SUBCATEGORIES) - 1)]


def _round_price(value: float, rng: random.Random) -> float:
    cents = rng.choice((0.99, 0.99, 0.95, 0.49, 0.0, 0.89))
    return round(max(1.0, float(int(value))) + cents, 2)


def _draw_price(sub: Subcategory, rng: random.Random) -> tuple[float, ...]:
    low, high = sub.price_range
    if rng.random() < PREMIUM_SHARE:  # a heavy upper tail, as real listings have
        low, high = high, high * 3
    base = _round_price(low * (high / low) ** rng.random(), rng)
    if rng.random() < RANGE_PRICE_SHARE:
        return (base, round(base * (1.1 + 0.7 * rng.random()), 2))
    return (base,)


def _shown_price(pricing: tuple[float, ...], rng: random.Random) -> float:
    if len(pricing) == 1:
        return pricing[0]
    return round(pricing[0] + (pricing[1] - pricing[0]) * rng.random(), 2)


def _draw_options(sub: Subcategory, rng: random.Random) -> dict[str, tuple[str, ...]]:
    if rng.random() < OPTIONLESS_SHARE:
        return {}
    options = {}
    for name, pool_name in sub.option_groups:
        pool = OPTION_POOLS[pool_name]
        count = min(len(pool), 3 + int(rng.random() * 8))
        chosen = set(rng.sample(range(len(pool)), count))
        options[name] = tuple(pool[i] for i in sorted(chosen))
    return options


def _draw_attributes(sub: Subcategory, rng: random.Random, count: int) -> list[str]:
    chosen: list[str] = []
    while len(chosen) < count:
        candidate = rng.choice(sub.attributes)
        if candidate not in chosen:
            chosen.append(candidate)
    return chosen


def _draw_placements(attributes: list[str], rng: random.Random) -> tuple[bool, dict[str, str]]:
    """(rich listing?, attribute -> where its phrase appears)."""
    rich = rng.random() < RICH_LISTING_SHARE
    table = RICH_PLACEMENT if rich else SPARSE_PLACEMENT
    return rich, {a: str(weighted_choice(rng, table)) for a in attributes}


@dataclass
class _Draft:
    """An anchor's choices, reused (partly) by its siblings."""

    sub: Subcategory
    noun: str
    brand: str
    attributes: list[str]
    rich: bool  # keyword-rich listing (attributes in searchable text) or sparse (long, generic)
    placements: dict[str, str]
    options: dict[str, tuple[str, ...]]
    pricing: tuple[float, ...]


def _anchor_draft(rng: random.Random) -> _Draft:
    sub = _pick_subcategory(rng)
    noun = sub.nouns[0] if rng.random() < 0.45 else rng.choice(sub.nouns)
    attributes = _draw_attributes(sub, rng, int(weighted_choice(rng, ATTRIBUTE_COUNTS)))
    rich, placements = _draw_placements(attributes, rng)
    return _Draft(
        sub=sub,
        noun=noun,
        brand=text.brand_name(sub.index, int(BRANDS_PER_SUBCATEGORY * rng.random() ** 1.6)),
        attributes=attributes,
        rich=rich,
        placements=placements,
        options=_draw_options(sub, rng),
        pricing=_draw_price(sub, rng),
    )


def _sibling_draft(anchor: _Draft, anchor_price: float, rng: random.Random) -> _Draft:
    sub = anchor.sub
    attributes = list(anchor.attributes)
    for i in range(len(attributes)):
        if rng.random() < 0.3:
            replacement = _draw_attributes(sub, rng, 1)[0]
            if replacement not in attributes:
                attributes[i] = replacement
    options: dict[str, tuple[str, ...]] = {}
    for name, pool_name in sub.option_groups:
        if name not in anchor.options:
            continue
        pool = OPTION_POOLS[pool_name]
        kept = {v for v in anchor.options[name] if rng.random() < 0.75}
        kept.update(rng.sample(pool, min(len(pool), rng.randrange(1, 4))))
        options[name] = tuple(v for v in pool if v in kept)
    first_bound = (int(anchor_price // 10) + 1) * 10.0
    price = first_bound + 10.0 * rng.randrange(0, 3) + rng.choice(JUST_ABOVE)
    same_brand = rng.random() < 0.3
    rich, placements = _draw_placements(attributes, rng)
    return _Draft(
        sub=sub,
        noun=anchor.noun,
        brand=anchor.brand
        if same_brand
        else text.brand_name(sub.index, rng.randrange(BRANDS_PER_SUBCATEGORY)),
        attributes=attributes,
        rich=rich,
        placements=placements,
        options=options,
        pricing=(round(price, 2),),
    )


def _realize(draft: _Draft, asin: str, rng: random.Random) -> Product:
    sub = draft.sub
    where = draft.placements
    in_title = [a for a in draft.attributes if where[a] == "title"]
    title = text.title(draft.brand, draft.noun, sub, in_title, draft.options, rng)
    bullets = text.bullets(
        draft.noun,
        draft.brand,
        sub.top,
        first=[a for a in draft.attributes if where[a] == "bullet0"],
        later=[a for a in draft.attributes if where[a] == "bullet"],
        options=draft.options,
        rng=rng,
    )
    in_description = [a for a in draft.attributes if where[a] == "description"]
    description = text.description(
        draft.noun,
        draft.brand,
        sub.top,
        in_description,
        draft.options,
        rng,
        generic=1 if draft.rich else 3,
    )
    return Product(
        asin=asin,
        title=title,
        category=sub.top,
        query=sub.query,
        product_category=sub.product_category,
        bullets=tuple(bullets),
        description=description,
        pricing=draft.pricing,
        price=_shown_price(draft.pricing, rng),
        options=dict(draft.options),
        attributes=tuple(draft.attributes),
        type_nouns=title_nouns(title),
    )


def generate(num_products: int, seed: int) -> Iterator[Generated]:
    """Yield ``num_products`` products in catalog order, cluster by cluster."""
    if num_products < 1:
        raise ValueError(f"num_products must be at least 1, got {num_products}")
    index = 0
    cluster = 0
    while index < num_products:
        rng = random.Random(seed * 2**32 + cluster)
        anchor = _anchor_draft(rng)
        siblings = int(weighted_choice(rng, SIBLING_COUNTS))
        anchor_product = _realize(anchor, asin_for(index, seed), rng)
        drafts = [_sibling_draft(anchor, anchor_product.price, rng) for _ in range(siblings)]
        products = [anchor_product]
        for offset, draft in enumerate(drafts, start=1):
            products.append(_realize(draft, asin_for(index + offset, seed), rng))
        for position, product in enumerate(products):
            if index >= num_products:
                return
            yield Generated(
                product=product,
                subcategory=anchor.sub.index,
                cluster=cluster,
                siblings=siblings,
                is_anchor=position == 0,
            )
            index += 1
        cluster += 1
