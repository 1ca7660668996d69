"""WebShop goals: which product to buy, what the instruction says, per difficulty and split.

A goal is built like the original's: a target product, a subset of its attributes, one wanted
value per chosen option group, and a price bound from the original candidate rule (the first 4
of {10, 20, ..., 990} strictly above the price; the larger of 2 sampled; fewer than 2 candidates
-> no bound). The instruction is rendered by ``instructions``: half of the goals in the original's
synthetic template, half in a shopper's voice (facts in varied order, values without their group
names, "under $40"); either way it states every attribute, option value and the bound the reward
checks. It names the target by the head noun its title uses (45%) or by its query (55%).

Difficulty (exact definitions):
  easy    1 attribute (one of the target's), no options, the original price bound, and the
          target is in the top 10 of the search engine for the full instruction (checked; goals
          failing it are skipped, so easy lists may be shorter on small catalogs).
  medium  the original distribution: k = min(#target attributes, K) attributes with
          P(K = 1, 2, 3, 4) = .05, .25, .40, .30 (mean 2.3 per goal); one value of every option
          group of the target (as the original's goals name one per group; 18% of products
          have none); the original price bound.
  hard    targets under 980 with 3+ attributes and 2+ option groups that anchor a cluster with 2+
          near-miss siblings (same query and head noun, similar attributes and options, priced
          0.49-4.99 above a multiple of 10 above the target's price); all of the target's
          attributes (up to 5), every option group, and the tightest bound (the first candidate
          above the price), so every near-miss is over it.

Splits: every catalog row gets a fixed 64-bit key (BLAKE2b of its ASIN); rows are taken in key
order. Rows of the held-out query subcategories (``vocab.OOD_SUBCATEGORIES``, 13 of 120) only feed
``ood``; the others fall in bucket ``key % 100``: test 0-9, valid 10-19, train 20-99, so
train/valid/test targets are disjoint across all difficulties. ``ood`` instructions use held-out
templates of both voices (``instructions.OOD_VOICES``) never used elsewhere. ``adversarial`` is
``test`` with each instruction perturbed (``instructions.perturb``); target, attributes, options
and bound are unchanged (so easy/adversarial targets need not stay in the top 10). Sizes: train
6,000, valid/test/ood/adversarial 500 each, when the catalog has enough eligible rows (a
2,000-product catalog gives fewer). On a loaded original catalog the human goals are split the same
way by key, held-out queries are 10% of queries by key, and the human instruction text is kept (so
``ood`` differs by query only).

Goal lists are cached as JSONL (checksummed header) in ``<catalog dir>/goals-<GOALS_VERSION>``.
Sizes on the default catalog: every list is full (train 6,000, others 500) except hard/train
(3,938) and hard/test (480); on 2,000 products medium has 1,399 / 182 / 190 / 229 goals
(train / valid / test / ood) and hard 72 / 7 / 12 / 12. Building all 15 lists takes ~20 s once
(the easy lists run a search per candidate).

Calibration (default catalog; ``python -m agentgym_envs.webshop.calibrate``, full table in its
docstring): searching the full instruction of a medium goal puts the target at rank 1 for 22.6%
of train goals (21.2% of test), ranks 2-50 for 26.0%, beyond the top 50 for 51.4% (paper: 32%,
12%, 56%); the rule agent (search the instruction, buy result 1, no options) scores 48.6 with
8.2% success on train, 48.7 / 6.8% on test (paper: 45.6 / 9.6%).
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from agentgym_envs.core.splits import DIFFICULTIES, SPLITS, check_choice
from agentgym_envs.webshop import instructions
from agentgym_envs.webshop.catalog import Catalog, write_atomically
from agentgym_envs.webshop.generator import weighted_choice
from agentgym_envs.webshop.schema import Goal, Product
from agentgym_envs.webshop.vocab import (
    AUDIENCE_NOUNS,
    OOD_SUBCATEGORIES,
    SUBCATEGORIES,
    Subcategory,
)

if TYPE_CHECKING:  # search imports bm25s lazily; goals only needs it for easy lists
    from agentgym_envs.webshop.search import SearchEngine

GOALS_VERSION = "wsgoals2"
SPLIT_SIZES = {"train": 6_000, "valid": 500, "test": 500, "ood": 500}
BUCKETS = {"test": range(0, 10), "valid": range(10, 20), "train": range(20, 100)}
PRICE_GRID = tuple(10.0 * i for i in range(1, 100))
MEDIUM_ATTRIBUTE_COUNTS = ((1, 0.05), (2, 0.25), (3, 0.40), (4, 0.30))
MEDIUM_OPTION_SHARE = 1.0
EASY_TOP_K = 10
TITLE_NOUN_SHARE = 0.45  # instructions name the title's head noun, else the query

_SUBCATEGORY_BY_QUERY: dict[str, Subcategory] = {s.query: s for s in SUBCATEGORIES}
_MEMO: dict[tuple[str, str, str], list[Goal]] = {}
_MEMO_LOCK = threading.RLock()


# ------------------------------------------------------------------------------ price bounds
def price_candidates(price: float) -> list[float]:
    """The first 4 of {10, 20, ..., 990} strictly above ``price`` (fewer near the top)."""
    return [p for p in PRICE_GRID if p > price][:4]


def original_price_bound(price: float, rng: random.Random) -> float | None:
    """The original rule: the larger of 2 distinct candidates sampled; None with < 2."""
    candidates = price_candidates(price)
    if len(candidates) < 2:
        return None
    return max(rng.sample(candidates, 2))


def tight_price_bound(price: float) -> float | None:
    """Hard goals: the first candidate (same None rule as the original)."""
    candidates = price_candidates(price)
    return candidates[0] if len(candidates) >= 2 else None


# ---------------------------------------------------------------------------- goal building
def stable_int(*parts: object) -> int:
    """A 64-bit integer fixed by ``parts`` on every machine (BLAKE2b; never Python's hash)."""
    digest = hashlib.blake2b("\x1f".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def _without_audience(noun: str) -> str:
    first, _, rest = noun.partition(" ")
    return rest if first in AUDIENCE_NOUNS and rest else noun


def title_noun(product: Product) -> str:
    """The subcategory head noun the product's title uses (the query if none is found)."""
    sub = _SUBCATEGORY_BY_QUERY.get(product.query)
    title = product.title.lower()
    if sub is None:
        return product.query
    found = [n for n in sub.nouns if _without_audience(n) in title]
    return max(found, key=len) if found else sub.query


def make_goal(
    product: Product, difficulty: str, voices: instructions.Voices, rng: random.Random, goal_id: str
) -> Goal:
    """A goal on ``product`` drawn by the rules of ``difficulty`` (module docstring)."""
    attributes = list(product.attributes)
    if difficulty == "easy":
        chosen = [rng.choice(attributes)] if attributes else []
        options: dict[str, str] = {}
        bound = original_price_bound(product.price, rng)
    elif difficulty == "medium":
        count = min(len(attributes), int(weighted_choice(rng, MEDIUM_ATTRIBUTE_COUNTS)))
        chosen = rng.sample(attributes, count)
        options = {g: rng.choice(v) for g, v in product.options.items()
                   if v and rng.random() < MEDIUM_OPTION_SHARE}  # fmt: skip
        bound = original_price_bound(product.price, rng)
    else:
        chosen = rng.sample(attributes, min(len(attributes), 5))
        options = {g: rng.choice(v) for g, v in product.options.items() if v}
        bound = tight_price_bound(product.price)
    noun = title_noun(product) if rng.random() < TITLE_NOUN_SHARE else product.query
    instruction = voices.render(noun, chosen, options, bound, rng)
    return Goal.for_product(product, goal_id, instruction, chosen, options, bound)


# ------------------------------------------------------------------------------- selection
@functools.lru_cache(maxsize=4)
def row_keys(catalog: Catalog) -> np.ndarray:
    """The fixed 64-bit key of every row (BLAKE2b of its ASIN)."""
    keys = np.empty(len(catalog), dtype=np.uint64)
    for asin, row in zip(*catalog.sorted_asins(), strict=True):
        keys[row] = stable_int("split", asin.decode())
    return keys


def _eligible(catalog: Catalog, difficulty: str) -> np.ndarray:
    meta = catalog.meta
    if difficulty == "easy":
        return meta["n_attributes"] >= 1
    if difficulty == "hard":
        rich_enough = (meta["n_attributes"] >= 3) & (meta["n_groups"] >= 2)
        bounded = meta["price"] < PRICE_GRID[-2]  # 2+ candidates, so there is a bound
        return rich_enough & bounded & (meta["anchor"] == 1) & (meta["siblings"] >= 2)
    return np.ones(len(catalog), dtype=bool)


def _candidate_rows(catalog: Catalog, difficulty: str, split: str) -> np.ndarray:
    keys = row_keys(catalog)
    held_out = np.isin(catalog.meta["subcategory"], sorted(OOD_SUBCATEGORIES))
    if split == "ood":
        mask = held_out
    else:
        bucket = (keys % np.uint64(100)).astype(np.int64)
        chosen = BUCKETS[split]
        mask = ~held_out & (bucket >= chosen.start) & (bucket < chosen.stop)
    rows = np.flatnonzero(mask & _eligible(catalog, difficulty))
    return rows[np.argsort(keys[rows], kind="stable")]


def catalog_search_engine(catalog: Catalog) -> SearchEngine:
    """The process-wide BM25 engine for ``catalog`` (built once into its cache directory)."""
    from agentgym_envs.webshop.search import index_directory, shared_engine

    return shared_engine(index_directory(catalog.cache_dir, catalog.cache_key),
                         catalog.iter_search_texts)  # fmt: skip


def _generated_goals(
    catalog: Catalog, difficulty: str, split: str, engine: SearchEngine | None
) -> list[Goal]:
    voices = instructions.OOD_VOICES if split == "ood" else instructions.IID_VOICES
    size = SPLIT_SIZES[split]
    result: list[Goal] = []
    for row in _candidate_rows(catalog, difficulty, split):
        product = catalog.product(int(row))
        rng = random.Random(stable_int(GOALS_VERSION, difficulty, split, product.asin))
        goal_id = f"webshop-{difficulty}-{split}-{len(result):05d}"
        goal = make_goal(product, difficulty, voices, rng, goal_id)
        if difficulty == "easy" and int(row) not in engine.search(goal.instruction, EASY_TOP_K):
            continue
        result.append(goal)
        if len(result) == size:
            break
    return result


def _source_goal_split(goal: Goal) -> str:
    key = stable_int("split", goal.asin, goal.instruction)
    if stable_int("ood-query", goal.query) % 10 == 0:
        return "ood"
    return next(name for name, bucket in BUCKETS.items() if key % 100 in bucket)


def _loaded_goals(
    catalog: Catalog, difficulty: str, split: str, engine: SearchEngine | None
) -> list[Goal]:
    pool = [g for g in catalog.source_goals() if _source_goal_split(g) == split]
    pool.sort(key=lambda g: stable_int("order", g.asin, g.instruction))
    result: list[Goal] = []
    for goal in pool:
        n_att, n_opt = len(goal.attributes), len(goal.options)
        if difficulty == "easy" and (n_att != 1 or n_opt):
            continue
        if difficulty == "hard" and (n_att < 3 or n_opt < 2):
            continue
        if difficulty == "easy":
            row = catalog.index_of(goal.asin)
            if row not in engine.search(goal.instruction, EASY_TOP_K):
                continue
        goal_id = f"webshop-{difficulty}-{split}-{len(result):05d}"
        result.append(Goal(**{**goal.__dict__, "goal_id": goal_id}))
        if len(result) == SPLIT_SIZES[split]:
            break
    return result


def _decoy_name(catalog: Catalog, goal: Goal) -> str:
    """A nearby other product of the same query, named by its brand word and our noun."""
    row = catalog.index_of(goal.asin)
    for offset in (1, -1, 2, -2, 3, -3):
        other = row + offset
        if 0 <= other < len(catalog):
            product = catalog.product(other)
            if product.query == goal.query and product.asin != goal.asin:
                return f"{product.title.split()[0].lower()} {title_noun(product)}"
    return ""


def _adversarial_goals(catalog: Catalog, difficulty: str) -> list[Goal]:
    result = []
    for index, goal in enumerate(goals(catalog, difficulty, "test")):
        rng = random.Random(stable_int(GOALS_VERSION, "adversarial", goal.goal_id))
        sub = _SUBCATEGORY_BY_QUERY.get(goal.query)
        nouns = [n for n in (sub.nouns if sub else (goal.query,)) if n in goal.instruction]
        noun = max(nouns, key=len) if nouns else ""
        values = tuple(goal.options.values())
        decoy = _decoy_name(catalog, goal)
        text = instructions.perturb(goal.instruction, goal.attributes, values, noun, decoy, rng)
        goal_id = f"webshop-{difficulty}-adversarial-{index:05d}"
        result.append(Goal(**{**goal.__dict__, "goal_id": goal_id, "instruction": text}))
    return result


# ---------------------------------------------------------------------------------- caching
def _goal_to_json(goal: Goal) -> str:
    return json.dumps(goal.__dict__, ensure_ascii=False, sort_keys=True)


def _goal_from_json(line: str) -> Goal:
    data = json.loads(line)
    data["type_nouns"] = tuple(data["type_nouns"])
    data["attributes"] = tuple(data["attributes"])
    return Goal(**data)


def _read_cached(path: Path) -> list[Goal] | None:
    try:
        header, _, body = path.read_text(encoding="utf-8").partition("\n")
        meta = json.loads(header)
    except (OSError, ValueError):
        return None
    if meta.get("sha256") != hashlib.sha256(body.encode()).hexdigest():
        return None
    lines = body.splitlines()
    return [_goal_from_json(line) for line in lines] if len(lines) == meta.get("count") else None


def _write_cached(path: Path, goal_list: list[Goal]) -> None:
    body = "".join(_goal_to_json(g) + "\n" for g in goal_list)
    digest = hashlib.sha256(body.encode()).hexdigest()
    header = json.dumps({"version": GOALS_VERSION, "count": len(goal_list), "sha256": digest})
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, header + "\n" + body)


def goals(
    catalog: Catalog,
    difficulty: str = "medium",
    split: str = "train",
    engine: SearchEngine | None = None,
) -> list[Goal]:
    """The fixed goal list of (``difficulty``, ``split``) for ``catalog``; ids are unique and read
    ``webshop-<difficulty>-<split>-<index:05d>``. ``engine`` (a ``search.SearchEngine``) is
    needed only to build easy lists; by default the catalog's shared engine is used."""
    check_choice("difficulty", difficulty, DIFFICULTIES)
    check_choice("split", split, SPLITS)
    memo_key = (str(catalog.cache_dir), difficulty, split)
    with _MEMO_LOCK:
        if memo_key in _MEMO:
            return _MEMO[memo_key]
        path = catalog.cache_dir / f"goals-{GOALS_VERSION}" / f"{difficulty}-{split}.jsonl"
        goal_list = _read_cached(path)
        if goal_list is None:
            if split == "adversarial":
                goal_list = _adversarial_goals(catalog, difficulty)
            else:
                if engine is None and difficulty == "easy":
                    engine = catalog_search_engine(catalog)
                build = _loaded_goals if catalog.has_source_goals else _generated_goals
                goal_list = build(catalog, difficulty, split, engine)
            _write_cached(path, goal_list)
        _MEMO[memo_key] = goal_list
        return goal_list
