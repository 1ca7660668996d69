"""A hand-built 14-product catalog and 4 goals: engine tests that need no generated catalog."""

from __future__ import annotations

from pathlib import Path

from agentgym_envs.webshop.schema import Goal, Product

SHIRTS = "Clothing, Shoes & Jewelry › Men › Clothing › Shirts"


def _shirt(i: int, title: str, price: float, **extra) -> Product:
    fields = dict(
        asin=f"B0SHIRT{i:03d}",
        title=title,
        category="fashion",
        query="men's dress shirts",
        product_category=SHIRTS,
        bullets=("Cotton blend", "Button down collar"),
        description="A shirt for work and weekends.",
        pricing=(price,),
        price=price,
        options={"color": ("navy blue", "white"), "size": ("large", "x-large")},
        attributes=("long sleeve",),
        type_nouns=("shirt",),
    )
    fields.update(extra)
    return Product(**fields)


PRODUCTS: list[Product] = [
    _shirt(i, f"Classic Dress Shirt Model {i}", 20.0 + i) for i in range(12)
] + [
    Product(
        asin="B0KETTLE01",
        title="Electric Kettle 1.7 Liter Stainless Steel",
        category="furniture",
        query="kitchen appliances",
        product_category="Home & Kitchen › Kitchen & Dining › Small Appliances › Kettles",
        bullets=("Boils water fast", "Auto shut off"),
        description="A fast kettle with auto shut off.",
        pricing=(25.5, 30.0),
        price=27.25,
        options={},
        attributes=("auto shut off", "stainless steel"),
        type_nouns=("kettle", "liter", "steel"),
    ),
    Product(
        asin="B0WALLET01",
        title="Men's Leather Wallet Slim Bifold",
        category="fashion",
        query="men's wallets",
        product_category="Clothing, Shoes & Jewelry › Men › Accessories › Wallets",
        bullets=("Genuine leather",),
        description="Slim wallet with RFID blocking.",
        pricing=(15.0,),
        price=15.0,
        options={"color": ("black", "brown")},
        attributes=("rfid blocking", "genuine leather"),
        type_nouns=("men", "leather", "wallet", "bifold"),
        rating="4.5",
    ),
]


class TinyCatalog:
    """The catalog API the engine relies on, over ``PRODUCTS``."""

    cache_key = "tiny-v1"

    def __init__(self, cache_dir: Path) -> None:
        self.cache_dir = Path(cache_dir)
        self._rows = {p.asin: i for i, p in enumerate(PRODUCTS)}

    def __len__(self) -> int:
        return len(PRODUCTS)

    def product(self, index: int) -> Product:
        return PRODUCTS[index]

    def index_of(self, asin: str) -> int:
        return self._rows[asin]

    def search_text(self, index: int) -> str:
        p = PRODUCTS[index]
        values = " ".join(v for vs in p.options.values() for v in vs)
        return " ".join([p.title, p.description, p.bullets[0] if p.bullets else "", values])


def _goal(goal_id: str, product: Product, instruction: str, attributes, options, price_upper):
    return Goal.for_product(product, goal_id, instruction, attributes, options, price_upper)


GOALS: list[Goal] = [
    _goal(
        "tiny-0",
        PRODUCTS[12],
        "i need a stainless steel electric kettle with auto shut off, "
        "price lower than 40.00 dollars",
        ["auto shut off"],
        {},
        40.0,
    ),
    _goal(
        "tiny-1",
        PRODUCTS[13],
        "i want a slim leather wallet with rfid blocking in brown",
        ["rfid blocking"],
        {"color": "brown"},
        None,
    ),
    # every shirt scores the same for this instruction: model 11 is on results page 2
    _goal(
        "tiny-2",
        PRODUCTS[11],
        "i want a classic dress shirt in navy blue, x-large, price lower than 40.00 dollars",
        ["long sleeve"],
        {"color": "navy blue", "size": "x-large"},
        40.0,
    ),
    # the instruction finds nothing: the oracle has to search the title
    _goal("tiny-3", PRODUCTS[13], "a present for my dad", ["genuine leather"], {}, None),
]
