"""Listing text for generated products: invented brand names, titles, bullet points, descriptions.

All sentences are templates written for AgentGym. Generic sentences avoid the words instructions
use ("looking", "price", "dollars", "lower"), so the search engine ranks on product words only.
Title nouns (``Product.type_nouns``) are recorded while the title is assembled, standing in for
the original's spaCy parse: brand words, the head noun phrase's nouns, and the nouns of the
"for ..." phrase.
"""

from __future__ import annotations

import functools
import random

from agentgym_envs.webshop.vocab import AUDIENCE_NOUNS, Subcategory

# fmt: off
_ONSETS = (
    "b", "br", "c", "cl", "d", "dr", "f", "fl", "g", "gl", "gr", "h", "j", "k", "kl", "l", "m",
    "n", "p", "pl", "pr", "qu", "r", "s", "sk", "st", "t", "tr", "v", "w", "z", "sh", "ch",
)
# fmt: on
_VOWELS = ("a", "e", "i", "o", "u", "a", "e", "o", "ai", "ea", "io", "ou", "y")
_CODAS = ("", "", "n", "r", "x", "l", "s", "m", "th", "ck", "nd", "rt", "v")
_SUFFIXES = ("", "", "", "", "a", "o", "ix", "ex", "ly", "io", "ora", "ani")
_BRAND_TAILS = ("", "", "", "", "", " Co", " Labs", " Home", " Life", " Studio", " Goods")

#: Words of head nouns and "for ..." phrases that a POS tagger would not call nouns.
# fmt: off
NON_NOUNS = frozenset((
    "a", "an", "and", "the", "for", "of", "with", "all", "daily", "casual", "small", "wireless",
    "portable", "smart", "digital", "external", "electric", "protective", "mechanical",
    "sparkling", "herbal", "instant", "whole", "ground", "mixed", "sour", "liquid", "upholstered",
    "ergonomic", "outdoor", "l-shaped", "standing", "skinny", "high", "full", "over-ear", "in-ear",
    "true", "raw", "smoked", "canned", "powdered", "green", "black", "dark", "brown", "shelf",
    "stable", "extra", "semi", "permanent", "sensitive", "every", "live", "living", "4", "6",
    "over", "under", "flip", "on", "one",
))
# fmt: on

DESCRIPTORS: dict[str, tuple[str, ...]] = {
    "beauty": ("Professional", "Gentle", "Luxury", "Daily", "Salon Quality", "Ultra", "Pure"),
    "electronics": ("Upgraded", "2024 New", "Ultra Slim", "Portable", "Pro", "Smart", "Compact"),
    "fashion": ("Classic", "Casual", "Vintage", "Modern", "Stylish", "Premium", "Essential"),
    "food": ("Gourmet", "Premium", "Classic", "Artisan", "Family Size", "Snack Size", "Original"),
    "furniture": ("Modern", "Rustic", "Farmhouse", "Industrial", "Scandinavian", "Minimalist"),
}
FOR_PHRASES: dict[str, tuple[str, ...]] = {
    "beauty": ("for Women", "for Men", "for Women and Men", "for All Skin Types", "for Home Spa"),
    "electronics": ("for Home Office", "for Travel", "for Gaming", "for Laptop and PC", "for Kids"),
    "fashion": ("for Work", "for Casual Daily Wear", "for Vacation", "for Party", "for Teens"),
    "food": ("for Snacking", "for Kids and Adults", "for Breakfast", "for Office Pantry",
             "for Family Gatherings"),
    "furniture": ("for Living Room", "for Bedroom", "for Small Spaces", "for Apartment",
                  "for Entryway"),
}  # fmt: skip
GENERIC_BULLETS: dict[str, tuple[str, ...]] = {
    "beauty": (
        "GENTLE EVERY DAY: the {noun} work{s} into your morning and evening routine without fuss.",
        "MADE TO SHARE: a thoughtful pick for birthdays, holidays and self care days.",
        "SALON RESULTS AT HOME: {brand} formulas are developed with professional stylists.",
        "WHAT YOU GET: one {noun} and our friendly customer support team.",
        "CLEAN LOOK: a soft texture that leaves skin and hair feeling refreshed.",
    ),
    "electronics": (
        "BROAD COMPATIBILITY: the {noun} work{s} with most phones, tablets and computers.",
        "WHAT YOU GET: {noun}, user manual, and 18 month worry free warranty from {brand}.",
        "STABLE CONNECTION: engineered to keep a steady signal through the day.",
        "SIMPLE SETUP: ready in minutes, no extra software required.",
        "DURABLE BUILD: tested through thousands of cycles in the {brand} lab.",
    ),
    "fashion": (
        "OCCASIONS: great for office, weekends, travel, dates and holidays.",
        "SIZE NOTE: please check the size chart in the images before ordering.",
        "STYLE IT: pair the {noun} with jeans, chinos or your favourite sneakers.",
        "CARE: wash with similar colors, do not bleach.",
        "{brand} QUALITY: every seam is checked before the {noun} leave{s} our workshop.",
    ),
    "food": (
        "SHARE THE GOODNESS: the {noun} {is} a favourite for lunch boxes and road trips.",
        "FRESHNESS SEALED: packed right after production to keep the taste.",
        "SIMPLE PANTRY: made by {brand} in small batches with ingredients you can read.",
        "STORAGE: keep in a cool, dry place and enjoy within a few weeks of opening.",
        "FAMILY FAVOURITE: a snack and pantry staple loved by kids and grown ups.",
    ),
    "furniture": (
        "STURDY SUPPORT: the {noun} hold{s} everyday loads without wobbling.",
        "WHAT YOU GET: all hardware, tools and a step by step manual from {brand}.",
        "TIMELESS LOOK: clean lines that blend with many decor styles.",
        "EASY CARE: wipe with a damp cloth to keep the surface fresh.",
        "SERVICE: questions about your {noun}? the {brand} team answers within 24 hours.",
    ),
}
ATTRIBUTE_BULLETS = (
    "{ATTR}: our {noun} {is} made with {attr} in mind, so {it} fit{s} right into your routine.",
    "{ATTR} - every {brand} {noun} {is} built around {attr} and checked before shipping.",
    "WHY {ATTR}: customers told us {attr} matters, so it is standard on {this} {noun}.",
    "{ATTR} & MORE: {attr} plus the details you expect from {brand}.",
)
OPENERS = (
    "The {brand} {noun} {is} designed for people who want something that simply works.",
    "Meet the {noun} from {brand}, made for everyday use.",
    "{brand} has been making the {noun} for years, and this edition is our most popular one.",
    "Upgrade your routine with {this} {noun} by {brand}.",
)
ATTRIBUTE_SENTENCES = (
    "Highlights include {attr}.",
    "It is made with {attr} as a priority.",
    "You also get {attr}, which our customers love.",
    "Expect {attr} from the very first day.",
)
CLOSERS = (
    "Order today and see why so many customers come back to {brand}.",
    "Backed by our 30 day return policy.",
    "Thank you for choosing {brand}.",
    "A thoughtful gift for friends and family.",
    "",
)


#: Words titles spell in capitals.
ACRONYMS = frozenset(("tv", "usb", "led", "hdmi", "hd", "uv", "spf", "rgb", "ssd", "gps", "bpa"))


def _capitalize(phrase: str) -> str:
    return " ".join(w.upper() if w in ACRONYMS else w[:1].upper() + w[1:] for w in phrase.split())


@functools.lru_cache(maxsize=20_000)
def brand_name(subcategory: int, number: int) -> str:
    """The ``number``-th invented brand selling in ``subcategory`` (pure function of both)."""
    rng = random.Random(7_000_003 * (subcategory + 1) + number)
    syllables = 2 if rng.random() < 0.75 else 1
    word = "".join(
        rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS) for _ in range(syllables)
    ) + rng.choice(_SUFFIXES)
    name = word.upper() if rng.random() < 0.2 else word.capitalize()
    return name + rng.choice(_BRAND_TAILS)


def _nouns_of(phrase: str) -> list[str]:
    nouns = []
    for word in phrase.lower().replace(",", " ").split():
        word = AUDIENCE_NOUNS.get(word, word)
        if word not in NON_NOUNS and not word.isdigit():
            nouns.append(word)
    return nouns


def title(
    brand: str, noun: str, sub: Subcategory, attributes: list[str], rng: random.Random
) -> tuple[str, tuple[str, ...]]:
    """The product title and its nouns (type nouns), lower-case, in order, without repeats."""
    parts = [brand]
    if rng.random() < 0.4:
        parts.append(rng.choice(DESCRIPTORS[sub.top]))
    audience, _, rest = noun.partition(" ")
    if audience in AUDIENCE_NOUNS:
        parts.append(_capitalize(audience))
        head = rest
    else:
        head = noun
    parts.extend(_capitalize(a) for a in attributes)
    parts.append(_capitalize(head))
    for_phrase = rng.choice(FOR_PHRASES[sub.top]) if rng.random() < 0.5 else ""
    if for_phrase:
        parts.append(for_phrase)
    text = " ".join(parts)
    if rng.random() < 0.35:
        text += ", " + _capitalize(rng.choice(sub.nouns))
    nouns: list[str] = []
    for word in _nouns_of(brand) + _nouns_of(noun) + _nouns_of(for_phrase):
        if word not in nouns:
            nouns.append(word)
    return text, tuple(nouns)


def _fill(template: str, noun: str, brand: str, attr: str = "") -> str:
    plural = noun.endswith("s") and not noun.endswith("ss")
    return template.format(
        noun=noun,
        brand=brand,
        attr=attr,
        ATTR=attr.upper(),
        **({"is": "are", "s": "", "it": "they", "this": "these"} if plural else
           {"is": "is", "s": "s", "it": "it", "this": "this"}),
    )  # fmt: skip


def bullets(
    noun: str, brand: str, top: str, first: list[str], later: list[str], rng: random.Random
) -> list[str]:
    """3-5 "About this item" bullets; ``first`` attributes go in bullet 1, ``later`` after it."""
    generic = list(GENERIC_BULLETS[top])
    rng.shuffle(generic)
    result = []
    if first:
        joined = " and ".join(first)
        result.append(_fill(rng.choice(ATTRIBUTE_BULLETS), noun, brand, joined))
    else:
        result.append(_fill(generic.pop(), noun, brand))
    for attr in later:
        result.append(_fill(rng.choice(ATTRIBUTE_BULLETS), noun, brand, attr))
    while len(result) < 3 + rng.randrange(3) and generic:
        result.append(_fill(generic.pop(), noun, brand))
    return result


def description(
    noun: str, brand: str, top: str, attributes: list[str], rng: random.Random, generic: int = 1
) -> str:
    """A paragraph: opener, attribute sentences, ``generic`` stock lines, closer."""
    sentences = [_fill(rng.choice(OPENERS), noun, brand)]
    sentences += [_fill(rng.choice(ATTRIBUTE_SENTENCES), noun, brand, a) for a in attributes]
    for line in rng.sample(GENERIC_BULLETS[top], generic):
        filled = _fill(line.split(": ", 1)[-1], noun, brand)
        sentences.append(filled[:1].upper() + filled[1:])
    sentences.append(_fill(rng.choice(CLOSERS), noun, brand))
    return " ".join(s for s in sentences if s)
