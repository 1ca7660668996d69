"""The generated catalog: determinism, statistics, near-miss siblings, storage and cache repair."""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import statistics
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from agentgym_envs.core.cache import CacheRebuilt
from agentgym_envs.webshop import catalog as catalog_module
from agentgym_envs.webshop.catalog import COMPLETE_MARKER, check_complete, search_text_of
from agentgym_envs.webshop.generator import generate
from agentgym_envs.webshop.sources import clear_process_cache, generated_cache_key, load_catalog
from agentgym_envs.webshop.title_nouns import title_nouns
from agentgym_envs.webshop.vocab import (
    BREADCRUMB_SEPARATOR,
    OOD_SUBCATEGORIES,
    ROOT_BREADCRUMB,
    SUBCATEGORIES,
    TOP_CATEGORIES,
)
from tests.webshop.small_catalog import SMALL, small_catalog

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def products():
    return [item.product for item in generate(5_000, seed=0)]


def _digest_in_subprocess(cache: Path, num_products: int) -> str:
    script = textwrap.dedent(
        f"""
        from agentgym_envs.webshop.sources import load_catalog
        import hashlib
        c = load_catalog(num_products={num_products}, seed=3)
        h = hashlib.sha256()
        for name in ("products.jsonl", "meta.npy", "asins.npy", "offsets.npy"):
            h.update((c.cache_dir / name).read_bytes())
        from agentgym_envs.webshop.goals import goals
        for split in ("train", "test", "ood", "adversarial"):
            h.update(repr(goals(c, "medium", split)).encode())
        print(h.hexdigest())
        """
    )
    env = dict(os.environ, AGENTGYM_CACHE=str(cache), PYTHONHASHSEED="random")
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().splitlines()[-1]


def test_same_catalog_and_goals_in_two_processes(tmp_path):
    first = _digest_in_subprocess(tmp_path / "a", 2_000)
    second = _digest_in_subprocess(tmp_path / "b", 2_000)
    assert first == second


def test_smaller_catalog_is_a_prefix_of_a_bigger_one():
    small = [g.product for g in generate(300, seed=5)]
    big = [g.product for g in generate(900, seed=5)]
    assert big[:300] == small
    assert [g.product for g in generate(300, seed=6)] != small


def test_tree_has_five_top_categories_and_100_plus_subcategories():
    assert set(TOP_CATEGORIES) == {"beauty", "electronics", "fashion", "food", "furniture"}
    assert len(SUBCATEGORIES) >= 100
    assert len({s.query for s in SUBCATEGORIES}) == len(SUBCATEGORIES)
    assert {s.top for s in SUBCATEGORIES} == set(TOP_CATEGORIES)
    for sub in SUBCATEGORIES:
        assert sub.breadcrumb[: len(ROOT_BREADCRUMB[sub.top])] == ROOT_BREADCRUMB[sub.top]
        assert len(sub.breadcrumb) >= 2 and sub.option_groups and len(sub.attributes) >= 12
    assert 0 < len(OOD_SUBCATEGORIES) < len(SUBCATEGORIES) // 5


def test_product_statistics(products):
    assert {p.category for p in products} == set(TOP_CATEGORIES)
    assert len({p.query for p in products}) >= 100
    mean_attributes = statistics.fmean(len(p.attributes) for p in products)
    assert 2.6 <= mean_attributes <= 3.0
    with_options = sum(bool(p.options) for p in products) / len(products)
    assert 0.7 <= with_options <= 0.9
    ranges = [p for p in products if len(p.pricing) == 2]
    assert 0.1 <= len(ranges) / len(products) <= 0.3
    for p in ranges:
        assert p.pricing[0] < p.pricing[1] and p.pricing[0] <= p.price <= p.pricing[1]
    assert len({p.asin for p in products}) == len(products)
    assert all(re.fullmatch(r"B0[0-9A-Z]{8}", p.asin) for p in products)


def test_product_fields_are_consistent(products):
    for p in products[:500]:
        assert BREADCRUMB_SEPARATOR in p.product_category
        assert p.type_nouns == title_nouns(p.title)
        assert 3 <= len(p.bullets) <= 10 and p.description
        assert all(values for values in p.options.values())
        assert p.price > 0


def test_attributes_fit_the_product(products):
    """Each product's attributes come from its own subcategory; the misfits a review found in
    the shared-attribute catalog ("power bank that is 120hz display") cannot occur."""
    by_query = {s.query: s for s in SUBCATEGORIES}
    for p in products:
        assert set(p.attributes) <= set(by_query[p.query].attributes)
    attributes_of = {s.query: set(s.attributes) for s in SUBCATEGORIES}
    assert "120hz display" not in attributes_of["power bank"]
    assert "usb charging ports" not in attributes_of["closet organizer"]
    assert "cold brewed" not in attributes_of["potato chips"]
    assert len({a for s in SUBCATEGORIES for a in s.attributes}) >= 670  # the original's count


def test_titles_read_like_listings(products):
    """Brand first, the type noun once (no ", Wallet Case" tail), amounts only from options;
    bullets name the option values the item page offers."""
    for p in products[:1_000]:
        sub = next(s for s in SUBCATEGORIES if s.query == p.query)
        named = [n for n in sub.nouns if n in p.title.lower()]
        widest = [n for n in named if not any(n != m and n in m for m in named)]
        assert len(widest) == 1, p.title  # the type noun once (names inside it aside)
        for group, values in p.options.items():
            listed = " ".join(p.bullets)
            assert all(value in listed for value in values), (group, p.bullets)


def test_attributes_sometimes_in_text_sometimes_only_listed(products):
    where = Counter()
    for p in products:
        text = " ".join((p.title, p.description, *p.bullets)).lower()
        for attribute in p.attributes:
            where["text" if attribute in text else "list only"] += 1
    share = where["text"] / sum(where.values())
    assert 0.3 < share < 0.7


def test_near_miss_siblings_share_query_and_sit_just_above_a_bound():
    items = list(generate(3_000, seed=0))
    anchors = {item.cluster: item.product for item in items if item.is_anchor}
    siblings = [item for item in items if not item.is_anchor]
    assert len(siblings) > 300
    for item in siblings:
        anchor = anchors[item.cluster]
        first_bound = (int(anchor.price // 10) + 1) * 10
        assert item.product.query == anchor.query
        assert first_bound < item.product.price < first_bound + 25
        assert 0.4 < round(item.product.price - first_bound, 2) % 10 < 5  # just above a multiple


def test_cache_key_changes_when_a_content_file_changes(monkeypatch):
    """An edit to a file that decides catalog content (here the noun lexicon) gives a new
    cache directory, so a stale catalog is never reused."""
    from agentgym_envs.webshop import sources

    before = generated_cache_key(SMALL, 0)
    read = Path.read_bytes

    def edited(path: Path) -> bytes:
        data = read(path)
        return data + b" " if path.name == "title_nouns.json" else data

    monkeypatch.setattr(Path, "read_bytes", edited)
    sources.content_digest.cache_clear()
    try:
        assert generated_cache_key(SMALL, 0) != before
    finally:
        monkeypatch.undo()
        sources.content_digest.cache_clear()
    assert generated_cache_key(SMALL, 0) == before


def test_catalog_api_round_trips():
    catalog = small_catalog()
    assert len(catalog) == SMALL
    assert catalog.cache_key == generated_cache_key(SMALL, 0)
    assert catalog.cache_key.startswith(catalog_module.GENERATOR_VERSION + ".")
    assert catalog.cache_dir.name == catalog.cache_key
    for row in (0, 1, 777, SMALL - 1):
        product = catalog.product(row)
        assert catalog.index_of(product.asin) == row
        assert catalog.index_of(product.asin.lower()) == row
        assert catalog.search_text(row) == search_text_of(product)
    text = catalog.search_text(3)
    product = catalog.product(3)
    assert text.startswith(product.title.lower())
    assert all(v in text for values in product.options.values() for v in values)
    with pytest.raises(KeyError, match="no product with ASIN"):
        catalog.index_of("B0NOTTHERE")
    with pytest.raises(IndexError):
        catalog.product(SMALL)
    assert load_catalog.__defaults__[0] == 100_000
    copy = pickle.loads(pickle.dumps(catalog))
    assert len(copy) == SMALL and copy.product(5) == catalog.product(5)


def test_load_catalog_is_shared_within_a_process(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENTGYM_CACHE", str(tmp_path))
    assert load_catalog(num_products=50, seed=1) is load_catalog(num_products=50, seed=1)
    key = generated_cache_key(50, 1)
    assert (tmp_path / "webshop" / key / COMPLETE_MARKER).exists()


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        ("flip a byte, keep size and mtime", "products.jsonl fails its SHA-256 check"),
        ("flip a byte of offsets.npy, keep mtime", "offsets.npy fails its SHA-256 check"),
        ("truncate", "products.jsonl has"),
        ("drop the marker", "no completion marker"),
    ],
)
def test_corrupt_or_partial_cache_is_rebuilt(tmp_path, monkeypatch, damage, reason):
    monkeypatch.setenv("AGENTGYM_CACHE", str(tmp_path))
    catalog = load_catalog(num_products=120, seed=2)
    reference = [catalog.product(i) for i in range(len(catalog))]
    name = "offsets.npy" if "offsets" in damage else "products.jsonl"
    path = catalog.cache_dir / name
    stat = path.stat()
    data = bytearray(path.read_bytes())
    if damage.startswith("flip"):
        data[-5] ^= 0x01
        path.write_bytes(bytes(data))
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # only the content differs
    elif damage == "truncate":
        path.write_bytes(bytes(data[:-100]))
    else:
        (catalog.cache_dir / COMPLETE_MARKER).unlink()
    assert reason in check_complete(catalog.cache_dir)
    clear_process_cache()
    with pytest.warns(CacheRebuilt, match=f"rebuilding the WebShop catalog in .*{reason}"):
        rebuilt = load_catalog(num_products=120, seed=2)
    assert check_complete(rebuilt.cache_dir) is None
    assert [rebuilt.product(i) for i in range(len(rebuilt))] == reference


def test_bad_sizes_are_refused():
    with pytest.raises(ValueError, match="num_products"):
        load_catalog(num_products=0)
    with pytest.raises(ValueError, match="num_products"):
        list(generate(0, seed=0))


def _rss_mb_after_loading_default_catalog() -> float:
    script = textwrap.dedent(
        """
        from agentgym_envs.webshop.sources import load_catalog
        from agentgym_envs.webshop.goals import catalog_search_engine, goals
        import gc
        catalog = load_catalog()
        engine = catalog_search_engine(catalog)
        goals(catalog, "medium", "test")
        for i in range(0, len(catalog), 97):
            catalog.product(i)
        engine.search("men's dress shirt long sleeve navy blue")
        gc.collect()
        # what the process holds now, after the (cached) build is over
        for line in open("/proc/self/status"):
            if line.startswith("VmRSS"):
                print(int(line.split()[1]) / 1024)
        """
    )
    load = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True)
    assert load.returncode == 0, load.stderr
    return float(load.stdout.split()[-1])


@pytest.mark.slow
def test_default_catalog_builds_and_one_process_stays_under_500_mb():
    catalog = load_catalog()
    assert len(catalog) == 100_000
    meta = catalog.meta
    assert len(set(meta["subcategory"].tolist())) == len(SUBCATEGORIES)
    assert 2.6 <= float(meta["n_attributes"].mean()) <= 3.0
    if Path("/proc/self/status").exists():
        _rss_mb_after_loading_default_catalog()  # first run may build the index
        assert _rss_mb_after_loading_default_catalog() < 500


def test_digest_helper_matches_manifest():
    catalog = small_catalog()
    files = catalog.manifest["files"]
    blob = (catalog.cache_dir / "products.jsonl").read_bytes()
    assert files["products.jsonl"]["sha256"] == hashlib.sha256(blob).hexdigest()
