"""Read the original WebShop data files into our catalog form, for users who have them.

``load_catalog(data_path=folder)`` looks in ``folder`` for
  ``items_shuffle*.json``   a JSON list of scraped products (asin, name, full_description,
                            small_description, pricing like "$12.99" or "$9.99 - $15.99",
                            customization_options {group: [{"value", "image"}] | null}, category,
                            query, product_category, and keys we ignore);
  ``items_ins_v2*.json``    {asin: {"attributes": [...], "instruction": str,
                            "instruction_attributes": [...]}} (product attributes, synthetic goals);
  ``items_human_ins.json``  {asin: [{"instruction", "instruction_attributes",
                            "instruction_options": [values]}]} (human goals; optional).
It applies the original loader's rules (skip ASIN "nan" or longer than 10 and repeats; missing
price -> 100.0; option groups lower-cased, values stripped, "/" -> " | ", lower-cased; query
lower-cased; no attributes -> none) and converts once into a cached catalog directory keyed by
the files' names, sizes and modification times. The product file is streamed, not loaded whole.

Goals: human instructions when ``items_human_ins.json`` exists, else the synthetic instruction
of each product with one option combination. The price bound follows the original rule, drawn
from a per-goal seed (deterministic). Deviations: type nouns come from ``title_nouns``
(spaCy's parse replayed from a lexicon distilled on generated titles; unmeasured on real
listing titles), the shown price of a range is a fixed point inside it instead of a fresh
``random.uniform``, and a wanted option value is assigned to the product's group that offers it.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

from agentgym_envs.webshop.catalog import Catalog, CatalogWriter, build_directory, cache_root
from agentgym_envs.webshop.goals import original_price_bound, stable_int
from agentgym_envs.webshop.schema import Goal, Product
from agentgym_envs.webshop.title_nouns import lexicon_digest, title_nouns

LOADER_VERSION = "wsload2"
DEFAULT_PRICE = 100.0
MAX_RECORD_CHARS = 1 << 26  # a product record longer than this means the JSON is broken


def _find(folder: Path, pattern: str, required: bool) -> Path | None:
    matches = sorted(folder.glob(pattern))
    if not matches and required:
        raise FileNotFoundError(
            f"no {pattern} in {folder}: point data_path at the folder holding the original "
            "WebShop files (items_shuffle*.json, items_ins_v2*.json, items_human_ins.json)"
        )
    return matches[0] if matches else None


def iter_json_array(path: Path, chunk_size: int = 1 << 22) -> Iterator[dict]:
    """Yield the elements of a top-level JSON array one by one, reading ``path`` in chunks."""
    decoder = json.JSONDecoder()
    with open(path, encoding="utf-8") as handle:
        buffer = handle.read(chunk_size).lstrip()
        if not buffer.startswith("["):
            raise ValueError(f"{path} does not hold a JSON array")
        position, at_end = 1, False
        while True:
            while position < len(buffer) and buffer[position] in " \t\r\n,":
                position += 1
            if position < len(buffer) and buffer[position] == "]":
                return
            try:
                item, end = decoder.raw_decode(buffer, position)
            except json.JSONDecodeError as error:
                if at_end:
                    raise ValueError(f"{path} ends inside a JSON value") from None
                if len(buffer) - position > MAX_RECORD_CHARS:  # not a cut record: bad JSON
                    raise ValueError(f"{path} holds invalid JSON: {error.msg}") from None
                more = handle.read(chunk_size)
                at_end = not more
                buffer, position = buffer[position:] + more, 0
                continue
            yield item
            position = end
            if position > chunk_size:
                buffer, position = buffer[position:], 0


def parse_pricing(text: object) -> list[float]:
    """ "$12.99" -> [12.99]; "$9.99 - $15.99" -> [9.99, 15.99]; missing -> [100.0]."""
    if not isinstance(text, str) or not text.strip():
        return [DEFAULT_PRICE]
    prices = []
    for part in text.split("$")[1:]:
        digits = re.sub(r"[^\d.]", "", part)
        if digits.count(".") <= 1 and digits.strip("."):
            prices.append(float(digits))
    return prices[:2] or [DEFAULT_PRICE]


def convert_product(raw: dict, attributes: dict) -> Product:
    """One raw scraped product (and its attribute record) -> ``Product``."""
    asin = raw["asin"]
    pricing = parse_pricing(raw.get("pricing"))
    if len(pricing) == 1:
        price = pricing[0]
    else:
        price = round(
            pricing[0]
            + (pricing[1] - pricing[0]) * random.Random(stable_int("price", asin)).random(),
            2,
        )
    options: dict[str, tuple[str, ...]] = {}
    for name, contents in (raw.get("customization_options") or {}).items():
        if contents:
            values = (c["value"].strip().replace("/", " | ").lower() for c in contents)
            options[name.lower()] = tuple(values)
    bullets = raw.get("small_description") or []
    title = raw.get("name") or ""
    return Product(
        asin=asin,
        title=title,
        category=raw.get("category") or "",
        query=(raw.get("query") or "").lower().strip(),
        product_category=raw.get("product_category") or "",
        bullets=tuple(bullets) if isinstance(bullets, list) else (str(bullets),),
        description=raw.get("full_description") or "",
        pricing=tuple(pricing),
        price=price,
        options=options,
        attributes=tuple((attributes.get(asin) or {}).get("attributes") or ()),
        type_nouns=title_nouns(title),
    )


def wanted_options(product: Product, values: list[str] | dict[str, str]) -> dict[str, str]:
    """Wanted option values -> {group: value}; a dict (group -> value) is kept as it is."""
    if isinstance(values, dict):
        return {str(g).lower(): str(v).strip().lower() for g, v in values.items()}
    wanted: dict[str, str] = {}
    for number, value in enumerate(values):
        value = value.strip().lower()
        group = next((g for g, vals in product.options.items() if value in vals), None)
        group = group if group and group not in wanted else f"option {number + 1}"
        wanted[group] = value
    return wanted


def make_goals(product: Product, human: list[dict] | None, synthetic: dict | None) -> list[Goal]:
    """The goals the original would build on ``product`` (human ones if given)."""
    entries = human if human is not None else ([synthetic] if synthetic else [])
    goals = []
    for number, entry in enumerate(entries):
        attributes = entry.get("instruction_attributes") or []
        text = entry.get("instruction")
        if not attributes or not text:
            continue
        rng = random.Random(stable_int("goal", product.asin, number))
        if human is not None:
            options = wanted_options(product, entry.get("instruction_options") or [])
        else:
            options = {g: rng.choice(v) for g, v in product.options.items() if v}
            text = text + "".join(f", {g}: {v}" for g, v in options.items())
        bound = original_price_bound(product.price, rng)
        price_text = f", and price lower than {bound:.2f} dollars" if bound is not None else ""
        instruction = text.strip(".") + price_text
        goal_id = f"{product.asin}-{number}"
        goals.append(Goal.for_product(product, goal_id, instruction, attributes, options, bound))
    return goals


def load_original_catalog(data_path: str | Path, num_products: int | None = None) -> Catalog:
    """Convert (once) and open the original files in ``data_path``; see the module docstring."""
    folder = Path(data_path).expanduser()
    products_file = _find(folder, "items_shuffle*.json", required=True)
    attributes_file = _find(folder, "items_ins_v2*.json", required=True)
    human_file = _find(folder, "items_human_ins.json", required=False)
    sources = [f for f in (products_file, attributes_file, human_file) if f is not None]
    stamp = [(f.name, f.stat().st_size, f.stat().st_mtime_ns) for f in sources]
    version = [LOADER_VERSION, lexicon_digest()]
    digest = hashlib.sha256(json.dumps([version, stamp, num_products]).encode())
    cache_key = f"original-{digest.hexdigest()[:16]}"
    directory = cache_root() / cache_key

    def fill(writer: CatalogWriter) -> None:
        attributes = json.loads(attributes_file.read_text(encoding="utf-8"))
        human = json.loads(human_file.read_text(encoding="utf-8")) if human_file else None
        seen: set[str] = set()
        goals: list[Goal] = []
        for number, raw in enumerate(iter_json_array(products_file)):
            if num_products is not None and number >= num_products:  # the original's [:n]
                break
            asin = str(raw.get("asin"))
            if asin == "nan" or len(asin) > 10 or asin in seen:
                continue
            seen.add(asin)
            product = convert_product(raw, attributes)
            meta = (-1, len(seen) - 1, 0, 1, len(product.attributes), len(product.options),
                    product.price)  # fmt: skip
            writer.add(product, meta)
            human_entries = human.get(asin) if human is not None else None
            if human is None or human_entries:
                goals += make_goals(product, human_entries, attributes.get(asin))
        writer.finish({"loader": LOADER_VERSION, "sources": stamp}, goals)

    build_directory(directory, fill)
    return Catalog(directory, cache_key)
