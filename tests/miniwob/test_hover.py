"""A click hovers its target first only where hovering could change the page
(``page_js.HOVER_SENSITIVE_FN``): a hover listener or inline hover handler on the path from the
element under the pointer (before or after the move) up to the document, or a ``:hover`` rule
whose compound matches an element there. Elsewhere the press goes at once, saving the hover's
move and the re-read of the target (two of a click step's round trips)."""

from __future__ import annotations

import pytest

from agentgym_envs.miniwob import page_js
from agentgym_envs.miniwob.async_page import AsyncMiniWoBPage
from agentgym_envs.miniwob.page import MAX_STYLESHEET_BYTES, hover_rules

pytest.importorskip("playwright")

#: Four boxes side by side on click-test's page: one with a hover listener inside a plain
#: parent, one with an inline ``onmouseover``, one a ``:hover`` rule styles (through a
#: descendant combinator: the rule's compound is ``.hov``), one plain.
BOXES = """() => {
  const style = document.createElement('style');
  style.textContent = '.hov:hover .inner { color: red; } a.never:hover { color: blue; }';
  document.head.appendChild(style);
  const place = (id, left) => {
    const el = document.createElement('div');
    el.id = id;
    el.style.cssText = `position:absolute;top:5px;left:${left}px;width:20px;height:20px`;
    document.body.appendChild(el);
    return el;
  };
  const parent = place('listened-parent', 200);
  const child = document.createElement('span');
  child.id = 'listened-child';
  child.style.cssText = 'display:block;width:20px;height:20px';
  parent.appendChild(child);
  parent.addEventListener('mouseenter', () => {});
  place('inline', 230).setAttribute('onmouseover', 'void 0');
  place('styled', 260).className = 'hov';
  place('plain', 290);
  return true;
}"""
SENSITIVE_AT = (
    "(id) => {"
    + page_js.HOVER_SENSITIVE_FN
    + """
  const r = document.getElementById(id).getBoundingClientRect();
  return HOVER_SENSITIVE(r.left + r.width / 2, r.top + r.height / 2);
}"""
)


def test_hover_sensitivity_follows_listeners_handlers_and_hover_rules(make_env):
    env = make_env(task="click-test", expert=False)
    env.reset(seed=0)
    page = env.unwrapped.page
    assert page.evaluate(BOXES)
    sensitive = {i: page.evaluate(SENSITIVE_AT, i) for i in
                 ("listened-child", "inline", "styled", "plain")}  # fmt: skip
    assert sensitive == {"listened-child": True, "inline": True, "styled": True, "plain": False}


@pytest.mark.parametrize(
    "listen",
    ["document.addEventListener('mousemove', () => {})", "window.onmouseover = () => {}"],
)
def test_a_hover_listener_on_the_document_or_window_reaches_every_element(make_env, listen):
    env = make_env(task="click-test", expert=False)
    env.reset(seed=0)
    page = env.unwrapped.page
    assert page.evaluate(BOXES) and not page.evaluate(SENSITIVE_AT, "plain")
    page.evaluate(f"() => {{ {listen}; }}")
    assert page.evaluate(SENSITIVE_AT, "plain")


def test_the_drivers_own_pointer_listener_does_not_count(make_env):
    env = make_env(task="click-test", expert=False)
    env.reset(seed=0)  # the driver's capture listener for mousemove is on the document
    assert env.unwrapped.page.evaluate("() => window.__agHoverListened(document)") is False


@pytest.mark.parametrize(("task", "moves"), [("click-test", 0), ("social-media", 1)])
def test_a_click_hovers_first_only_where_hovering_matters(make_env, monkeypatch, task, moves):
    """click-test's button has no hover rule or listener: the press goes at once (no separate
    move); social-media's rows have ``:hover`` styles: the pointer hovers, then presses."""
    env = make_env(task=task, expert=True)
    _, info = env.reset(seed=0)
    calls = []
    original = AsyncMiniWoBPage._move

    async def counting(self, x, y):
        calls.append((x, y))
        await original(self, x, y)

    monkeypatch.setattr(AsyncMiniWoBPage, "_move", counting)
    action = info["expert_action"]
    assert action.startswith("click [")
    env.step(action)
    assert len(calls) == moves


def test_hover_rules_read_file_stylesheets(tmp_path):
    sheet = tmp_path / "a.css"
    sheet.write_text(
        "/* .commented:hover { } */\n"
        ".a:hover, .b { color: red }\n"
        "@media (hover: hover) { .c .d:hover > e { top: 1px } }\n"
        ".plain { color: blue }\n"
    )
    plain = tmp_path / "b.css"
    plain.write_text(".x { color: red }")
    imports = tmp_path / "c.css"
    imports.write_text('@import url("a.css");')
    hrefs = [p.as_uri() for p in (sheet, plain, imports)]
    big = tmp_path / "big.css"
    big.write_text(".a { color: red }\n" * (MAX_STYLESHEET_BYTES // 18 + 1))
    hrefs += [(tmp_path / "missing.css").as_uri(), "https://example.com/x.css", tmp_path.as_uri()]
    hrefs.append(big.as_uri())  # a directory and an oversized sheet are not read
    assert hover_rules(hrefs) == {
        sheet.as_uri(): [".a:hover, .b", ".c .d:hover > e"],
        plain.as_uri(): [],
    }
