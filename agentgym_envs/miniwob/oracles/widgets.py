"""Oracles for jQuery UI widgets and timing: menus, pie menu, sliders, terminal, waits."""

from __future__ import annotations

import functools
import re

from agentgym_envs.miniwob.actions import quote
from agentgym_envs.miniwob.oracles.view import View, click, fill, first_move, submit

_MENU_CHAIN = """
([labels, icon]) => {
  // The chain of menu items (top level first) that leads to the wanted item.
  const text = (li) => li.querySelector(':scope > div').textContent.replace(/\\s+/g, ' ').trim();
  let chain = [];
  if (icon) {
    const hit = document.querySelector('#menu .' + icon);
    let li = hit && hit.closest('li.ui-menu-item');
    while (li) { chain.unshift(li); li = li.parentElement.closest('li.ui-menu-item'); }
  } else {
    let scope = document.querySelector('#menu');
    for (const label of labels) {
      const li = Array.from(scope.querySelectorAll(':scope > li.ui-menu-item'))
          .find((x) => text(x) === label);
      if (!li) return null;
      chain.push(li);
      scope = li.querySelector(':scope > ul') || li;
    }
  }
  if (!chain.length) return null;
  const ep = String(window.__ag.ep);
  return chain.map((li) => {
    const div = li.querySelector(':scope > div'), r = div.getBoundingClientRect();
    return [div.getAttribute('data-agep') === ep ? +div.getAttribute('data-agid') : null,
            r.width > 0 && r.height > 0];
  });
}
"""


def _menu_move(view: View, labels: list[str], icon: str = "") -> str | None:
    """Hover down the chain of parent items, then click the wanted item (noop while opening)."""
    chain = view.js(_MENU_CHAIN, [labels, icon])
    if not chain:
        return None
    *parents, (target, target_visible) = chain
    if target_visible and target is not None:
        return click(target)
    for index, (element, visible) in enumerate(parents):
        child_visible = chain[index + 1][1]
        if visible and not child_visible:
            acted = [a for a in view.task.history if a != "noop"]
            hovered = acted[-1:] == [f"hover [{element}]"]  # hovered: wait for the submenu
            return "noop" if hovered or element is None else f"hover [{element}]"
    return "noop"


def click_menu(view: View) -> str | None:
    path = [label.strip() for label in view.utterance.split("Select ", 1)[1].split(">")]
    return _menu_move(view, path)


def click_menu_2(view: View) -> str | None:
    if not view.js("() => $('#menu').is(':visible')"):
        return click(view.first("#open-menu"))
    icon = re.search(r"\[(ui-icon-[\w-]+)\]", view.task.goal)
    if icon:
        return _menu_move(view, [], icon.group(1))
    label = view.quoted()[1]
    items = view.js(
        """(label) => { const li = Array.from(document.querySelectorAll('#menu li.ui-menu-item'))
             .find((x) => x.querySelector(':scope > div').textContent.trim() === label);
           const path = []; let cur = li;
           while (cur) { path.unshift(cur.querySelector(':scope > div').textContent.trim());
                         cur = cur.parentElement.closest('li.ui-menu-item'); }
           return path; }""",
        label,
    )
    return _menu_move(view, items)


def click_pie(view: View) -> str | None:
    label = view.quoted()[0]
    spreader = view.first("#area svg text", "+")
    if spreader is not None:
        return click(spreader)
    # the slice's path takes the click (its label does not, for the pre-selected slice)
    slice_path = view.js(
        """(label) => { const t = Array.from(document.querySelectorAll('#area svg text'))
                          .find((x) => x.textContent === label);
                        const p = t && document.getElementById(t.id.replace('-title-', '-slice-'));
                        return p && p.getAttribute('data-agid'); }""",
        label,
    )
    return click(int(slice_path)) if slice_path else "noop"


def _slider_keys(view: View, current: int, target: int, handle: int | None) -> str | None:
    if current == target:
        return None
    if not view.node(handle).get("focused"):
        return click(handle)
    key = "ArrowRight" if current < target else "ArrowLeft"
    if abs(current - target) >= 10:
        key = "PageUp" if current < target else "PageDown"
    return f'press "{key}"'


def use_slider(view: View) -> str | None:
    target = int(re.search(r"Select (-?\d+)", view.utterance).group(1))
    current = int(view.js("() => $('#slider').slider('value')"))
    if current == target:
        return submit(view)
    handle = view.first("#slider .ui-slider-handle")
    # clicking the handle can move it: reread after the click
    return _slider_keys(view, current, target, handle)


def form_sequence(view: View) -> str | None:
    target, box = re.search(
        r"Select (-?\d+) with the slider, click the (\d+)\w+ checkbox", view.utterance
    ).groups()
    current = int(view.js("() => $('#slider').slider('value')"))
    move = _slider_keys(view, current, int(target), view.first("#slider .ui-slider-handle"))
    if move:
        return move
    boxes = view.ids("#area input[type=checkbox]")
    chosen = boxes[int(box) - 1]
    if not view.node(chosen).get("checked"):
        return click(chosen)
    return submit(view)


def form_sequence_3(view: View) -> str | None:
    choice, button = re.search(
        r"Choose (.+?) from the dropdown, then click the button labeled "
        r"\"(.+?)\"",
        view.utterance,
    ).groups()
    dropdown = view.first("#dropdown")
    if view.node(dropdown).get("value") != choice:
        return f"select [{dropdown}] {quote(choice)}"
    return click(view.first("#buttons button", button))


def terminal(view: View) -> str | None:
    extension = re.search(r"extension \.([\w.]*\w)", view.utterance)  # "tar.gz" whole
    files = view.js("() => currentFiles")
    if extension:
        name = next((f for f in files if f.endswith("." + extension.group(1))), None)
    else:
        name = next((f for f in files if "." not in f), None)
    if name is None:
        return None
    command = f"rm {name}"
    typed = view.js("() => document.querySelector('#active-input').textContent")
    if typed == command:
        return 'press "Enter"'
    if typed:
        return 'press "Backspace"'
    return f"type [{view.first('#terminal')}] {quote(command)}"


def phone_book(view: View) -> str | None:
    person, field = re.search(
        r"Find (.+?) in the contact book and click on their (\w+)", view.utterance
    ).groups()
    shown = view.js("() => document.querySelector('#contact .name').textContent.trim()")
    if shown == person:
        return click(view.first(f"#contact a.{field}"))
    return click(view.first("#pagination a", ">"))


def button_delay(view: View) -> str | None:
    seconds = re.search(r"wait (\d+) seconds?", view.utterance).group(1)
    pushed = view.js("() => buttonsPushed.length")
    if pushed == 0:
        return click(view.first("#subbtn"))
    if view.task.history and view.task.history[-1].startswith("click"):
        return f"wait {seconds}"
    return click(view.first("#subbtn2"))


def scroll_text(view: View) -> str | None:
    text = view.js("() => document.querySelector('#text-area').value")
    last = re.sub(r"[^a-zA-Z]", "", text.split()[-1])
    return first_move(fill(view, view.first("#answer-input"), last), submit(view))


def scroll_text_2(view: View) -> str | None:
    where = "top" if "to the top" in view.utterance else "bottom"
    area = view.first("#text-area")
    position = view.js(
        "() => { const t = document.querySelector('#text-area');"
        " return [t.scrollTop, t.scrollHeight - t.clientHeight]; }"
    )
    done = position[0] == 0 if where == "top" else position[0] >= position[1] - 1
    if not done:
        return f"scroll [{area}] {where}"
    return submit(view)


def click_collapsible_2(view: View) -> str | None:
    link = view.first("#area .alink", view.quoted()[0])
    if link is not None:
        return click(link)
    opened = view.js(
        "() => Array.from(document.querySelectorAll('#area h3')).map("
        "(h) => h.dataset.tampered === 'e' + WOB_EPISODE_ID)"
    )
    headers = view.ids("#area h3")
    for visited, header in zip(opened, headers, strict=False):
        if not visited:
            return click(header)
    return "noop"  # a section is still opening


def use_slider_2(view: View) -> str | None:
    combination = [
        int(x) for x in re.search(r"\[([-\d,\s]+)\]", view.utterance).group(1).split(",")
    ]
    for index, target in enumerate(combination, start=1):
        current = int(view.js(f"() => $('#slider-{index}').slider('value')"))
        move = _slider_keys(view, current, target, view.first(f"#slider-{index} .ui-slider-handle"))
        if move:
            return move
    return submit(view)


def click_scroll_list(view: View) -> str | None:
    wanted = re.search(r"Select (.+?) from the scroll list", view.utterance).group(1)
    names = [w.strip() for w in re.split(r",\s*|\s+and\s+", wanted) if w.strip()]
    select = view.first("#options")
    chosen = view.js(
        "() => Array.from(document.querySelector('#options').selectedOptions, (o) => o.text)"
    )
    if sorted(chosen) != sorted(names):
        return f"select [{select}] " + " ".join(quote(n) for n in names)
    return submit(view)


def stock_market(view: View) -> str | None:
    threshold = float(re.search(r"less than \$(\d+(?:\.\d+)?)", view.utterance).group(1))
    price = view.js("() => document.querySelector('#stock-price').textContent")
    if price and float(price.strip("$")) < threshold:
        return click(view.first("#area button", "Buy"))
    return "wait 1" if view.js("() => priceIndex") < 65 else "noop"


def click_shades(view: View) -> str | None:
    color = re.search(r"shades of (\w+)", view.utterance).group(1)
    shades = view.js(
        "() => Array.from(document.querySelectorAll('#area span[data-color]')).map("
        "(s) => [s.dataset.color, s.classList.contains('selected')])"
    )
    for (shade, selected), element in zip(shades, view.ids("#area span[data-color]"), strict=False):
        if (shade == color) != selected:
            return click(element)
    return submit(view)


def ascending_numbers(view: View) -> str | None:
    first = view.first("#area svg text", "1")
    return click(first if first is not None else view.first("#area svg rect"))


_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def _winner(board: tuple[int, ...]) -> int:
    for a, b, c in _LINES:
        if board[a] and board[a] == board[b] == board[c]:
            return board[a]
    return 0


def _completing(board: tuple[int, ...], mark: int) -> list[int]:
    """Free cells that would complete a line of ``mark``."""
    found = []
    for line in _LINES:
        values = [board[i] for i in line]
        if values.count(mark) == 2 and values.count(0) == 1:
            found.append(line[values.index(0)])
    return found


@functools.cache
def _expected(board: tuple[int, ...], to_move: int) -> float:
    """Expected raw reward (win 1, draw -0.5, loss -0.75) with X = 1 to move or the page's O
    (-1), modelled as the task's opponent: 55% a random cell, else win, else block, else random."""
    winner = _winner(board)
    if winner:
        return 1.0 if winner == 1 else -0.75
    free = [i for i, v in enumerate(board) if v == 0]
    if not free:
        return -0.5
    if to_move == 1:
        return max(_expected(_play(board, i, 1), -1) for i in free)
    smart = (_completing(board, -1) or _completing(board, 1) or free)[-1:]
    random_part = sum(_expected(_play(board, i, -1), 1) for i in free) / len(free)
    smart_part = sum(_expected(_play(board, i, -1), 1) for i in smart) / len(smart)
    return 0.55 * random_part + 0.45 * smart_part


def _play(board: tuple[int, ...], cell: int, mark: int) -> tuple[int, ...]:
    return (*board[:cell], mark, *board[cell + 1 :])


def tic_tac_toe(view: View) -> str | None:
    board = tuple(int(v) for v in view.js("() => gameState"))
    free = [i for i, v in enumerate(board) if v == 0]
    if not free or _winner(board):
        return None
    best = max(free, key=lambda i: _expected(_play(board, i, 1), -1))
    return click(view.first(f"#ttt-{best}"))
