"""Where a WebShop catalog's rows come from: the generator (built once into the cache) or the
original WebShop files (converted by ``loader``); one ``Catalog`` object per source and process.
The storage format itself is ``catalog``."""

from __future__ import annotations

import functools
import hashlib
import threading
from collections.abc import Callable
from pathlib import Path

from agentgym_envs.webshop.catalog import (
    DEFAULT_NUM_PRODUCTS,
    GENERATOR_VERSION,
    ORIGINAL_NUM_PRODUCTS,
    Catalog,
    CatalogWriter,
    build_directory,
    cache_root,
    check_complete,
)
from agentgym_envs.webshop.generator import generate
from agentgym_envs.webshop.loader import load_original_catalog
from agentgym_envs.webshop.title_nouns import lexicon, lexicon_digest

_CATALOGS: dict[tuple, Catalog] = {}
_CATALOGS_LOCK = threading.Lock()


#: The files whose content decides a generated catalog and its goal lists. Their digest is part
#: of the cache key, so an edit to any of them builds a new cache instead of reusing a stale one.
CONTENT_FILES = ("vocab.py", "product_text.py", "generator.py", "title_nouns.py",
                 "title_nouns.json", "instructions.py", "goals.py")  # fmt: skip


@functools.cache
def content_digest() -> str:
    """The first 8 hex digits of the SHA-256 of ``CONTENT_FILES``."""
    digest = hashlib.sha256()
    for name in CONTENT_FILES:
        digest.update((Path(__file__).parent / name).read_bytes())
    return digest.hexdigest()[:8]


def generated_cache_key(num_products: int, seed: int) -> str:
    """The cache directory name: generator version, content digest, size and seed."""
    return f"{GENERATOR_VERSION}.{content_digest()}-n{num_products}-s{seed}"


def _fill_generated(num_products: int, seed: int) -> Callable[[CatalogWriter], None]:
    def fill(writer: CatalogWriter) -> None:
        from tqdm.auto import tqdm

        rows = generate(num_products, seed)
        for item in tqdm(rows, total=num_products, desc="WebShop catalog", unit="product",
                         mininterval=1.0, disable=num_products < 20_000):  # fmt: skip
            p = item.product
            meta = (item.subcategory, item.cluster, item.siblings, item.is_anchor,
                    len(p.attributes), len(p.options), p.price)  # fmt: skip
            writer.add(p, meta)
        info = {"generator": GENERATOR_VERSION, "content": content_digest(), "seed": seed,
                "type_nouns": _nouns_source()}  # fmt: skip
        writer.finish(info)

    return fill


def _nouns_source() -> str:
    """What found the title nouns, for the manifest."""
    return f"title_nouns lexicon {lexicon_digest()} (from {lexicon()['source']})"


def load_catalog(
    num_products: int | None = DEFAULT_NUM_PRODUCTS,
    seed: int = 0,
    data_path: str | Path | None = None,
) -> Catalog:
    """The process-wide catalog: generated (and cached) or, with ``data_path``, the original
    WebShop files converted by ``loader`` (then ``num_products`` keeps the first N products, as
    the original did; None keeps all). Built on first use, then memory-mapped."""
    if data_path is not None:
        key = ("original", str(Path(data_path).resolve()), num_products)
        with _CATALOGS_LOCK:
            if key not in _CATALOGS:
                _CATALOGS[key] = load_original_catalog(data_path, num_products=num_products)
            return _CATALOGS[key]
    if not isinstance(num_products, int) or num_products < 1:
        raise ValueError(f"num_products must be a positive int, got {num_products!r}")
    if num_products > 10 * ORIGINAL_NUM_PRODUCTS:
        raise ValueError(f"num_products={num_products} is above the supported 11,814,360")
    cache_key = generated_cache_key(num_products, seed)
    directory = cache_root() / cache_key
    key = ("generated", str(directory))
    with _CATALOGS_LOCK:
        catalog = _CATALOGS.get(key)
        if catalog is None:
            if check_complete(directory) is not None:
                build_directory(directory, _fill_generated(num_products, seed))
            catalog = _CATALOGS[key] = Catalog(directory, cache_key)
        return catalog


def clear_process_cache() -> None:
    """Forget catalogs loaded in this process (tests use it after editing files on disk)."""
    with _CATALOGS_LOCK:
        _CATALOGS.clear()


__all__ = ["clear_process_cache", "generated_cache_key", "load_catalog"]
