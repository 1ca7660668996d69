"""What an oracle sees of the live episode, and the small moves every oracle is built from."""

from __future__ import annotations

import re
from typing import Any, Protocol

from agentgym_envs.miniwob.actions import quote


class OracleTask(Protocol):
    """What the oracles read of a live episode (``MiniWoBTask`` is one): typed here so the
    oracles do not import the env that imports them."""

    task_id: str
    page_seed: int
    goal: str
    #: applied actions, and scratch space for what the page no longer shows
    history: list[str]
    memory: dict[str, Any]

    @property
    def utterance(self) -> str: ...

    @property
    def fields(self) -> dict[str, str]: ...

    @property
    def nodes(self) -> list[dict[str, Any]]: ...

    @property
    def page(self) -> Any: ...  # has ``evaluate(script, arg)``, as a Playwright page


_IDS_OF = r"""
([sel, text, exact]) => {
  const ep = String(window.__ag.ep);
  const norm = (s) => s.replace(/\s+/g, ' ').trim();
  const visible = (e) => { const r = e.getBoundingClientRect(), s = getComputedStyle(e);
                           return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'; };
  const own = (e) => e.getAttribute('data-agep') === ep ? +e.getAttribute('data-agid') : null;
  const out = [];
  for (const e of document.querySelectorAll(sel)) {
    if (!visible(e)) continue;
    if (text !== null) { const t = norm(e.textContent);
                         const hit = exact ? t === text
                                           : t.toLowerCase().includes(text.toLowerCase());
                         if (!hit) continue; }
    let id = own(e);
    if (id === null) { const d = Array.from(e.querySelectorAll('[data-agep]'))
                                   .find((x) => own(x) !== null);
                       if (d) id = own(d); }
    if (id === null) { let a = e.parentElement; while (a && own(a) === null) a = a.parentElement;
                       if (a) id = own(a); }
    if (id !== null) out.push(id);
  }
  return out;
}
"""


class View:
    """What an oracle sees: the instruction, the snapshot, and selector lookups on the page."""

    def __init__(self, task: OracleTask) -> None:
        self.task = task
        self.utterance = task.utterance
        self.fields = task.fields
        self.nodes = {n["id"]: n for n in task.nodes if "id" in n}

    def ids(self, selector: str, text: str | None = None, exact: bool = True) -> list[int]:
        return self.task.page.evaluate(_IDS_OF, [selector, text, exact])

    def first(self, selector: str, text: str | None = None, exact: bool = True) -> int | None:
        found = self.ids(selector, text, exact)
        return found[0] if found else None

    def js(self, script: str, arg: Any = None) -> Any:
        return self.task.page.evaluate(script, arg)

    def node(self, element: int | None) -> dict[str, Any]:
        return self.nodes.get(element, {}) if element is not None else {}

    def quoted(self) -> list[str]:
        return re.findall(r'"([^"]*)"', self.utterance)


def click(element: int | None) -> str | None:
    return None if element is None else f"click [{element}]"


def fill(view: View, element: int | None, text: str) -> str | None:
    """Type ``text`` unless the field already holds it (then None: move on)."""
    if element is None:
        return None
    if str(view.node(element).get("value", "")) == text:
        return None
    return f"type [{element}] {quote(text)}"


_AUTOCOMPLETE_MENU = r"""
([id, value]) => {
  // The jQuery UI suggestions of field ``id``: null while closed, else the own id of the item
  // labelled ``value`` (null when it has none yet).
  const ep = String(window.__ag.ep);
  const field = document.querySelector(`[data-agid="${id}"][data-agep="${ep}"]`);
  const widget = field && window.jQuery && $(field).data('ui-autocomplete');
  if (!widget || !widget.menu.element.is(':visible')) return null;
  const norm = (s) => s.replace(/\s+/g, ' ').trim();
  const own = (e) => (e && e.getAttribute('data-agep') === ep ? +e.dataset.agid : null);
  const item = widget.menu.element.find('li.ui-menu-item').toArray()
      .find((li) => norm(li.textContent) === value);
  return {item: item ? own(item.querySelector('.ui-menu-item-wrapper')) ?? own(item) : null,
          found: !!item};
}
"""
#: After typing into an autocomplete field, wait at most this many ``noop`` for its suggestions.
AUTOCOMPLETE_WAITS = 5


def autocomplete(view: View, field: int | None, value: str) -> str | None:
    """Type ``value`` into the autocomplete ``field`` and take it from the suggestions, which
    would otherwise cover what lies below the field (None once done)."""
    typed = fill(view, field, value)
    if typed is not None or field is None:
        return typed
    menu = view.js(_AUTOCOMPLETE_MENU, [field, value])
    if menu is None:  # closed: done, unless the suggestions of the typing are still to come
        history = view.task.history
        waited = next((n for n, a in enumerate(reversed(history)) if a != "noop"), len(history))
        just_typed = waited < len(history) and history[-1 - waited] == value
        return "noop" if just_typed and waited < AUTOCOMPLETE_WAITS else None
    if not menu["found"]:
        return 'press "Escape"'
    return click(menu["item"]) or "noop"  # the snapshot predates the menu: look again


_REACHABLE = """
(id) => {
  const el = document.querySelector(`[data-agid="${id}"][data-agep="${window.__ag.ep}"]`);
  if (!el) return false;
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && (hit === el || el.contains(hit));
}
"""


def reachable(view: View, element: int | None) -> bool:
    """Whether a click on ``element`` (at its centre) would reach it: nothing lies on top."""
    return element is not None and bool(view.js(_REACHABLE, element))


def submit(view: View, label: str = "Submit") -> str | None:
    return click(
        view.first("button", label) or view.first("button, .secondary-action", label, exact=False)
    )


def first_move(*moves: str | None) -> str | None:
    return next((m for m in moves if m is not None), None)
