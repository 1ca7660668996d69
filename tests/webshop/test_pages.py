"""The page state machine: texts, clickables, navigation, option state, errors, renderings."""

from __future__ import annotations

import pytest

pytest.importorskip("bm25s")

from agentgym_envs.core import ActionError
from agentgym_envs.webshop.pages import Page, ShopSession, parse_action, price_tag, split_action
from agentgym_envs.webshop.search import SearchEngine
from tests.webshop.tiny_catalog import PRODUCTS, TinyCatalog

INSTRUCTION = "i want a dress shirt"


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    catalog = TinyCatalog(tmp_path_factory.mktemp("cache"))
    texts = [catalog.search_text(i) for i in range(len(catalog))]
    engine = SearchEngine.build(texts, catalog.cache_dir / "bm25", show_progress=False)
    return catalog, engine


@pytest.fixture
def session(shop):
    catalog, engine = shop
    bought = []

    def on_buy(row, options):
        bought.append((row, dict(options)))
        return 0.75

    s = ShopSession(catalog, engine, INSTRUCTION, on_buy=on_buy)
    s.bought = bought
    return s


def test_search_page(session):
    assert session.observation() == f"WebShop [SEP] Instruction: [SEP] {INSTRUCTION} [SEP] Search"
    assert session.admissible_actions() == [f"search[{INSTRUCTION}]"]
    with pytest.raises(ActionError, match="use search"):
        session.act("click[search]")


def test_results_pages_and_paging(session):
    obs = session.act("search[Dress Shirt]")
    assert session.page == Page.RESULTS and session.keywords == "dress shirt"
    assert session.results == list(range(12))  # equal scores: catalog order
    assert obs.startswith(
        f"Instruction: [SEP] {INSTRUCTION} [SEP] Back to Search [SEP] "
        "Page 1 (Total results: 12) [SEP] Next > [SEP] "
        "B0SHIRT000 [SEP] Classic Dress Shirt Model 0 [SEP] $20.0 [SEP] B0SHIRT001"
    )
    assert session.admissible_actions() == ["click[back to search]", "click[next >]"] + [
        f"click[b0shirt{i:03d}]" for i in range(10)
    ]
    obs = session.act("click[next >]")
    assert "Page 2 (Total results: 12) [SEP] < Prev [SEP] Next > [SEP] B0SHIRT010" in obs
    assert session.page_results == [10, 11]
    obs = session.act("click[next >]")  # Next > is always there, even past the last hit
    assert obs.endswith("Page 3 (Total results: 12) [SEP] < Prev [SEP] Next >")
    session.act("click[< prev]")
    session.act("click[< prev]")
    assert session.page_number == 1
    with pytest.raises(ActionError, match="not clickable on the results page"):
        session.act("click[< prev]")  # no < Prev on page 1


def test_item_page_options_and_sub_pages(session):
    session.act("search[dress shirt]")
    obs = session.act("click[B0SHIRT003]")  # argument is lower-cased
    assert session.page == Page.ITEM and session.item == 3
    assert obs == (
        f"Instruction: [SEP] {INSTRUCTION} [SEP] Back to Search [SEP] < Prev [SEP] color [SEP] "
        "navy blue [SEP] white [SEP] size [SEP] large [SEP] x-large [SEP] "
        "Classic Dress Shirt Model 3 [SEP] Price: $23.0 [SEP] Rating: N.A. [SEP] Description "
        "[SEP] Features [SEP] Reviews [SEP] Buy Now"
    )
    assert session.admissible_actions() == [
        "click[back to search]", "click[< prev]", "click[description]", "click[features]",
        "click[reviews]", "click[buy now]", "click[navy blue]", "click[white]", "click[large]",
        "click[x-large]",
    ]  # fmt: skip
    session.act("click[white]")
    session.act("click[x-large]")
    session.act("click[navy blue]")  # re-selecting a group replaces its value
    assert session.options == {"color": "navy blue", "size": "x-large"}

    obs = session.act("click[description]")
    assert obs.endswith("< Prev [SEP] A shirt for work and weekends.")
    assert session.admissible_actions() == ["click[back to search]", "click[< prev]"]
    session.act("click[< prev]")
    obs = session.act("click[features]")
    assert obs.endswith("< Prev [SEP] Cotton blend [SEP] Button down collar")
    session.act("click[< prev]")
    obs = session.act("click[reviews]")
    assert obs.endswith("Back to Search [SEP] < Prev")  # no reviews, as the original
    session.act("click[< prev]")
    assert session.page == Page.ITEM and session.options == {
        "color": "navy blue",
        "size": "x-large",
    }

    session.act("click[< prev]")  # back to the results page it came from: options cleared
    assert (session.page, session.page_number, session.options) == (Page.RESULTS, 1, {})


def test_new_search_resets_options_and_is_accepted_anywhere(session):
    session.act("search[dress shirt]")
    session.act("click[b0shirt001]")
    session.act("click[white]")
    session.act("search[leather wallet]")  # from the item page
    assert session.page == Page.RESULTS and session.options == {} and session.item is None
    assert session.results[0] == 13


def test_back_to_search_and_buy(session):
    session.act("search[dress shirt]")
    session.act("click[back to search]")
    assert session.page == Page.SEARCH and session.results == []
    session.act("search[kettle]")
    session.act("click[b0kettle01]")
    obs = session.act("click[Buy Now] now!")  # re.match: trailing text is ignored
    assert session.bought == [(12, {})]
    assert obs == "Thank you for shopping with us! [SEP] Your score (min 0.0, max 1.0) [SEP] 0.75"
    assert session.page == Page.DONE and session.admissible_actions() == []
    with pytest.raises(ActionError, match="episode is over"):
        session.act("search[anything]")


@pytest.mark.parametrize(
    "action, reason",
    [
        ("buy it", "not an action"),
        ("click[]", "not an action"),
        ("Search[shirt]", "unknown action 'Search'"),
        ("press[ok]", "unknown action"),
        ("click[buy now]", "not clickable on the search page"),
    ],
)
def test_invalid_actions_raise_with_reason(session, action, reason):
    with pytest.raises(ActionError, match=reason):
        session.act(action)
    assert session.page == Page.SEARCH  # nothing changed


def test_stopword_search_shows_empty_results(session):
    obs = session.act("search[the of]")
    assert "Page 1 (Total results: 0) [SEP] Next >" in obs and session.results == []


def test_text_rich_rendering(shop):
    catalog, engine = shop
    s = ShopSession(catalog, engine, INSTRUCTION, observation_mode="text_rich")
    assert s.observation() == f"WebShop\nInstruction:\n{INSTRUCTION}\n[button] Search [button_]"
    s.act("search[dress shirt]")
    s.act("click[b0shirt000]")
    s.act("click[< prev]")
    obs = s.observation()
    assert "\n[clicked button] B0SHIRT000 [clicked button_]\nClassic Dress Shirt Model 0" in obs
    assert "\n[button] B0SHIRT001 [button_]" in obs
    s.act("click[b0shirt001]")
    s.act("click[white]")
    obs = s.act("click[large]")
    assert obs.startswith("You have clicked large.\nYou have clicked white.\nInstruction:")
    assert "  [clicked button] white [clicked button_]\n  [button] navy blue" not in obs
    assert "  [button] navy blue [button_]\n  [clicked button] white [clicked button_]" in obs
    assert "[button] Buy Now [button_]" in obs


def test_price_tags_and_parse():
    assert price_tag(PRODUCTS[12]) == "$25.5 to $30.0"
    assert price_tag(PRODUCTS[13]) == "$15.0"
    assert parse_action("click[Next >]") == ("click", "next >")
    # the original's greedy regex: a second "[" makes the name swallow the first bracket
    assert parse_action("search[a [b] c]") == ("search[a ", "b] c")


def test_bad_observation_mode(shop):
    with pytest.raises(ValueError, match="observation_mode"):
        ShopSession(*shop, INSTRUCTION, observation_mode="html")


def test_split_action_equals_the_original_regex():
    import random
    import re

    original = re.compile(r"(.+)\[(.+)\]")
    rng = random.Random(0)
    for _ in range(20_000):
        text = "".join(rng.choice("ab[] \nc") for _ in range(rng.randint(0, 12)))
        match = original.match(text)
        assert split_action(text) == (match.groups() if match else None), repr(text)
    assert split_action("[" * 50_000) is None  # linear: the regex needs seconds here
