"""The WebShop product catalog: generated once, cached on disk, memory-mapped and shared.

A catalog directory holds
  ``products.jsonl``  one JSON array per product (``Product`` fields in order), UTF-8;
  ``offsets.npy``     uint64 byte offsets, n + 1 of them (row i = bytes offsets[i]:offsets[i+1]);
  ``meta.npy``        per-row facts goal selection needs without decoding (``META_DTYPE``);
  ``asins.npy``       the ASINs sorted, with ``asin_rows.npy`` their rows (for ``index_of``);
  ``manifest.json``   version, size and SHA-256 of every file; ``COMPLETE`` is written last.
A directory without ``COMPLETE``, or whose files do not match the manifest (checked by content,
every time a process first loads it: ~0.06 s for the default catalog), is partial or corrupt and
is rebuilt with a ``CacheRebuilt`` warning saying why (from the generator, or from the original
files for loaded catalogs). Directories
are built in a temporary sibling and renamed into place under a file lock, so parallel processes
build once. Where a catalog's rows come from (the generator, the original files) is
``sources``; this module is the storage format.

The default catalog (100,000 products, seed 0) lives in
``~/.cache/agentgym/webshop/<cache_key>`` (``AGENTGYM_CACHE`` replaces ``~/.cache/agentgym``),
``cache_key = f"{GENERATOR_VERSION}-n{num_products}-s{seed}"``. Products are decoded on demand
from the memory map, so one catalog costs little resident memory and every env in a process uses
the same ``Catalog`` object (``sources.load_catalog`` caches per process).

Measured (2-core machine shared with other jobs, load ~5; generator wsgen1): the default
100,000-product catalog generates in 12-20 s (peak 64 MB resident) and its BM25 index in 10-17 s;
on disk 94 MB of products + 3 MB of arrays, 40 MB of index, 13 MB of goal lists. One process
holding the catalog, its index and a goal list stays at ~140 MB resident. 1,181,436 products
generate in ~3 min (1.1 GB on disk, 146 MB peak resident: rows are streamed to disk), and index
in ~3 min (3.8 GB peak, in ``search``). The catalog facts: 5 top categories, 120 query
subcategories (breadcrumbs of 2-5 levels), 2,948 attribute phrases (43-46 per subcategory, each
fitting its products), 2.84 attributes and 82% with options per product; 34% of a product's
attributes also appear in its searchable text.
"""

from __future__ import annotations

import json
import mmap
import os
import shutil
import threading
from array import array
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import numpy as np

from agentgym_envs.core.cache import build_lock, cache_home, file_digest, verify_files, warn_rebuild
from agentgym_envs.webshop.schema import Goal, Product

GENERATOR_VERSION = "wsgen2"
DEFAULT_NUM_PRODUCTS = 100_000
ORIGINAL_NUM_PRODUCTS = 1_181_436
COMPLETE_MARKER = "COMPLETE"
DATA_FILES = ("products.jsonl", "offsets.npy", "meta.npy", "asins.npy", "asin_rows.npy")

#: Per-row facts, (name, array typecode): subcategory id (index into vocab.SUBCATEGORIES; -1 for
#: loaded catalogs), cluster id, near-miss siblings in the cluster, anchor flag, attribute and
#: option-group counts, shown price. Stored little-endian as ``META_DTYPE``.
META_COLUMNS = (("subcategory", "h"), ("cluster", "i"), ("siblings", "B"), ("anchor", "B"),
                ("n_attributes", "B"), ("n_groups", "B"), ("price", "f"))  # fmt: skip
META_DTYPE = np.dtype([(name, np.dtype(code).newbyteorder("<")) for name, code in META_COLUMNS])


class CatalogError(RuntimeError):
    """A catalog directory is missing, partial or corrupt."""


def cache_root() -> Path:
    """``$AGENTGYM_CACHE/webshop`` or ``~/.cache/agentgym/webshop``."""
    return cache_home() / "webshop"


def product_to_row(product: Product) -> list:
    return [
        product.asin, product.title, product.category, product.query, product.product_category,
        list(product.bullets), product.description, list(product.pricing), product.price,
        {k: list(v) for k, v in product.options.items()}, list(product.attributes),
        list(product.type_nouns), product.rating,
    ]  # fmt: skip


def row_to_product(row: list) -> Product:
    return Product(
        asin=row[0], title=row[1], category=row[2], query=row[3], product_category=row[4],
        bullets=tuple(row[5]), description=row[6], pricing=tuple(row[7]), price=row[8],
        options={k: tuple(v) for k, v in row[9].items()}, attributes=tuple(row[10]),
        type_nouns=tuple(row[11]), rating=row[12],
    )  # fmt: skip


def search_text_of(product: Product) -> str:
    """What the BM25 index covers, as the original built it: title, description, first bullet
    and ``"group: v1, v2"`` option text joined by ``", and "``, lower-cased."""
    option_text = ", and ".join(
        f"{name}: {', '.join(vals)}" for name, vals in product.options.items()
    )
    first_bullet = product.bullets[0] if product.bullets else ""
    return " ".join((product.title, product.description, first_bullet, option_text)).lower()


class Catalog:
    """Read-only view of one catalog directory; rows are decoded on demand."""

    def __init__(self, directory: Path, cache_key: str) -> None:
        self.cache_dir = Path(directory)
        self.cache_key = cache_key
        self.manifest: dict = json.loads((self.cache_dir / "manifest.json").read_text())
        with open(self.cache_dir / "products.jsonl", "rb") as handle:
            self._blob = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        self._offsets = np.load(self.cache_dir / "offsets.npy", mmap_mode="r")
        self.meta: np.ndarray = np.load(self.cache_dir / "meta.npy", mmap_mode="r")
        self._asins = np.load(self.cache_dir / "asins.npy", mmap_mode="r")
        self._asin_rows = np.load(self.cache_dir / "asin_rows.npy", mmap_mode="r")
        self._goals: list[Goal] | None = None
        goals_file = self.cache_dir / "source_goals.jsonl"
        self.has_source_goals = goals_file.exists()

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def __reduce__(self) -> tuple:
        """Pickle as a path: the copy re-opens the same directory (memory maps don't pickle)."""
        return (Catalog, (self.cache_dir, self.cache_key))

    def __repr__(self) -> str:
        return f"Catalog({len(self)} products, key={self.cache_key!r}, dir={str(self.cache_dir)!r})"

    def _row(self, index: int) -> list:
        if not 0 <= index < len(self):
            raise IndexError(f"product row {index} out of range (catalog has {len(self)})")
        start, end = int(self._offsets[index]), int(self._offsets[index + 1])
        return json.loads(self._blob[start:end])

    def product(self, index: int) -> Product:
        """Decode row ``index`` into a ``Product``."""
        return row_to_product(self._row(index))

    def index_of(self, asin: str) -> int:
        """The row of ``asin``; ``KeyError`` if the catalog has no such product."""
        key = asin.upper().encode("ascii", "replace")
        position = int(np.searchsorted(self._asins, key))
        if position < len(self._asins) and self._asins[position] == key:
            return int(self._asin_rows[position])
        raise KeyError(f"no product with ASIN {asin!r} in {self!r}")

    def sorted_asins(self) -> tuple[np.ndarray, np.ndarray]:
        """(ASINs sorted, as ``S10`` bytes; the row of each), memory-mapped."""
        return self._asins, self._asin_rows

    def search_text(self, index: int) -> str:
        """The text the search index covers for row ``index`` (see ``search_text_of``)."""
        return search_text_of(self.product(index))

    def iter_search_texts(self) -> Iterator[str]:
        for index in range(len(self)):
            yield self.search_text(index)

    def source_goals(self) -> list[Goal]:
        """Goals shipped with a loaded original catalog (human instructions); [] if none."""
        if self._goals is None:
            path = self.cache_dir / "source_goals.jsonl"
            self._goals = []
            if path.exists():
                for line in path.read_text(encoding="utf-8").splitlines():
                    data = json.loads(line)
                    data["type_nouns"] = tuple(data["type_nouns"])
                    data["attributes"] = tuple(data["attributes"])
                    self._goals.append(Goal(**data))
        return self._goals


# ------------------------------------------------------------------------------------ writing
class CatalogWriter:
    """Streams products into a staging directory; ``finish`` seals it with manifest + marker."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self._blob = open(directory / "products.jsonl", "wb")  # noqa: SIM115 - closed in finish
        self._offsets = array("Q", [0])
        self._meta = {name: array(code) for name, code in META_COLUMNS}
        self._asins = bytearray()  # 10 ASCII bytes per row

    def add(self, product: Product, meta: tuple) -> None:
        """Append one product; ``meta`` holds the ``META_DTYPE`` fields in order."""
        line = json.dumps(product_to_row(product), ensure_ascii=False, separators=(",", ":"))
        data = line.encode("utf-8") + b"\n"
        self._blob.write(data)
        self._offsets.append(self._offsets[-1] + len(data))
        for column, value in zip(self._meta.values(), meta, strict=True):
            column.append(value)
        self._asins += product.asin.encode("ascii", "replace")[:10].ljust(10)

    def finish(self, info: dict, goals: Iterable[Goal] = ()) -> None:
        """Write the index files, the manifest (sizes, checksums) and, last, the marker."""
        self._blob.close()
        np.save(
            self.directory / "offsets.npy", np.frombuffer(self._offsets, np.uint64).astype("<u8")
        )
        meta = np.zeros(len(self._offsets) - 1, dtype=META_DTYPE)
        for name, column in self._meta.items():
            meta[name] = np.frombuffer(column, dtype=column.typecode)
        np.save(self.directory / "meta.npy", meta)
        asins = np.frombuffer(bytes(self._asins), dtype="S10")
        order = np.argsort(asins, kind="stable")
        if len(asins) and np.any(asins[order][1:] == asins[order][:-1]):
            raise CatalogError("duplicate ASINs in catalog")
        np.save(self.directory / "asins.npy", asins[order])
        np.save(self.directory / "asin_rows.npy", order.astype("<u4"))
        goal_lines = [json.dumps(g.__dict__, ensure_ascii=False) for g in goals]
        if goal_lines:
            (self.directory / "source_goals.jsonl").write_text("\n".join(goal_lines) + "\n")
        files = {name: file_digest(self.directory / name) for name in _data_files(self.directory)}
        manifest = dict(info, num_products=len(meta), files=files)
        (self.directory / "manifest.json").write_text(json.dumps(manifest, indent=1))
        (self.directory / COMPLETE_MARKER).write_text("ok\n")


def _data_files(directory: Path) -> list[str]:
    extra = ["source_goals.jsonl"] if (directory / "source_goals.jsonl").exists() else []
    return list(DATA_FILES) + extra


def check_complete(directory: Path) -> str | None:
    """None when ``directory`` is a sealed, intact catalog (every file's SHA-256 as the manifest
    says); else why it is not."""
    if not directory.exists():
        return "not built yet"
    if not (directory / COMPLETE_MARKER).exists():
        return "no completion marker (partial build)"
    try:
        files = json.loads((directory / "manifest.json").read_text())["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return "manifest missing or unreadable"
    if not isinstance(files, dict) or not files:
        return "manifest lists no files"
    return verify_files(directory, files)


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the new one, never half."""
    staging = path.with_name(f"{path.name}.tmp-{os.getpid()}-{threading.get_ident()}")
    staging.write_text(text, encoding="utf-8")
    os.replace(staging, path)


def build_directory(directory: Path, fill: Callable[[CatalogWriter], None]) -> None:
    """Build a catalog into ``directory`` atomically (staging dir + rename) unless it is intact."""
    with build_lock(directory):
        fault = check_complete(directory)
        if fault is None:
            return
        if directory.exists():
            warn_rebuild("the WebShop catalog", directory, fault)
        staging = directory.with_name(f"{directory.name}.tmp-{os.getpid()}")
        shutil.rmtree(staging, ignore_errors=True)
        fill(CatalogWriter(staging))
        if directory.exists():
            shutil.rmtree(directory)
        os.replace(staging, directory)
