"""The original-files loader, on tiny files written here in the original WebShop layout."""

from __future__ import annotations

import json

import pytest

from agentgym_envs.webshop.goals import goals, price_candidates
from agentgym_envs.webshop.loader import iter_json_array, parse_pricing, wanted_options
from agentgym_envs.webshop.sources import clear_process_cache, load_catalog
from agentgym_envs.webshop.title_nouns import title_nouns


def _raw(asin: str, name: str, pricing, options=None, **extra) -> dict:
    record = {
        "asin": asin,
        "name": name,
        "full_description": f"All about {name}.",
        "small_description": [f"{name} feature one", "feature two"],
        "pricing": pricing,
        "customization_options": options,
        "images": ["https://example.invalid/a.jpg"],
        "category": "beauty",
        "query": " Hair Loss Products ",
        "product_category": "Beauty & Personal Care › Hair Care › Hair Loss Products",
        "brand": "ignored",
        "seller_id": "ignored",
    }
    record.update(extra)
    return record


PRODUCTS = [
    _raw("B000000001", "Biotin Shampoo for Thinning Hair", "$12.99",
         {"Size": [{"value": "8 Fl Oz/Pack of 2", "image": None},
                   {"value": " 16 fl oz ", "image": None}],
          "Scent": None}),
    _raw("nan", "Broken Record", "$5.00"),
    _raw("B000000002", "Rosemary Hair Growth Oil", "$9.99 - $15.49",
         {"Color": [{"value": "Amber Bottle"}, {"value": "Clear"}]}),
    _raw("B000000001", "Duplicate Of The First", "$1.00"),
    _raw("B0000000030", "ASIN Too Long", "$2.00"),
    _raw("B000000004", "Scalp Massager Brush", None, small_description="one bullet"),
]  # fmt: skip
ATTRIBUTES = {
    "B000000001": {"attributes": ["hair growth", "sulfate free"],
                   "instruction": "i need a biotin shampoo for hair growth",
                   "instruction_attributes": ["hair growth"]},
    "B000000002": {"attributes": ["rosemary oil"], "instruction": "rosemary oil please",
                   "instruction_attributes": ["rosemary oil"]},
}  # fmt: skip
HUMAN = {
    "B000000001": [
        {"asin": "B000000001", "instruction": "i want a sulfate free biotin shampoo.",
         "instruction_attributes": ["sulfate free", "hair growth"],
         "instruction_options": ["16 fl oz"]},
        {"asin": "B000000001", "instruction": "no attributes here",
         "instruction_attributes": [], "instruction_options": []},
    ],
    "B000000002": [
        {"asin": "B000000002", "instruction": "find rosemary oil in a clear bottle",
         "instruction_attributes": ["rosemary oil"], "instruction_options": ["clear"]},
    ],
}  # fmt: skip


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENTGYM_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "items_shuffle_1000.json").write_text(json.dumps(PRODUCTS, indent=1))
    (folder / "items_ins_v2_1000.json").write_text(json.dumps(ATTRIBUTES))
    (folder / "items_human_ins.json").write_text(json.dumps(HUMAN))
    clear_process_cache()
    yield folder
    clear_process_cache()


def test_products_are_converted_by_the_original_rules(data_dir):
    catalog = load_catalog(num_products=None, data_path=data_dir)
    assert len(catalog) == 3  # "nan", the repeat and the 11-character ASIN are skipped
    shampoo = catalog.product(catalog.index_of("B000000001"))
    assert shampoo.title == "Biotin Shampoo for Thinning Hair"
    assert shampoo.query == "hair loss products"
    assert shampoo.pricing == (12.99,) and shampoo.price == 12.99
    assert shampoo.options == {"size": ("8 fl oz | pack of 2", "16 fl oz")}
    assert shampoo.attributes == ("hair growth", "sulfate free")
    assert shampoo.bullets[0] == "Biotin Shampoo for Thinning Hair feature one"
    assert shampoo.description == "All about Biotin Shampoo for Thinning Hair."
    assert "shampoo" in shampoo.type_nouns and "for" not in shampoo.type_nouns
    oil = catalog.product(catalog.index_of("B000000002"))
    assert oil.pricing == (9.99, 15.49) and 9.99 <= oil.price <= 15.49
    brush = catalog.product(catalog.index_of("B000000004"))
    assert brush.pricing == (100.0,) and brush.bullets == ("one bullet",)
    assert brush.attributes == () and brush.options == {}


def test_human_goals_keep_text_and_get_the_original_price_bound(data_dir):
    catalog = load_catalog(num_products=None, data_path=data_dir)
    every = [
        g for split in ("train", "valid", "test", "ood") for g in goals(catalog, "medium", split)
    ]
    assert len(every) == 2  # the goal without attributes is skipped, as in the original
    by_asin = {g.asin: g for g in every}
    shampoo = by_asin["B000000001"]
    bound = shampoo.price_upper
    assert bound in price_candidates(12.99)[1:]
    assert shampoo.instruction == (
        f"i want a sulfate free biotin shampoo, and price lower than {bound:.2f} dollars"
    )
    assert shampoo.attributes == ("sulfate free", "hair growth")
    assert shampoo.options == {"size": "16 fl oz"}
    assert by_asin["B000000002"].options == {"color": "clear"}
    assert wanted_options(shampoo_product(catalog), {"Size": "8 fl oz"}) == {"size": "8 fl oz"}
    assert wanted_options(shampoo_product(catalog), ["purple", "16 fl oz"]) == {
        "option 1": "purple", "size": "16 fl oz"}  # fmt: skip
    assert load_catalog(num_products=None, data_path=data_dir) is catalog  # shared per process


def shampoo_product(catalog):
    return catalog.product(catalog.index_of("B000000001"))


def test_num_products_keeps_the_first_records_like_the_original(data_dir):
    catalog = load_catalog(num_products=2, data_path=data_dir)
    assert len(catalog) == 1 and catalog.product(0).asin == "B000000001"


def test_synthetic_instructions_are_used_without_human_file(data_dir):
    (data_dir / "items_human_ins.json").unlink()
    catalog = load_catalog(num_products=None, data_path=data_dir)
    texts = {g.asin: g.instruction for s in ("train", "valid", "test", "ood")
             for g in goals(catalog, "medium", s)}  # fmt: skip
    assert texts["B000000001"].startswith("i need a biotin shampoo for hair growth, size: ")


def test_missing_files_explain_what_to_do(tmp_path):
    with pytest.raises(FileNotFoundError, match="items_shuffle"):
        load_catalog(data_path=tmp_path)


def test_streaming_reader_matches_json_load_across_chunk_boundaries(tmp_path):
    path = tmp_path / "items.json"
    path.write_text(json.dumps(PRODUCTS))
    assert list(iter_json_array(path, chunk_size=7)) == PRODUCTS
    path.write_text(json.dumps(PRODUCTS)[:-40])
    with pytest.raises(ValueError, match="ends inside"):
        list(iter_json_array(path, chunk_size=64))


def test_pricing_and_title_nouns():
    assert parse_pricing("$12.99") == [12.99]
    assert parse_pricing("$1,299.00 - $1,499.50") == [1299.0, 1499.5]
    assert parse_pricing("") == [100.0] and parse_pricing(None) == [100.0]
    # what spaCy 3.8 + en_core_web_sm 3.8 finds in this title, too
    assert title_nouns("Men's Slim Fit Dress Shirt for Work, Navy") == (
        "men", "slim", "fit", "dress", "shirt", "work", "navy")  # fmt: skip
