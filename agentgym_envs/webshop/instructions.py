"""WebShop instruction text: the original's template, shopper-style wording, perturbations.

Two voices write the instruction a goal's target, attributes, options and price bound imply:

- ``Style`` (synthetic): the original WebShop template, "i'm looking for X that is A and B, with
  color: C and size: D, and price lower than 40.00 dollars".
- ``HumanStyle`` (shopper): what people wrote for the paper's human goals looks different: the
  facts in varied order, attributes before or after the noun, option values without their group
  name ("in navy blue, size large"), prices as "under $40", informal openers and endings.

Every instruction states exactly what the reward checks (each attribute and option value verbatim,
the bound when there is one), so a goal never asks for something it does not say.
``IID_VOICES`` serve train/valid/test; ``OOD_VOICES`` (other openers, links and price phrases)
are never used outside the ``ood`` split. ``perturb`` makes the ``adversarial`` variant of a test
instruction: padding, typos, attribute synonyms, a decoy product named in passing, a vaguer noun;
what the reward checks (the ``Goal`` fields other than ``instruction``) is left unchanged.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from agentgym_envs.webshop.product_text import GROUP_SINGULARS


@dataclass(frozen=True)
class Style:
    """One family of templates; every field is a tuple of alternatives."""

    openers: tuple[str, ...]
    attribute_clauses: tuple[str, ...]  # "{attrs}" = attributes joined as a list
    option_clauses: tuple[str, ...]  # "{opts}" = the option pairs joined
    option_pairs: tuple[str, ...]  # "{group}", "{value}"
    price_clauses: tuple[str, ...]  # "{bound:.2f}"


TRAIN_STYLE = Style(
    openers=("i'm looking for {np}", "i need {np}", "i want to buy {np}", "find me {np}",
             "i am looking for {np}", "i would like {np}", "get me {np}", "i'd like to find {np}"),
    attribute_clauses=(" that is {attrs}", " with {attrs}", " which is {attrs}"),
    option_clauses=(", with {opts}", " with {opts}"),
    option_pairs=("{group}: {value}",),
    price_clauses=(", and price lower than {bound:.2f} dollars",),
)  # fmt: skip
OOD_STYLE = Style(
    openers=("could you help me track down {np}", "my shopping list says {np}",
             "please locate {np}", "show me {np}", "i am hunting for {np}"),
    attribute_clauses=(" featuring {attrs}", "; it has to be {attrs}", " offering {attrs}"),
    option_clauses=("; i'd prefer {opts}", ", ideally {opts}"),
    option_pairs=("{value} for the {group}", "the {value} {group}"),
    price_clauses=(", keeping the cost under {bound:.2f} dollars",
                   ", and my budget tops out at {bound:.2f} dollars"),
)  # fmt: skip

PADDING = (
    "it's for my sister's birthday next week",
    "my old one broke after two years",
    "i have already checked three other shops",
    "the last one i ordered arrived late, which was annoying",
    "honestly the brand doesn't matter to me",
    "my roommate recommended this kind of thing",
    "i keep forgetting to order this",
)
# fmt: off
SYNONYMS: dict[str, str] = {
    "machine wash": "machine washable", "long sleeve": "long-sleeved",
    "short sleeve": "short-sleeved",
    "easy to use": "user friendly", "high protein": "protein rich", "long lasting": "long-wearing",
    "easy assembly": "simple to put together", "wireless bluetooth": "bluetooth wireless",
    "easy install": "simple installation", "fast charging": "quick charging",
    "slim fit": "slim cut", "relaxed fit": "loose fit", "high waist": "high-waisted",
    "water resistant": "waterproof-ish", "heavy duty": "sturdy", "non slip": "anti-slip",
    "space saving": "compact", "dry skin": "dehydrated skin", "anti aging": "age defying",
    "noise cancelling": "noise canceling", "stainless steel": "steel", "natural ingredients":
    "natural components", "ready to eat": "no cooking needed", "solid wood": "real wood",
}
# fmt: on


#: Words typos never touch, so the price bound stays readable.
PROTECTED_WORDS = frozenset({"price", "lower", "than", "dollars"})


def _join(items: list[str], rng: random.Random) -> str:
    if len(items) <= 1:
        return "".join(items)
    conjunction = rng.choice((" and ", ", and "))
    return ", ".join(items[:-1]) + conjunction + items[-1]


def noun_phrase(noun: str, rng: random.Random) -> str:
    """``noun`` with an article a shopper might use ("a", "an", "some" or none)."""
    if noun.endswith("s") and not noun.endswith("ss"):
        return rng.choice(("", "some ")) + noun
    if rng.random() < 0.25:
        return noun
    return ("an " if noun[0] in "aeiou" else "a ") + noun


def render(
    noun: str,
    attributes: list[str],
    options: dict[str, str],
    price_upper: float | None,
    style: Style,
    rng: random.Random,
) -> str:
    """The instruction for a goal, in the synthetic ``style``."""
    text = rng.choice(style.openers).format(np=noun_phrase(noun, rng))
    if attributes:
        text += rng.choice(style.attribute_clauses).format(attrs=_join(attributes, rng))
    if options:
        pair = rng.choice(style.option_pairs)
        pairs = [pair.format(group=g, value=v) for g, v in options.items()]
        text += rng.choice(style.option_clauses).format(opts=_join(pairs, rng))
    if price_upper is not None:
        text += rng.choice(style.price_clauses).format(bound=price_upper)
    return text


@dataclass(frozen=True)
class HumanStyle:
    """Shopper wording: every field is a tuple of alternatives; see ``render_human``."""

    openers: tuple[str, ...]  # "{np}": the noun phrase, short attributes possibly in front
    attribute_links: tuple[str, ...]  # "{attr}", after the noun phrase
    color_phrases: tuple[str, ...]  # "{value}"
    size_phrases: tuple[str, ...]  # "{value}"
    other_phrases: tuple[str, ...]  # "{value}", "{group}"
    price_phrases: tuple[str, ...]  # "{bound:.0f}"
    endings: tuple[str, ...]


HUMAN_STYLE = HumanStyle(
    openers=("i need {np}", "looking for {np}", "hi, i'm looking for {np}", "need {np}",
             "can you find me {np}", "i want {np}", "searching for {np}", "i'd like {np}",
             "help me find {np}", "i'm shopping for {np}", "do you have {np}",
             "i'm trying to find {np}"),
    attribute_links=(" with {attr}", ", {attr}", " that's {attr}", " - {attr}",
                     ", needs to be {attr}", " and {attr}"),
    color_phrases=("in {value}", "{value} color", "the {value} one", "color {value}"),
    size_phrases=("size {value}", "in {value}", "{value} size", "the {value} one"),
    other_phrases=("{value}", "{group} {value}", "the {value} {group}", "{value} please"),
    price_phrases=("under ${bound:.0f}", "less than {bound:.0f} dollars", "below ${bound:.0f}",
                   "no more than {bound:.2f} dollars", "price under {bound:.0f} dollars",
                   "cheaper than ${bound:.0f}"),
    endings=("", "", "", " thanks", " please", "!", " thank you"),
)  # fmt: skip
OOD_HUMAN_STYLE = HumanStyle(
    openers=("any chance you carry {np}", "hey, got {np}", "i'm after {np}",
             "would love {np}", "point me to {np}", "on the hunt for {np}"),
    attribute_links=(" featuring {attr}", ", ideally {attr}", " (must be {attr})",
                     ", preferably {attr}"),
    color_phrases=("{value} colored", "in a {value} shade", "colour {value}"),
    size_phrases=("sized {value}", "{value} if possible", "in size {value}"),
    other_phrases=("{group} of {value}", "{value} option", "{value} variant"),
    price_phrases=("within {bound:.0f} bucks", "tops {bound:.2f} dollars",
                   "my budget is {bound:.0f} dollars max", "not over ${bound:.0f}"),
    endings=("", "", " cheers", " appreciate it", "."),
)  # fmt: skip

#: Attribute endings that read well in front of a noun ("a gluten free granola").
_PRENOMINAL_ENDINGS = ("free", "proof", "resistant", "friendly", "safe", "less", "able", "ed",
                       "weight", "duty", "size")  # fmt: skip


def _value_phrase(group: str, value: str, style: HumanStyle, rng: random.Random) -> str:
    if "color" in group:
        return rng.choice(style.color_phrases).format(value=value)
    if "size" in group or group in ("length", "capacity"):
        return rng.choice(style.size_phrases).format(value=value)
    if group == "item package quantity":  # "6 pack", "10 count" need no group name
        return value
    word = GROUP_SINGULARS.get(group, group)
    return rng.choice(style.other_phrases).format(value=value, group=word)


def render_human(
    noun: str,
    attributes: list[str],
    options: dict[str, str],
    price_upper: float | None,
    style: HumanStyle,
    rng: random.Random,
) -> str:
    """The instruction for a goal, as a shopper might type it: one short attribute may move in
    front of the noun, the other facts follow in a shuffled order, joined by commas or "and"."""
    attributes = list(attributes)
    prenominal = [a for a in attributes if a.split()[-1].endswith(_PRENOMINAL_ENDINGS)]
    phrase = noun
    if prenominal and rng.random() < 0.6:
        front = rng.choice(prenominal)
        attributes.remove(front)
        phrase = f"{front} {noun}"
    text = rng.choice(style.openers).format(np=noun_phrase(phrase, rng))
    facts = [rng.choice(style.attribute_links).format(attr=a) for a in attributes]
    facts += [", " + _value_phrase(g, v, style, rng) for g, v in options.items()]
    rng.shuffle(facts)
    if price_upper is not None:  # the budget comes last, as people tend to write it
        facts.append(
            rng.choice((", ", " ", ", and "))
            + rng.choice(style.price_phrases).format(bound=price_upper)
        )
    return text + "".join(facts) + rng.choice(style.endings)


#: Share of generated goals written in the shopper voice (the rest use the original template).
HUMAN_SHARE = 0.5


@dataclass(frozen=True)
class Voices:
    """The two voices one split writes in."""

    synthetic: Style
    human: HumanStyle

    def render(
        self,
        noun: str,
        attributes: list[str],
        options: dict[str, str],
        price_upper: float | None,
        rng: random.Random,
    ) -> str:
        """The instruction, in the shopper voice with probability ``HUMAN_SHARE``."""
        if rng.random() < HUMAN_SHARE:
            return render_human(noun, attributes, options, price_upper, self.human, rng)
        return render(noun, attributes, options, price_upper, self.synthetic, rng)


IID_VOICES = Voices(TRAIN_STYLE, HUMAN_STYLE)
OOD_VOICES = Voices(OOD_STYLE, OOD_HUMAN_STYLE)


def _typo(word: str, rng: random.Random) -> str:
    i = rng.randrange(1, len(word) - 2)
    return word[:i] + word[i + 1] + word[i] + word[i + 2 :]


def perturb(
    instruction: str,
    attributes: tuple[str, ...],
    option_values: tuple[str, ...],
    noun: str,
    decoy: str,
    rng: random.Random,
) -> str:
    """An adversarial rewording of ``instruction``: 2-4 of padding, synonyms, typos, a decoy
    product named in passing ("not the <decoy> ..."), and a vaguer noun phrase."""
    text = instruction
    kinds = ["padding", "synonym", "typo", "decoy", "vague"]
    rng.shuffle(kinds)
    chosen = kinds[: rng.randrange(2, 5)]
    if "synonym" in chosen:
        for attr in attributes:
            if attr in SYNONYMS and attr in text:
                text = text.replace(attr, SYNONYMS[attr], 1)
            elif attr.endswith(" free") and attr in text:
                text = text.replace(attr, "no " + attr[: -len(" free")], 1)
    if "vague" in chosen and noun in text and " " in noun:
        vague = "one of those " + noun.split()[-1].rstrip("s") + " things"
        for article in ("a ", "an ", "some ", ""):
            if article + noun in text:
                text = text.replace(article + noun, vague, 1)
                break
    if "typo" in chosen:
        protected = set(" ".join(attributes + option_values).split()) | PROTECTED_WORDS
        words = text.split(" ")
        candidates = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()
                      and w not in protected]  # fmt: skip
        for i in rng.sample(candidates, min(len(candidates), rng.randrange(1, 3))):
            words[i] = _typo(words[i], rng)
        text = " ".join(words)
    if "decoy" in chosen and decoy:
        text += rng.choice((f" (not the {decoy} i saw earlier)",
                            f", unlike that {decoy} everyone keeps recommending"))  # fmt: skip
    if "padding" in chosen or text == instruction:  # every variant differs from its original
        clause = rng.choice(PADDING)
        text = f"{clause}. {text}" if rng.random() < 0.5 else f"{text}. {clause}"
    return text
