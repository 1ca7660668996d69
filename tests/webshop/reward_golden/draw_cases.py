"""Draw purchase cases for the WebShop reward golden test (run in this project's venv).

    python tests/webshop/reward_golden/draw_cases.py --count 2400 --seed 0 --out cases.jsonl

Each line is one purchase: the bought product (the fields the reward reads), the goal (with its
options as list-style values, the layout of the original's human goals), the price shown and
the selected options. Cases cover every branch of the reward on purpose, by ``kind``:

  target_right    the target with the goal's options (sometimes with extra, unasked groups)
  target_wrong    the target with a random value of each of its option groups
  target_partial  the target with a random subset of the wanted options
  target_none     the target with nothing selected
  search_hit      one of the top 50 hits for the instruction, random options of its own
  random_product  any catalog product (mostly the wrong type), random options
  price_at_bound  the target at exactly the bound / price_over: just above it
  no_bound        a goal without a price bound (the original's 1,000,000 stand-in)
  no_goal_nouns   a goal title without nouns / no_product_nouns: a product title without
  colour_words    goal and selected colours drawn from many shade phrases (normalisation)
  many_goal_nouns a goal title with 8-20 nouns, repeats included (overlaps under 10%)
  odd_characters  accents, curly quotes, symbols and capitals in the wanted and selected values
                  (the fuzzy score's preprocessing)

``original_reward.py`` then scores them with the original's own functions (in a scratch venv);
the two files are merged into ``cases.jsonl.gz`` beside this script.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from agentgym_envs.webshop.goals import catalog_search_engine, goals
from agentgym_envs.webshop.reward import COLOR_SET
from agentgym_envs.webshop.schema import Goal, Product
from agentgym_envs.webshop.sources import load_catalog
from agentgym_envs.webshop.vocab import OPTION_POOLS

KINDS = {
    "target_right": 3, "target_wrong": 3, "target_partial": 2, "target_none": 1,
    "search_hit": 4, "random_product": 2, "price_at_bound": 1, "price_over": 1, "no_bound": 1,
    "no_goal_nouns": 1, "no_product_nouns": 1, "colour_words": 3, "odd_characters": 1,
    "many_goal_nouns": 1,
}  # fmt: skip
#: Shade words beyond the two colour lists, and modifiers, to build colour phrases from.
SHADE_WORDS = (
    "emerald", "crimson", "cobalt", "cyan", "ebony", "jade", "onyx", "scarlet", "standard",
    "assorted", "two tone", "neon", "smoky", "frost", "hunter", "forest", "sky", "baby",
)  # fmt: skip
MODIFIERS = ("light", "dark", "hot", "pale", "deep", "bright", "matte", "metallic", "wash")
ODD = ("\u00e9", "\u2019", "\u00b0", "\u00d7", "\u2013", "\u00f1", "\u0142", "'", "-", "/", "_")


def oddify(text: str, rng: random.Random) -> str:
    """``text`` with a few odd characters inserted and some words capitalised."""
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        chars.insert(rng.randrange(len(chars) + 1), rng.choice(ODD))
    words = "".join(chars).split(" ")
    return " ".join(w.upper() if rng.random() < 0.2 else w for w in words)


def colour_phrase(rng: random.Random) -> str:
    pool = OPTION_POOLS["color"] + COLOR_SET + SHADE_WORDS
    words = [rng.choice(pool)]
    if rng.random() < 0.4:
        words.insert(0, rng.choice(MODIFIERS))
    if rng.random() < 0.15:
        words.append(rng.choice(pool))
    return " ".join(words)


def product_json(product: Product, nouns: tuple[str, ...] | None = None) -> dict:
    return {
        "asin": product.asin, "title": product.title, "query": product.query,
        "product_category": product.product_category, "bullets": list(product.bullets),
        "description": product.description, "attributes": list(product.attributes),
        "type_nouns": list(product.type_nouns if nouns is None else nouns),
    }  # fmt: skip


def goal_json(goal: Goal, **changes) -> dict:
    data = {
        "title": goal.title, "query": goal.query, "product_category": goal.product_category,
        "type_nouns": list(goal.type_nouns), "attributes": list(goal.attributes),
        "options": dict(goal.options), "price_upper": goal.price_upper,
    }  # fmt: skip
    data.update(changes)
    return data


def random_options(product: Product, rng: random.Random) -> dict[str, str]:
    return {g: rng.choice(v) for g, v in product.options.items() if v and rng.random() < 0.8}


def draw_case(kind: str, goal: Goal, catalog, engine, rng: random.Random) -> dict | None:
    """One case of ``kind`` on ``goal``; None when the goal cannot give that kind."""
    target = catalog.product(catalog.index_of(goal.asin))
    product, selected, price, changes = target, dict(goal.options), target.price, {}
    product_nouns = None
    if kind == "target_right":
        extra = {g: rng.choice(v) for g, v in target.options.items() if g not in selected and v}
        selected.update(extra if rng.random() < 0.3 else {})
    elif kind == "target_wrong":
        selected = {g: rng.choice(v) for g, v in target.options.items() if v}
    elif kind == "target_partial":
        keep = [g for g in selected if rng.random() < 0.5]
        selected = {g: selected[g] for g in keep}
    elif kind == "target_none":
        selected = {}
    elif kind == "search_hit":
        hits = engine.search(goal.instruction, k=50)
        if not hits:
            return None
        product = catalog.product(rng.choice(hits))
        selected, price = random_options(product, rng), product.price
    elif kind in ("random_product", "no_bound"):
        product = catalog.product(rng.randrange(len(catalog)))
        selected, price = random_options(product, rng), product.price
        if kind == "no_bound":
            changes["price_upper"] = None
    elif kind in ("price_at_bound", "price_over"):
        if goal.price_upper is None:
            return None
        over = round(rng.choice((0.01, 0.5, 5.0, 37.25)), 2)
        price = goal.price_upper + (over if kind == "price_over" else 0.0)
    elif kind == "no_goal_nouns":
        changes["type_nouns"] = []
        row = catalog.index_of(goal.asin) if rng.random() < 0.5 else rng.randrange(len(catalog))
        product = catalog.product(row)
        selected, price = random_options(product, rng), product.price
    elif kind == "no_product_nouns":
        product_nouns = ()
    elif kind == "colour_words":
        wanted = {"color": colour_phrase(rng)}
        if rng.random() < 0.5:
            wanted["size"] = rng.choice(OPTION_POOLS["apparel"])
        changes["options"] = wanted
        selected = {"color": colour_phrase(rng) if rng.random() < 0.7 else wanted["color"]}
        if "size" in wanted and rng.random() < 0.7:
            selected["size"] = rng.choice(OPTION_POOLS["apparel"])
    elif kind == "many_goal_nouns":
        nouns = list(goal.type_nouns)
        while len(nouns) < rng.randint(8, 20):
            nouns += catalog.product(rng.randrange(len(catalog))).type_nouns
        changes["type_nouns"] = nouns
        if rng.random() < 0.5:
            product = catalog.product(rng.randrange(len(catalog)))
            selected, price = random_options(product, rng), product.price
    elif kind == "odd_characters":
        changes["attributes"] = [oddify(a, rng) if rng.random() < 0.5 else a
                                 for a in goal.attributes]  # fmt: skip
        selected = {g: oddify(v, rng) if rng.random() < 0.5 else v for g, v in selected.items()}
    return {
        "kind": kind, "product": product_json(product, product_nouns),
        "goal": goal_json(goal, **changes), "price": price, "selected": selected,
    }  # fmt: skip


def draw(count: int, seed: int, num_products: int) -> list[dict]:
    catalog = load_catalog(num_products=num_products, seed=seed)
    engine = catalog_search_engine(catalog)
    pool = [g for d in ("medium", "hard") for s in ("train", "test") for g in goals(catalog, d, s)]
    rng = random.Random(seed)
    names, weights = list(KINDS), list(KINDS.values())
    cases: list[dict] = []
    while len(cases) < count:
        case = draw_case(rng.choices(names, weights)[0], rng.choice(pool), catalog, engine, rng)
        if case is not None:
            cases.append(case)
    return cases


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=2400, help="cases to draw (default 2400)")
    parser.add_argument("--seed", type=int, default=0, help="catalog and draw seed (default 0)")
    parser.add_argument("--num-products", type=int, default=20_000,
                        help="generated catalog size to draw from (default 20000)")  # fmt: skip
    parser.add_argument("--out", type=Path, required=True, help="JSONL file to write")
    args = parser.parse_args(argv)
    cases = draw(args.count, args.seed, args.num_products)
    with args.out.open("w", encoding="utf-8") as file:
        for case in cases:
            file.write(json.dumps(case, ensure_ascii=False) + "\n")
    print(f"{len(cases)} cases -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
