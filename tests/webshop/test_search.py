"""BM25 search: analyzer, ranking against hand-worked and reference scores, cache safety."""

from __future__ import annotations

import itertools
import math
import os
import random
from collections import Counter

import numpy as np
import pytest

pytest.importorskip("bm25s")
pytest.importorskip("Stemmer")

from agentgym_envs.core.cache import CacheRebuilt
from agentgym_envs.webshop.search import (
    MARKER_NAME,
    Analyzer,
    SearchEngine,
    SearchIndexError,
    check_index,
    index_directory,
    is_complete,
    shared_engine,
)

CORPUS = [
    "red running shoes for men",  # 0
    "blue running shoes",  # 1
    "red dress",  # 2
    "the wireless headphones",  # 3
    "men's leather wallet",  # 4
    "blue running shoes",  # 5: a duplicate of 1, must rank after it
]


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    return SearchEngine.build(CORPUS, tmp_path_factory.mktemp("idx") / "bm25", show_progress=False)


def test_analyzer_follows_lucene_english():
    analyze = Analyzer()
    assert analyze("The Men's Running Shoes") == ["men", "run", "shoe"]
    assert analyze("3.5 oz, 1,000 pcs") == ["3.5", "oz", "1,000", "pc"]
    assert analyze("x-large") == ["x", "larg"]
    assert analyze("it is not a thing of theirs") == ["thing", "their"]  # "theirs" is no stop word
    assert analyze("") == []


def test_ranking_hand_worked(engine):
    # doc 0 has both terms; "red" (2 of 6 docs) is rarer than "shoe" (3 of 6) and doc 2 is the
    # shortest, so doc 2 beats docs 1 and 5; 1 before its duplicate 5 by row.
    assert engine.search("red shoes") == [0, 2, 1, 5]
    assert engine.search("red shoes", k=2) == [0, 2]
    assert engine.search("mens wallet") == [4, 0]  # "mens" stems to "men" like "men's"
    assert engine.search("men") == [4, 0]  # shorter document first


def test_empty_and_unknown_queries(engine):
    assert engine.search("") == []
    assert engine.search("the of and") == []
    assert engine.search("zebra") == []
    assert engine.search("red", k=0) == []


def _reference_bm25(corpus_terms, query_terms, k1=0.9, b=0.4):
    n = len(corpus_terms)
    avgdl = sum(map(len, corpus_terms)) / n
    df = Counter(t for doc in corpus_terms for t in set(doc))
    scores = []
    for doc in corpus_terms:
        tf = Counter(doc)
        s = 0.0
        for t in query_terms:
            if tf[t]:
                idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                s += idf * tf[t] / (tf[t] + k1 * (1 - b + b * len(doc) / avgdl))
        scores.append(s)
    return scores


def test_matches_reference_lucene_bm25(tmp_path):
    rng = random.Random(7)
    words = [f"word{i}" for i in range(40)]
    corpus = [" ".join(rng.choices(words, k=rng.randint(3, 30))) for _ in range(300)]
    engine = SearchEngine.build(corpus, tmp_path / "bm25", show_progress=False)
    analyze = Analyzer()
    corpus_terms = [analyze(t) for t in corpus]
    for _ in range(30):
        query = " ".join(rng.choices(words, k=rng.randint(1, 6)))
        ref = _reference_bm25(corpus_terms, analyze(query))
        got = engine.search(query, k=50)
        assert got == engine.search_with_bm25s(query, k=50)
        got_scores = [ref[i] for i in got]
        assert all(a >= b - 1e-5 for a, b in itertools.pairwise(got_scores))
        best = sorted((s for s in ref if s > 0), reverse=True)[: len(got)]
        assert got_scores == pytest.approx(best, rel=1e-4)


def test_load_is_memory_mapped_and_identical(engine):
    again = SearchEngine.load(engine.directory)
    assert again.search("blue running shoes") == engine.search("blue running shoes")
    assert again.num_docs == len(CORPUS)


def test_partial_index_is_detected_and_rebuilt(tmp_path):
    directory = tmp_path / "bm25"
    SearchEngine.build(CORPUS, directory, show_progress=False)
    (directory / MARKER_NAME).unlink()  # as if the build had died before finishing
    assert not is_complete(directory)
    with pytest.raises(SearchIndexError, match=r"no intact search index.*partial build"):
        SearchEngine.load(directory)
    calls = []

    def texts():
        calls.append(1)
        return CORPUS

    with pytest.warns(CacheRebuilt, match="partial build"):
        engine = shared_engine(directory, texts, show_progress=False)
    assert calls == [1] and is_complete(directory)
    assert engine.search("red dress") == [2, 0]
    assert shared_engine(directory, texts, show_progress=False) is engine  # one per process
    assert calls == [1]


def test_corrupt_marker_is_not_trusted(tmp_path):
    directory = tmp_path / "bm25"
    SearchEngine.build(CORPUS, directory, show_progress=False)
    (directory / MARKER_NAME).write_text("{not json")
    assert not is_complete(directory)


def test_build_rejects_empty_corpus(tmp_path):
    with pytest.raises(ValueError, match="zero documents"):
        SearchEngine.build([], tmp_path / "bm25", show_progress=False)


def _zero_second_half(path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] + bytes(len(data) - len(data) // 2))


def _reverse_array(path):
    np.save(path, np.load(path)[::-1].copy())


def _truncate(path):
    path.write_bytes(path.read_bytes()[:-8])


@pytest.mark.parametrize(
    ("name", "damage", "reason"),
    [
        ("data.csc.index.npy", _zero_second_half, "data.csc.index.npy fails its SHA-256"),
        ("indices.csc.index.npy", _reverse_array, "indices.csc.index.npy fails its SHA-256"),
        ("data.csc.index.npy", _truncate, "data.csc.index.npy has"),
    ],
)
def test_damaged_index_is_detected_by_content_and_rebuilt(tmp_path, name, damage, reason):
    directory = tmp_path / "bm25"
    reference = SearchEngine.build(CORPUS, directory, show_progress=False)
    answers = [reference.search(q) for q in ("red dress", "blue running shoes", "laptop")]
    path = directory / name
    stat = path.stat()
    damage(path)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # size (but one) and mtime kept
    assert reason in check_index(directory)
    with pytest.raises(SearchIndexError, match=reason):
        SearchEngine.load(directory)
    with pytest.warns(CacheRebuilt, match=f"rebuilding the WebShop search index .*{reason}"):
        engine = shared_engine(directory, lambda: CORPUS, show_progress=False)
    assert [engine.search(q) for q in ("red dress", "blue running shoes", "laptop")] == answers
    assert check_index(directory) is None


def test_short_words_are_not_stemmed_like_lucene():
    analyze = Analyzer()
    assert analyze("us s 4s xl") == ["us", "s", "4s", "xl"]
    assert analyze("runs") == ["run"]


def test_building_a_new_format_removes_older_ones(tmp_path):
    old = tmp_path / "bm25-f2-cat"
    old.mkdir()
    (old / "data.csc.index.npy").write_bytes(b"old")
    (tmp_path / "bm25-f2-cat.lock").write_text("")
    other = tmp_path / "bm25-f2-othercat"  # another catalog's index stays
    other.mkdir()
    directory = index_directory(tmp_path, "cat")
    shared_engine(directory, lambda: CORPUS, show_progress=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [directory.name, directory.name + ".lock", "bm25-f2-othercat"]
    )
