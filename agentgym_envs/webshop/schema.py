"""The records WebShop's pages, search and reward share: one product and one goal.

Field meanings follow the original WebShop (Yao et al. 2022), re-derived from its paper and rules;
``type_nouns`` replaces the original's run-time spaCy parse of the title (``title_nouns``, stored at
catalog build time).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Product:
    """One catalog item, as the item page and the reward see it."""

    asin: str  # "B0" + 8 upper-case base-36 characters, unique in the catalog
    title: str
    category: str  # top category: one of the 5 (beauty, electronics, fashion, food, furniture)
    query: str  # the query subcategory it was "scraped" under, e.g. "men's dress shirts"
    product_category: (
        str  # breadcrumb joined by " › ", e.g. "Clothing, Shoes & Jewelry › Men › Shirts"
    )
    bullets: tuple[str, ...]  # "About this item" bullet points (the Features sub-page)
    description: str  # the Description sub-page
    pricing: tuple[float, ...]  # one price, or (low, high) for a price range
    price: float  # the price shown on the item page (a point inside the range for ranges)
    options: dict[str, tuple[str, ...]] = field(default_factory=dict)  # group -> values, e.g. size
    attributes: tuple[str, ...] = ()  # the product's attribute phrases, e.g. "machine wash"
    type_nouns: tuple[str, ...] = ()  # the title's nouns, lower case, in order with repeats
    rating: str = "N.A."


@dataclass(frozen=True)
class Goal:
    """One shopping instruction and what the reward checks it against."""

    goal_id: str
    asin: str  # the target product
    instruction: str  # what the agent reads
    query: str  # the target's query subcategory
    category: str
    product_category: str  # the target's breadcrumb
    title: str  # the target's title (r_type compares title nouns)
    type_nouns: tuple[str, ...]  # the target title's nouns
    attributes: tuple[str, ...]  # attributes the instruction asks for
    options: dict[str, str]  # group -> wanted value; the reward reads the values only
    price_upper: float | None  # None: no price constraint

    @classmethod
    def for_product(
        cls,
        product: Product,
        goal_id: str,
        instruction: str,
        attributes: Iterable[str],
        options: Mapping[str, str],
        price_upper: float | None,
    ) -> Goal:
        """A goal whose target is ``product``: the type fields come from the product itself."""
        return cls(
            goal_id=goal_id,
            asin=product.asin,
            instruction=instruction,
            query=product.query,
            category=product.category,
            product_category=product.product_category,
            title=product.title,
            type_nouns=product.type_nouns,
            attributes=tuple(attributes),
            options=dict(options),
            price_upper=price_upper,
        )
