"""BM25 product search for WebShop: Lucene's scoring as the original's pyserini index used it.

The original WebShop searched a pyserini (Lucene) index with BM25 k1 = 0.9, b = 0.4 and the default
English analyzer. We reproduce that analyzer in pure Python (below) and score through ``bm25s`` with
its ``"lucene"`` method, which needs no Java and answers a query on 100k products in a few ms.

Analyzer (Lucene's ``EnglishAnalyzer`` order): split into word tokens the way Lucene's standard
tokenizer mostly does (letters and digits; ``3.5``, ``1,000`` and ``don't`` stay one token; single
characters are kept), drop a trailing possessive ``'s``, lower-case, drop Lucene's 33 English stop
words, Porter-stem (PyStemmer's ``porter``, the original algorithm Lucene's ``PorterStemFilter``
implements). Known deviations from Lucene: UAX#29 corner cases (emoji, ideographs, ``U.S.A``-style
abbreviations mixing letters and digits) and Lucene's lossy one-byte document-length norms.

Ties are broken by catalog row (lower first), as Lucene breaks them by document id.

Index directories are written atomically: built in a temporary sibling, completed by a marker file
(with every file's size and SHA-256) written last, then renamed into place. A directory without a
valid marker, or whose files do not match it by content (checked at every first load in a
process, ~0.03 s for the default index), is partial or corrupt: it is rebuilt with a
``CacheRebuilt`` warning saying why, never used. Each directory is loaded once per process
(memory-mapped) and shared.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import threading
from array import array
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from agentgym_envs.core.cache import build_lock, file_digest, verify_files, warn_rebuild

K1 = 0.9
B = 0.4
INDEX_FORMAT = 3  # bump when the analyzer or the on-disk layout changes: old indexes are rebuilt
MARKER_NAME = "agentgym-index.json"

# Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET (33 words).
LUCENE_ENGLISH_STOP_WORDS = frozenset((
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it",
    "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these",
    "they", "this", "to", "was", "will", "with",
))  # fmt: skip

_TOKEN = re.compile(r"[^\W_]+(?:(?:(?<=[^\W\d_])[.'’](?=[^\W\d_])|(?<=\d)[.,'’](?=\d))[^\W_]+)*")
_POSSESSIVE = re.compile(r"['’]s$")


class SearchIndexError(RuntimeError):
    """The index directory is missing, partial or was built by another version."""


class Analyzer:
    """Text -> stemmed terms, identical for documents and queries."""

    def __init__(self) -> None:
        import Stemmer  # PyStemmer; imported here so `import agentgym_envs` stays light

        self._stem_word: Callable[[str], str] = Stemmer.Stemmer("porter").stemWord
        self._stem_cache: dict[str, str] = {}

    def __call__(self, text: str) -> list[str]:
        terms = []
        cache = self._stem_cache
        for token in _TOKEN.findall(text.lower()):
            token = _POSSESSIVE.sub("", token)
            if not token or token in LUCENE_ENGLISH_STOP_WORDS:
                continue
            stem = cache.get(token)
            if stem is None:
                # Lucene's Porter stemmer leaves words of 1-2 letters alone (Snowball's would
                # turn "s" into "" and "us" into "u").
                stem = self._stem_word(token) if len(token) > 2 else token
                if len(cache) < 1_000_000:
                    cache[token] = stem
            terms.append(stem)
        return terms


class SearchEngine:
    """A loaded BM25 index: query text -> catalog row indices, best first."""

    def __init__(self, retriever, directory: Path) -> None:
        self.directory = directory
        self._analyzer = Analyzer()
        self._vocab: dict[str, int] = retriever.vocab_dict
        scores = retriever.scores
        # Plain ndarray views of the memory maps: slicing them skips np.memmap's overhead.
        self._data = np.asarray(scores["data"])
        self._indices = np.asarray(scores["indices"])
        self._indptr = np.asarray(scores["indptr"])
        self.num_docs: int = int(scores["num_docs"])
        self._retriever = retriever

    # ----------------------------------------------------------------- building and loading
    @classmethod
    def build(
        cls, texts: Iterable[str], directory: Path | str, show_progress: bool = True
    ) -> SearchEngine:
        """Index ``texts`` (one per catalog row, in row order) into ``directory`` and load it.

        An existing complete index in ``directory`` is replaced.
        """
        import bm25s

        directory = Path(directory)
        analyzer = Analyzer()
        vocab: dict[str, int] = {}
        docs: list[array] = []
        rows = texts
        if show_progress:
            from tqdm.auto import tqdm

            total = len(texts) if hasattr(texts, "__len__") else None  # type: ignore[arg-type]
            rows = tqdm(texts, total=total, desc="WebShop index: analyze", unit="doc")
        for text in rows:
            ids = array("i")
            for term in analyzer(text):
                term_id = vocab.get(term)
                if term_id is None:
                    term_id = vocab[term] = len(vocab)
                ids.append(term_id)
            docs.append(ids)
        if not docs:
            raise ValueError("cannot build a search index over zero documents")

        retriever = bm25s.BM25(k1=K1, b=B, method="lucene")
        retriever.index((docs, vocab), show_progress=show_progress)
        del docs

        directory.parent.mkdir(parents=True, exist_ok=True)
        staging = directory.with_name(f"{directory.name}.tmp-{os.getpid()}-{threading.get_ident()}")
        shutil.rmtree(staging, ignore_errors=True)
        retriever.save(staging, show_progress=False)
        files = {f.name: file_digest(f) for f in sorted(staging.iterdir())}
        marker = {
            "format": INDEX_FORMAT,
            "num_docs": int(retriever.scores["num_docs"]),
            "files": files,
        }
        (staging / MARKER_NAME).write_text(json.dumps(marker))
        _replace_directory(staging, directory)
        return cls.load(directory)

    @classmethod
    def load(cls, directory: Path | str) -> SearchEngine:
        """Memory-map an intact index; ``SearchIndexError`` if it is partial, stale or corrupt."""

        directory = Path(directory)
        if (fault := check_index(directory)) is not None:
            raise SearchIndexError(
                f"no intact search index in {directory} ({fault}); build it with "
                "SearchEngine.build() (or delete the directory and let the env rebuild it)"
            )
        return cls._open(directory)

    @classmethod
    def _open(cls, directory: Path) -> SearchEngine:
        """Memory-map a checked index (``load`` without the check)."""
        import bm25s

        try:
            retriever = bm25s.BM25.load(directory, mmap=True, show_progress=False)
        except (OSError, ValueError) as exc:
            raise SearchIndexError(f"search index in {directory} is unreadable: {exc}") from exc
        engine = cls(retriever, directory)
        if engine.num_docs != json.loads((directory / MARKER_NAME).read_text())["num_docs"]:
            raise SearchIndexError(f"search index in {directory} does not match its marker")
        return engine

    # ----------------------------------------------------------------------------- querying
    def terms(self, query: str) -> list[str]:
        """The analyzed query terms (stems, stop words removed)."""
        return self._analyzer(query)

    def _term_ids(self, query: str) -> list[int]:
        vocab, columns = self._vocab, len(self._indptr) - 1  # bm25s adds an unindexed "" term
        ids = (vocab.get(term) for term in self._analyzer(query))
        return [i for i in ids if i is not None and i < columns]

    def search(self, query: str, k: int = 50) -> list[int]:
        """Top ``k`` catalog rows for ``query``, best first; [] when no term matches anything."""
        term_ids = self._term_ids(query)
        if not term_ids or k <= 0:
            return []
        scores = np.zeros(self.num_docs, dtype=np.float32)
        indptr, indices, data = self._indptr, self._indices, self._data
        for term_id in term_ids:  # a repeated query term counts again, as in a Lucene OR query
            start, end = indptr[term_id], indptr[term_id + 1]
            np.add.at(scores, indices[start:end], data[start:end])  # fastest scatter-add
        # The k-th best score bounds the candidates (ties at it included, to break them by row).
        threshold = np.float32(0.0)
        if self.num_docs > k:
            # selecting the k-th smallest of the negated scores is ~3x faster than the
            # (n-k)-th smallest of the scores themselves (numpy's introselect)
            threshold = -np.partition(-scores, k - 1)[k - 1]
        hits = np.flatnonzero(scores >= threshold) if threshold > 0 else np.flatnonzero(scores)
        hit_scores = scores[hits]
        order = np.lexsort((hits, -hit_scores))[:k]  # score descending, then row ascending
        return hits[order].tolist()

    def search_with_bm25s(self, query: str, k: int = 50) -> list[int]:
        """The same search through bm25s's own retrieve(); slower, kept to cross-check `search`."""
        term_ids = self._term_ids(query)
        if not term_ids:
            return []
        scores = self._retriever.get_scores(term_ids)
        hits = np.flatnonzero(scores)
        order = np.lexsort((hits, -scores[hits]))[:k]
        return hits[order].tolist()


def check_index(directory: Path) -> str | None:
    """None when ``directory`` holds an index of the current format whose marker was written last
    and whose files have the SHA-256 the marker recorded; else why not."""
    if not directory.exists():
        return "not built yet"
    try:
        meta = json.loads((directory / MARKER_NAME).read_text())
    except (OSError, ValueError):
        return "no readable completion marker (partial build)"
    if not isinstance(meta, dict) or meta.get("format") != INDEX_FORMAT:
        return f"built in another format than {INDEX_FORMAT}"
    files = meta.get("files")
    if not isinstance(files, dict) or not all(isinstance(f, dict) for f in files.values()):
        return "the marker lists no file checksums"
    if not files:
        return "the marker lists no file checksums"
    return verify_files(directory, files)


def is_complete(directory: Path) -> bool:
    """``check_index(directory) is None``."""
    return check_index(directory) is None


def _replace_directory(staging: Path, directory: Path) -> None:
    """Move a finished index into place; a concurrent builder that won the race is kept."""
    if directory.exists():
        if is_complete(directory):
            aside = directory.with_name(f"{directory.name}.old-{os.getpid()}")
            shutil.rmtree(aside, ignore_errors=True)
            os.replace(directory, aside)
            shutil.rmtree(aside, ignore_errors=True)
        else:
            shutil.rmtree(directory, ignore_errors=True)
    try:
        os.replace(staging, directory)
    except OSError:  # another process moved its complete index in first
        shutil.rmtree(staging, ignore_errors=True)
        if not is_complete(directory):
            raise


# ---------------------------------------------------------------------- shared, per-process
_ENGINES: dict[Path, SearchEngine] = {}
_ENGINES_LOCK = threading.Lock()


def shared_engine(
    directory: Path | str, texts: Callable[[], Iterable[str]], show_progress: bool = True
) -> SearchEngine:
    """The process-wide engine for ``directory``: loaded once, built first if missing or partial.

    ``texts`` is called only when the index has to be built.
    """
    directory = Path(directory).resolve()
    with _ENGINES_LOCK:
        engine = _ENGINES.get(directory)
        if engine is None:
            engine = _try_load(directory)
            if engine is None:
                with build_lock(directory):  # parallel processes build once
                    engine = _try_load(directory, warn=True)
                    if engine is None:
                        engine = SearchEngine.build(texts(), directory, show_progress=show_progress)
                        _remove_older_formats(directory)
            _ENGINES[directory] = engine
        return engine


def _try_load(directory: Path, warn: bool = False) -> SearchEngine | None:
    """The engine in ``directory``, or None when it is missing, partial, corrupt or unreadable
    (then, with ``warn``, a one-line ``CacheRebuilt`` warning says why)."""
    fault = check_index(directory)
    if fault is None:
        try:
            return SearchEngine._open(directory)
        except SearchIndexError as error:
            fault = str(error)
    if warn and directory.exists():
        warn_rebuild("the WebShop search index", directory, fault)
    return None


def _remove_older_formats(directory: Path) -> None:
    """Delete this catalog's indexes of other formats (~40 MB each for the default catalog)."""
    prefix = f"bm25-f{INDEX_FORMAT}-"
    if not directory.name.startswith(prefix):
        return
    key = directory.name.removeprefix(prefix)
    for old in directory.parent.glob(f"bm25-f*-{key}*"):
        if old.name.startswith(prefix) or not re.fullmatch(
            rf"bm25-f\d+-{re.escape(key)}(\.lock)?", old.name
        ):
            continue
        if old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
        else:
            old.unlink(missing_ok=True)


def index_directory(cache_dir: Path | str, cache_key: str) -> Path:
    """Where the index for a catalog with ``cache_key`` lives under the catalog's cache dir."""
    return Path(cache_dir) / f"bm25-f{INDEX_FORMAT}-{cache_key}"
