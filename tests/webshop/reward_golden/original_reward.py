"""Score drawn cases with the ORIGINAL WebShop reward functions (run in a scratch venv).

    python original_reward.py --webshop PATH/TO/WebShop cases.jsonl --out scored.jsonl

PATH/TO/WebShop is a checkout of princeton-nlp/WebShop (HEAD 64fa2a5 was used); nothing of it
is copied here: its ``web_agent_site/engine/goal.py`` and ``normalize.py`` are imported as they
are. The scratch venv needs what those import, at the original's pins: ``thefuzz==0.19.0`` (no
python-Levenshtein: the pinned requirements do not install it, so thefuzz falls back to
difflib's SequenceMatcher) and ``rich``.

spaCy is replaced by a stand-in ``nlp`` that tags each case's stored title nouns as NOUN: the
golden test checks the reward's rules given the nouns; how well the stored nouns agree with
spaCy's own parse is measured separately (see README.md).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import types
from pathlib import Path

NOUNS: dict[str, list[str]] = {}  # title -> nouns, set per case before scoring


class _Token:
    def __init__(self, text: str) -> None:
        self.text, self.pos_ = text, "NOUN"


def _nlp(text: str) -> list[_Token]:
    return [_Token(noun) for noun in NOUNS[text]]


def load_original(webshop: Path) -> types.ModuleType:
    """Import the original goal.py with spaCy stood in for (see the module docstring)."""
    spacy = types.ModuleType("spacy")
    spacy.load = lambda name: _nlp  # type: ignore[attr-defined]
    sys.modules["spacy"] = spacy
    sys.path.insert(0, str(webshop))
    path = webshop / "web_agent_site" / "engine" / "goal.py"
    spec = importlib.util.spec_from_file_location("original_goal", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def score(original: types.ModuleType, case: dict) -> dict:
    product, goal = case["product"], case["goal"]
    # a title may appear with and without nouns across cases: key each side separately
    product_key, goal_key = "P\x00" + product["title"], "G\x00" + goal["title"]
    NOUNS[product_key], NOUNS[goal_key] = product["type_nouns"], goal["type_nouns"]
    bought = {
        "query": product["query"], "product_category": product["product_category"],
        "name": product_key, "Title": product["title"], "Attributes": product["attributes"],
        "BulletPoints": product["bullets"], "Description": product["description"],
    }  # fmt: skip
    wanted = {
        "query": goal["query"], "product_category": goal["product_category"], "name": goal_key,
        "attributes": goal["attributes"], "goal_options": list(goal["options"].values()),
        "price_upper": 1000000 if goal["price_upper"] is None else goal["price_upper"],
    }  # fmt: skip
    total, info = original.get_reward(
        bought, wanted, price=case["price"], options=case["selected"], verbose=True
    )
    r_type = original.get_type_reward(bought, wanted)
    _, n_att = original.get_attribute_reward(bought, wanted)
    _, n_opt = original.get_option_reward(list(case["selected"].values()), wanted["goal_options"])
    return {
        "score": total, "r_type": r_type["r_type"], "title_score": r_type["title_score"],
        "query_match": r_type["query_match"], "category_match": r_type["category_match"],
        "n_att": n_att, "n_opt": n_opt, "r_price": bool(info.get("r_price", True)),
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--webshop", type=Path, required=True, help="a WebShop checkout")
    parser.add_argument("cases", type=Path, help="JSONL from draw_cases.py")
    parser.add_argument("--out", type=Path, required=True,
                        help="JSONL to write: each case with its 'expected' values")  # fmt: skip
    args = parser.parse_args()
    original = load_original(args.webshop)
    with args.cases.open(encoding="utf-8") as src, args.out.open("w", encoding="utf-8") as dst:
        for line in src:
            case = json.loads(line)
            case["expected"] = score(original, case)
            dst.write(json.dumps(case, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
