"""Listing text for generated products: invented brand names, titles, bullet points, descriptions.

All sentences are templates written for AgentGym. Generic sentences avoid the words instructions
use ("looking", "price", "dollars", "lower"), so the search engine ranks on product words only.
Title nouns (``Product.type_nouns``) are not made here: ``title_nouns`` finds them in the
finished title as the original's spaCy parse would.
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

#: Title words that fit every product of a top category.
DESCRIPTORS: dict[str, tuple[str, ...]] = {
    "beauty": ("Professional", "Gentle", "Luxury", "Daily", "Ultra", "Pure", "Advanced"),
    "electronics": ("Upgraded", "2024 New", "Pro", "Premium", "Latest Model", "Smart"),
    "fashion": ("Classic", "Casual", "Vintage", "Modern", "Stylish", "Premium", "Essential"),
    "food": ("Gourmet", "Premium", "Classic", "Artisan", "Original", "Organic Farms"),
    "furniture": ("Modern", "Rustic", "Farmhouse", "Industrial", "Scandinavian", "Minimalist"),
}
FOR_PHRASES: dict[str, tuple[str, ...]] = {
    "beauty": ("for Women", "for Men", "for Women and Men", "for Daily Use", "for Home Use"),
    "electronics": ("for Home and Office", "for Everyday Use", "for Home Use"),
    "fashion": ("for Everyday Wear", "for Work and Weekend", "for All Seasons"),
    "food": (),  # grocery titles name no use
    "furniture": ("for Home", "for Small Spaces", "for Apartment"),
}  # fmt: skip
GENERIC_BULLETS: dict[str, tuple[str, ...]] = {
    "beauty": (
        "GENTLE EVERY DAY: the {noun} work{s} into your morning and evening routine without fuss.",
        "MADE TO SHARE: a thoughtful pick for birthdays, holidays and self care days.",
        "TRUSTED CARE: every {brand} product is tested before it reaches you.",
        "WHAT YOU GET: one {noun} and our friendly customer support team.",
        "FEEL GOOD: made to leave you feeling refreshed and cared for.",
    ),
    "electronics": (
        "CLEAR INSTRUCTIONS: the quick start guide walks you through the {noun} step by step.",
        "WHAT YOU GET: {noun}, user manual, and 18 month worry free warranty from {brand}.",
        "RELIABLE: backed by the {brand} support team and a hassle free return window.",
        "SIMPLE SETUP: ready in minutes, no extra software required.",
        "DURABLE BUILD: tested through thousands of cycles in the {brand} lab.",
    ),
    "fashion": (
        "OCCASIONS: great for office, weekends, travel, dates and holidays.",
        "CHECK THE DETAILS: see the photos and measurements before ordering.",
        "STYLE IT: the {noun} pair{s} easily with the rest of your wardrobe.",
        "CARE: follow the care label to keep the {noun} looking new.",
        "{brand} QUALITY: every seam is checked before the {noun} leave{s} our workshop.",
    ),
    "food": (
        "SHARE THE GOODNESS: the {noun} {is} a favourite at family tables and get togethers.",
        "FRESHNESS SEALED: packed right after production to keep the taste.",
        "SIMPLE PANTRY: made by {brand} in small batches with ingredients you can read.",
        "STORAGE: keep in a cool, dry place and enjoy within a few weeks of opening.",
        "FAMILY FAVOURITE: a pantry staple loved by kids and grown ups.",
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


#: Words titles keep in lower case (after the first word), as listings write them.
SMALL_WORDS = frozenset(("a", "an", "and", "for", "in", "of", "on", "or", "the", "to", "with"))


def _capitalize(phrase: str) -> str:
    """Title Case as listings write it: "(pack of 2)" -> "(Pack of 2)", "usb c" -> "USB C"."""
    words = []
    for index, word in enumerate(phrase.split()):
        lead = len(word) - len(word.lstrip("("))
        core = word[lead:]
        if core in ACRONYMS:
            core = core.upper()
        elif index == 0 or core not in SMALL_WORDS:
            core = core[:1].upper() + core[1:]
        words.append(word[:lead] + core)
    return " ".join(words)


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


#: Title shapes, as real listings are written (weights): features before the type noun;
#: the type noun first, then a comma list of features; the type noun "with" its features.
TITLE_SHAPES = (("modifiers", 0.45), ("feature_list", 0.35), ("with", 0.2))
#: Option groups a listing's title may end with (its first value), as "..., 16 Fl Oz", when
#: the value carries one of ``SPEC_UNITS`` (titles name amounts, not clothing sizes).
SPEC_GROUPS = ("size", "item package quantity", "capacity", "length")
SPEC_UNITS = ("oz", "ounce", "pound", "count", "pack", "inch", "ft", "gb", "tb", "mah", "tier",
              "drawer", "panel")  # fmt: skip


def _spec(options: dict[str, tuple[str, ...]], rng: random.Random) -> str:
    """A size or count for the end of the title, from the product's own options ("" if none)."""
    for group in SPEC_GROUPS:
        values = options.get(group)
        if values and any(unit in values[0] for unit in SPEC_UNITS) and rng.random() < 0.6:
            return _capitalize(values[0])
    return ""


def title(
    brand: str,
    noun: str,
    sub: Subcategory,
    attributes: list[str],
    options: dict[str, tuple[str, ...]],
    rng: random.Random,
) -> str:
    """The product title, shaped like a real listing: brand, key features, type noun, audience
    or use, size or count."""
    shape = rng.choices([s for s, _ in TITLE_SHAPES], [w for _, w in TITLE_SHAPES])[0]
    descriptor = rng.choice(DESCRIPTORS[sub.top]) if rng.random() < 0.35 else ""
    audience, _, rest = noun.partition(" ")
    if audience in AUDIENCE_NOUNS:
        head = _capitalize(audience) + " " + _capitalize(rest)
    else:
        head = _capitalize(noun)
    features = [_capitalize(a) for a in attributes]
    uses = FOR_PHRASES[sub.top]
    for_phrase = rng.choice(uses) if uses and rng.random() < 0.4 else ""
    front = " ".join(w for w in (brand, descriptor) if w)
    if shape == "modifiers" or not features:
        text = " ".join(w for w in (front, *features, head, for_phrase) if w)
    elif shape == "feature_list":
        text = f"{front} {head}, " + ", ".join(features) + (f" {for_phrase}" if for_phrase else "")
    else:
        joined = (
            features[0]
            if len(features) == 1
            else ", ".join(features[:-1]) + " and " + (features[-1])
        )
        text = " ".join(w for w in (front, head, for_phrase) if w) + " with " + joined
    spec = _spec(options, rng)
    if spec:
        text += rng.choice((", ", " - ", ", ")) + spec
    return text


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


#: How listings name option groups in the plural ("available in 5 colors").
GROUP_PLURALS = {"color": "colors", "size": "sizes", "item package quantity": "pack sizes",
                 "flavor name": "flavors", "style": "styles", "fit type": "fits",
                 "material type": "materials", "scent": "scents", "capacity": "capacities",
                 "length": "lengths"}  # fmt: skip
#: How listings and shoppers name an option group in the singular ("choose your flavor").
GROUP_SINGULARS = {"item package quantity": "pack size", "flavor name": "flavor",
                   "fit type": "fit", "material type": "material"}  # fmt: skip
OPTION_BULLETS = (
    "AVAILABLE IN {count} {GROUPS}: {values}.",
    "CHOOSE YOUR {GROUP}: {values}.",
    "{COUNT} {GROUPS} TO PICK FROM: {values}.",
)


def _listing(values: tuple[str, ...]) -> str:
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1]


def option_lines(options: dict[str, tuple[str, ...]], rng: random.Random) -> list[str]:
    """One bullet per option group, naming its values."""
    lines = []
    for group, values in options.items():
        plural = GROUP_PLURALS.get(group, group + "s")
        singular = GROUP_SINGULARS.get(group, group)
        lines.append(rng.choice(OPTION_BULLETS).format(
            count=len(values), COUNT=len(values), GROUPS=plural.upper(),
            GROUP=singular.upper(), values=_listing(values)))  # fmt: skip
    return lines


def bullets(
    noun: str,
    brand: str,
    top: str,
    first: list[str],
    later: list[str],
    options: dict[str, tuple[str, ...]],
    rng: random.Random,
) -> list[str]:
    """3-7 "About this item" bullets: ``first`` attributes in bullet 1, ``later`` ones after it,
    then one per option group naming its values, then stock lines up to 3-5 bullets."""
    generic = list(GENERIC_BULLETS[top])
    rng.shuffle(generic)
    result = []
    if first:
        joined = _listing(tuple(first))
        result.append(_fill(rng.choice(ATTRIBUTE_BULLETS), noun, brand, joined))
    else:
        result.append(_fill(generic.pop(), noun, brand))
    for attr in later:
        result.append(_fill(rng.choice(ATTRIBUTE_BULLETS), noun, brand, attr))
    result += option_lines(options, rng)
    while len(result) < 3 + rng.randrange(3) and generic:
        result.append(_fill(generic.pop(), noun, brand))
    return result


def description(
    noun: str,
    brand: str,
    top: str,
    attributes: list[str],
    options: dict[str, tuple[str, ...]],
    rng: random.Random,
    generic: int = 1,
) -> str:
    """A paragraph: opener, attribute sentences, what the options span, ``generic`` stock
    lines, closer."""
    sentences = [_fill(rng.choice(OPENERS), noun, brand)]
    sentences += [_fill(rng.choice(ATTRIBUTE_SENTENCES), noun, brand, a) for a in attributes]
    if options:
        counts = [f"{len(v)} {GROUP_PLURALS.get(g, g + 's')}" for g, v in options.items()]
        sentences.append("Comes in " + _listing(tuple(counts)) + ".")
    for line in rng.sample(GENERIC_BULLETS[top], generic):
        filled = _fill(line.split(": ", 1)[-1], noun, brand)
        sentences.append(filled[:1].upper() + filled[1:])
    sentences.append(_fill(rng.choice(CLOSERS), noun, brand))
    return " ".join(s for s in sentences if s)
