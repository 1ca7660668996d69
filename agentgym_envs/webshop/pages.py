"""The WebShop site as a page state machine, following the original text env (no gym, no HTML).

Pages: search -> results -> item -> {description, features, reviews}; ``click[buy now]`` -> done.

- ``search[keywords]`` is accepted on every page (the original text env accepts it anywhere); it
  shows results page 1 of the top 50 hits and resets the selected options.
- ``click[x]`` needs ``x`` (lower-cased) to be a clickable of the current page:
  results: ``back to search``, ``< prev`` (page > 1 only), ``next >`` (always, even past the last
  hit), and each listed product's ASIN; item: ``back to search``, ``< prev`` (back to the results
  page it came from), ``description``, ``features``, ``reviews``, ``buy now`` and every option
  value; sub-pages: ``back to search``, ``< prev`` (back to the item, options kept).
  Any visit of a results page (search, paging, ``< prev`` from an item) clears the item and its
  selected options, as the original's results handler does. ``back to search`` keeps the goal.
- Actions parse as the original's regex ``(.+)\\[(.+)\\]`` does (``re.match``: trailing text after
  the closing bracket is ignored; computed in linear time) and the argument is lower-cased.
  ``click[search]`` is refused.

Renderings: ``text`` joins the visible strings with `` [SEP] `` as the original's simple mode does;
``text_rich`` puts one string per line with ``[button] X [button_]`` markers, ``[clicked button]``
for selected options and already visited products, and a ``You have clicked X.`` line per selected
option, as the original's rich mode does.

Deviations (deliberate): whitespace-only strings are dropped instead of producing empty
``[SEP]  [SEP]`` segments; the done page shows the thank-you line and the score only (the
original's hidden goal dump and MTurk code are omitted); reviews are always empty and the rating
is the product's (``N.A.`` by default) as in the original; option values are matched lower-cased
(the original compared them verbatim with the lower-cased argument, so capitalised values could
not be clicked); when two option groups share a value the later group wins, as in the original.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from agentgym_envs.core import ActionError, ActionSet, ActionSpec, Arg
from agentgym_envs.webshop.schema import Product

SEARCH_RETURN_N = 50
RESULTS_PER_PAGE = 10
OBSERVATION_MODES = ("text", "text_rich")

BACK_TO_SEARCH = "Back to Search"
NEXT_PAGE = "Next >"
PREV_PAGE = "< Prev"
BUY_NOW = "Buy Now"
SUB_PAGE_BUTTONS = ("Description", "Features", "Reviews")


class Page(Enum):
    SEARCH = "search"
    RESULTS = "results"
    ITEM = "item"
    DESCRIPTION = "description"
    FEATURES = "features"
    REVIEWS = "reviews"
    DONE = "done"


_SUB_PAGES = {"description": Page.DESCRIPTION, "features": Page.FEATURES, "reviews": Page.REVIEWS}


class ProductSource(Protocol):
    def product(self, index: int) -> Product: ...


class Searcher(Protocol):
    def search(self, query: str, k: int = 50) -> list[int]: ...


@dataclass(frozen=True)
class Segment:
    """One visible string of a page: plain text, a button, an option value or a product link."""

    text: str
    kind: str = "text"  # "text" | "button" | "option" | "product"
    clicked: bool = False


def price_tag(product: Product) -> str:
    """The price as the original prints it: ``$12.99`` or ``$12.99 to $15.99``."""
    if len(product.pricing) >= 2:
        return f"${product.pricing[0]} to ${product.pricing[1]}"
    if product.pricing:
        return f"${product.pricing[0]}"
    return f"${product.price}"


def split_action(action: str) -> tuple[str, str] | None:
    """What ``re.match(r"(.+)\\[(.+)\\]", action)`` captures, found in linear time.

    The regex backtracks quadratically on long bracket-heavy text; this gives the same groups:
    the match lies on the first line ("." skips newlines), the argument ends at the line's last
    "]", and the name ends at the last "[" that leaves a non-empty argument before it.
    """
    line = action.split("\n", 1)[0]
    close = line.rfind("]")
    if close < 3:
        return None
    open_ = line.rfind("[", 1, close - 1)
    if open_ == -1:
        return None
    return line[:open_], line[open_ + 1 : close]


def parse_action(action: str) -> tuple[str, str]:
    """``name[arg]`` -> (name, lower-cased arg); raise ActionError when it is not that shape."""
    groups = split_action(action)
    if groups is None:
        raise ActionError("not an action; use search[keywords] or click[button]")
    return groups[0], groups[1].lower()


def parse_command(action: str) -> tuple[str, str]:
    """``parse_action`` of a ``search`` or ``click``; ActionError for any other name."""
    name, arg = parse_action(action)
    if name not in ACTIONS.names():
        raise ActionError(f"unknown action {name!r}; use search[keywords] or click[button]")
    return name, arg


ACTIONS = ActionSet(
    (
        ActionSpec("search", "search[{query}]", "Search the shop (from any page).",
                   (Arg("query", str, "Words describing the product you want.", "keywords"),)),
        ActionSpec("click", "click[{button}]",
                   "Click a button, product id or option shown on the page.",
                   (Arg("button", str, 'Its text as the page shows it, e.g. a product id such as '
                        '"B0AB12CD34", an option value, "Buy Now", "Next >" or "Back to Search".',
                        lower=True),)),
    ),
    parser=parse_command,
    table=True,
)  # fmt: skip


class ShopSession:
    """One shopper's walk through the site; ``act`` changes pages, ``observation`` renders them."""

    def __init__(
        self,
        products: ProductSource,
        searcher: Searcher,
        instruction: str,
        observation_mode: str = "text",
        on_buy: Callable[[int, Mapping[str, str]], float] | None = None,
    ) -> None:
        if observation_mode not in OBSERVATION_MODES:
            raise ValueError(
                f"observation_mode must be one of {OBSERVATION_MODES}, got {observation_mode!r}"
            )
        self.products = products
        self.searcher = searcher
        self.instruction = instruction
        self.observation_mode = observation_mode
        self.on_buy = on_buy
        self.reset()

    # --------------------------------------------------------------------------------- state
    def reset(self) -> str:
        """Back to the search page with nothing searched, visited or selected."""
        self.page = Page.SEARCH
        self.keywords: str | None = None
        self.results: list[int] = []
        self.page_number = 1
        self.item: int | None = None
        self.options: dict[str, str] = {}
        self.visited: set[int] = set()
        self.purchase: tuple[int, dict[str, str]] | None = None
        self.score: float | None = None
        self._clickables: dict[str, str] | None = None
        self._page_segments: list[Segment] | None = None
        self._products: dict[int, Product] = {}
        return self.observation()

    def product(self, row: int) -> Product:
        """Catalog row ``row``, decoded once per search (catalogs decode rows on demand)."""
        product = self._products.get(row)
        if product is None:
            product = self._products[row] = self.products.product(row)
        return product

    @property
    def page_results(self) -> list[int]:
        """Catalog rows listed on the current results page."""
        start = (self.page_number - 1) * RESULTS_PER_PAGE
        return self.results[start : start + RESULTS_PER_PAGE]

    def clickables(self) -> dict[str, str]:
        """Lower-cased clickable text -> "button", "product:<row>" or "option:<group>"."""
        if self._clickables is None:
            self._clickables = self._compute_clickables()
        return self._clickables

    def _compute_clickables(self) -> dict[str, str]:
        found: dict[str, str] = {}
        for segment in self.segments():
            if segment.kind == "button":
                found[segment.text.lower()] = "button"
        if self.page == Page.RESULTS:
            for row in self.page_results:
                found[self.product(row).asin.lower()] = f"product:{row}"
        elif self.page == Page.ITEM:
            assert self.item is not None
            for group, values in self.product(self.item).options.items():
                for value in values:
                    found[value.lower()] = f"option:{group}"
        found.pop("search", None)
        return found

    def admissible_actions(self) -> list[str]:
        """Exact actions ``act`` accepts: every clickable, plus on the search page one search.

        The search page offers ``search[<instruction>]`` as its single exact search action (any
        other keywords are accepted too but cannot be enumerated).
        """
        actions = [f"click[{name}]" for name in self.clickables()]
        if self.page == Page.SEARCH:
            query = self.instruction.replace("[", " ").replace("]", " ")
            actions.insert(0, f"search[{query}]")
        return actions

    # ------------------------------------------------------------------------------- actions
    def act(self, action: str) -> str:
        """Apply ``search[...]`` or ``click[...]`` and return the new observation."""
        if self.page == Page.DONE:
            raise ActionError("the purchase is made; the episode is over")
        name, arg = parse_command(action)
        if name == "search":
            self.search(arg)
        else:
            self.click(arg)
        self._clickables = None
        self._page_segments = None
        return self.observation()

    def search(self, keywords: str) -> None:
        self.keywords = keywords
        self.results = self.searcher.search(keywords, k=SEARCH_RETURN_N)
        self._products = {row: p for row, p in self._products.items() if row == self.item}
        self._show_results(1)

    def click(self, name: str) -> None:
        target = self.clickables().get(name)
        if target is None:
            hint = " (use search[...] to search)" if name == "search" else ""
            raise ActionError(f"{name!r} is not clickable on the {self.page.value} page{hint}")
        if name == BUY_NOW.lower():
            self._buy()
        elif name == BACK_TO_SEARCH.lower():
            self.reset()
        elif name == NEXT_PAGE.lower() and self.page == Page.RESULTS:
            self._show_results(self.page_number + 1)
        elif name == PREV_PAGE.lower() and self.page == Page.RESULTS:
            self._show_results(self.page_number - 1)
        elif name == PREV_PAGE.lower() and self.page in _SUB_PAGES.values():
            self.page = Page.ITEM
        elif name == PREV_PAGE.lower() and self.page == Page.ITEM:
            self._show_results(self.page_number)
        elif name in _SUB_PAGES and self.page == Page.ITEM:
            self.page = _SUB_PAGES[name]
        elif target.startswith("product:"):
            self.item = int(target.removeprefix("product:"))
            self.visited.add(self.item)
            self.page = Page.ITEM
        elif target.startswith("option:"):
            group = target.removeprefix("option:")
            self.options[group] = name
        else:  # pragma: no cover - every clickable kind is handled above
            raise ActionError(f"{name!r} does nothing here")

    def _show_results(self, page_number: int) -> None:
        self.page = Page.RESULTS
        self.page_number = page_number
        self.item = None
        self.options = {}

    def _buy(self) -> None:
        assert self.item is not None
        self.purchase = (self.item, dict(self.options))
        self.score = self.on_buy(self.item, self.options) if self.on_buy else None
        self.page = Page.DONE

    # ----------------------------------------------------------------------------- rendering
    def observation(self) -> str:
        """The current page in this session's observation mode."""
        segments = self.segments()
        if self.observation_mode == "text":
            return " [SEP] ".join(s.text for s in segments)
        return render_rich(segments)

    def segments(self) -> list[Segment]:
        """The visible strings of the current page (computed once per page state)."""
        if self._page_segments is None:
            self._page_segments = self._compute_segments()
        return self._page_segments

    def _compute_segments(self) -> list[Segment]:
        def button(text: str) -> Segment:
            return Segment(text, "button")

        if self.page == Page.SEARCH:
            return [
                Segment("WebShop"),
                Segment("Instruction:"),
                Segment(self.instruction),
                button("Search"),
            ]
        if self.page == Page.DONE:
            done = [Segment("Thank you for shopping with us!")]
            if self.score is not None:
                done += [Segment("Your score (min 0.0, max 1.0)"), Segment(str(self.score))]
            return done
        head = [Segment("Instruction:"), Segment(self.instruction), button(BACK_TO_SEARCH)]
        if self.page == Page.RESULTS:
            head.append(Segment(f"Page {self.page_number} (Total results: {len(self.results)})"))
            if self.page_number > 1:
                head.append(button(PREV_PAGE))
            head.append(button(NEXT_PAGE))
            for row in self.page_results:
                product = self.product(row)
                head.append(Segment(product.asin, "product", clicked=row in self.visited))
                head.append(Segment(product.title))
                head.append(Segment(price_tag(product)))
            return [s for s in head if s.text.strip()]
        assert self.item is not None
        product = self.product(self.item)
        head.append(button(PREV_PAGE))
        if self.page == Page.ITEM:
            chosen = set(self.options.items())
            for group, values in product.options.items():
                head.append(Segment(group))
                head.extend(
                    Segment(v, "option", clicked=(group, v.lower()) in chosen) for v in values
                )
            head += [
                Segment(product.title),
                Segment(f"Price: {price_tag(product)}"),
                Segment(f"Rating: {product.rating}"),
            ]
            head += [button(name) for name in SUB_PAGE_BUTTONS]
            head.append(button(BUY_NOW))
        elif self.page == Page.DESCRIPTION:
            head.append(Segment(product.description))
        elif self.page == Page.FEATURES:
            head.extend(Segment(bullet) for bullet in product.bullets)
        return [s for s in head if s.text.strip()]  # Page.REVIEWS: no reviews, as the original


def render_rich(segments: list[Segment]) -> str:
    """``text_rich``: one string per line, clickables marked, selected options announced."""
    lines: list[str] = []
    announced: list[str] = []
    for s in segments:
        mark = "clicked button" if s.clicked else "button"
        if s.kind == "button":
            lines.append(f"[button] {s.text} [button_]")
        elif s.kind == "option":
            lines.append(f"  [{mark}] {s.text} [{mark}_]")
            if s.clicked:
                announced.append(f"You have clicked {s.text}.")
        elif s.kind == "product":
            lines.append(f"\n[{mark}] {s.text} [{mark}_]")
        else:
            lines.append(s.text)
    return "\n".join(announced[::-1] + lines)
