"""Oracles of the medium tier: forms, lists, tabs, small puzzles."""

from __future__ import annotations

import re

from agentgym_envs.miniwob.actions import quote
from agentgym_envs.miniwob.oracles.view import (
    View,
    autocomplete,
    click,
    fill,
    first_move,
    submit,
)


def click_button_sequence(view: View) -> str | None:
    done = view.js(
        "() => document.querySelector('#subbtn').dataset.tampered === 'e' + WOB_EPISODE_ID"
    )
    return click(view.first("#subbtn2" if done else "#subbtn"))


def _wanted_words(view: View) -> list[str]:
    match = re.search(r"Select (.*?) and click Submit", view.utterance)
    words = match.group(1) if match else ""
    if words == "nothing":
        return []
    return [w.strip() for w in re.split(r",\s*|\s+and\s+", words) if w.strip()]


def click_checkboxes(view: View) -> str | None:
    wanted = set(_wanted_words(view))
    for label in view.ids("#area label"):
        text = view.node(label).get("text", "")
        box = view.first(f'[data-agid="{label}"] input')
        checked = bool(view.node(box).get("checked"))
        if (text in wanted) != checked:
            return click(box)
    return submit(view)


def click_option(view: View) -> str | None:
    target = re.search(r"Select (.*) and click Submit", view.utterance).group(1)
    label = view.first("#area label", target)
    radio = view.first(f'[data-agid="{label}"] input') if label is not None else None
    if radio is not None and not view.node(radio).get("checked"):
        return click(radio)
    return submit(view)


def choose_list(view: View) -> str | None:
    target = re.search(r"Select (.*) from the list", view.utterance).group(1)
    select = view.first("#area select")
    if view.node(select).get("value") != target:
        return f"select [{select}] {quote(target)}"
    return submit(view)


def login_user(view: View) -> str | None:
    user, password = view.quoted()[:2]
    popup = view.first("#popup-cancel")
    if popup is not None:
        return click(popup)
    return first_move(
        fill(view, view.first("#username"), user),
        fill(view, view.first("#password"), password),
        click(view.first("#subbtn")),
    )


def enter_date(view: View) -> str | None:
    month, day, year = re.search(r"(\d\d)/(\d\d)/(\d{4})", view.utterance).groups()
    return first_move(fill(view, view.first("#tt"), f"{year}-{month}-{day}"), submit(view))


def enter_time(view: View) -> str | None:
    hour, minute, half = re.search(r"(\d+):(\d\d) (AM|PM)", view.utterance).groups()
    hour24 = int(hour) % 12 + (12 if half == "PM" else 0)
    return first_move(fill(view, view.first("#tt"), f"{hour24:02d}:{minute}"), submit(view))


def copy_paste(view: View) -> str | None:
    match = re.search(r"(\d+)(?:st|nd|rd|th) text area", view.utterance)
    areas = view.ids("#area textarea")
    source = areas[int(match.group(1)) - 1] if match else areas[0]
    text = view.js(f"() => document.querySelector('[data-agid=\"{source}\"]').value")
    return first_move(fill(view, view.first("#answer-input"), text), submit(view))


def find_word(view: View) -> str | None:
    position = int(re.search(r"(\d+)(?:st|nd|rd|th) word", view.utterance).group(1))
    words = view.js("() => document.querySelector('#area p').textContent").split()
    word = re.sub(r"[^a-zA-Z]", "", words[position - 1])
    return first_move(fill(view, view.first("#answer-input"), word), submit(view))


def read_table(view: View) -> str | None:
    pairs = view.js(
        """() => Array.from(document.querySelectorAll('#area table tr')).map(
             (r) => Array.from(r.querySelectorAll('td, th')).map((c) => c.textContent.trim()))"""
    )
    table = {row[0]: row[1] for row in pairs if len(row) >= 2}
    match = re.search(r"value of (.+?) into", view.utterance)
    if match:
        return first_move(fill(view, view.first("#tt"), table[match.group(1)]), submit(view))
    labels = view.js(
        """() => Array.from(document.querySelectorAll('#area label'))
                 .map((l) => l.textContent.trim())"""
    )
    for key, field in zip(labels, view.ids("#area label + input"), strict=False):
        move = fill(view, field, table.get(key.rstrip(":"), ""))
        if move:
            return move
    return submit(view)


def click_tab_2(view: View) -> str | None:
    target = view.quoted()[0]
    link = view.first("#area .tab-content span, #area span.alink, #area div[id^=tabs] span", target)
    if link is not None:
        return click(link)
    tabs = view.js(
        """() => Array.from(document.querySelectorAll('#area ul li a')).map(
             (a) => a.dataset.tampered === 'e' + WOB_EPISODE_ID)"""
    )
    tab_ids = view.ids("#area ul li a")
    for visited, tab in zip(tabs, tab_ids, strict=False):
        if not visited:
            return click(tab)
    return None


def simple_algebra(view: View) -> str | None:
    problem = view.js("() => document.querySelector('#math-problem').textContent")
    answer = _solve_linear(problem)
    return first_move(fill(view, view.first("#math-answer"), str(answer)), submit(view))


def _solve_linear(problem: str) -> int:
    left, right = problem.replace("−", "-").split("=")
    for x in range(-1000, 1001):  # the tasks use small integers
        expr = left.replace("x", f"({x})")
        if eval(expr, {"__builtins__": {}}) == int(right):
            return x
    raise ValueError(problem)


def text_transform(view: View) -> str | None:
    text = view.js("() => document.querySelector('#captcha').textContent")
    return first_move(fill(view, view.first("#tt"), text), submit(view))


def use_autocomplete(view: View) -> str | None:
    quoted = view.quoted()
    prefix, suffix = quoted[0], (quoted[1] if len(quoted) > 1 else "")
    items = view.js("() => ui_utils.COUNTRIES")
    item = next(i for i in items if i.startswith(prefix) and i.endswith(suffix))
    return first_move(autocomplete(view, view.first("#tags"), item), submit(view))


def use_spinner(view: View) -> str | None:
    target = int(re.search(r"Select (-?\d+)", view.utterance).group(1))
    value = int(view.js("() => +document.querySelector('#spinner').value"))
    if value < target:
        return click(view.first(".ui-spinner-up"))
    if value > target:
        return click(view.first(".ui-spinner-down"))
    return submit(view)


def find_greatest(view: View) -> str | None:
    values = view.js(
        "() => Array.from(document.querySelectorAll('.card')).map((c) => "
        "[+c.textContent, !c.classList.contains('hidden')])"
    )
    best = max(range(len(values)), key=lambda i: values[i][0])
    if not values[best][1]:
        return click(view.ids(".card")[best])
    return submit(view)


def identify_shape(view: View) -> str | None:
    shape = view.js(
        """() => { const e = document.querySelector('#area svg > :not(defs)');
                   return [e.tagName.toLowerCase(), e.textContent.trim()]; }"""
    )
    tag, text = shape
    if tag == "text":
        answer = "Number" if text.isdigit() else "Letter"
    else:
        answer = {"circle": "Circle", "rect": "Rectangle", "polygon": "Triangle"}.get(tag, "")
    return click(view.first("#area button", answer))


def visual_addition(view: View) -> str | None:
    total = view.js("() => document.querySelectorAll('.addition-block').length")
    return first_move(fill(view, view.first("#math-answer"), str(total)), submit(view))


def navigate_tree(view: View) -> str | None:
    name = view.quoted()[0]
    found = view.first("#area span.folder, #area span.file", name)
    if found is not None:
        return click(found)
    return click(view.first("#area .expandable-hitarea"))


def generate_number(view: View) -> str | None:
    shown = view.js("() => document.querySelector('#display-number').textContent").strip()
    if shown.lstrip("-").isdigit():
        value = int(shown)
        bound = re.search(r"than (\d+)", view.utterance)
        good = {
            "less": bound is not None and value < int(bound.group(1)),
            "greater": bound is not None and value > int(bound.group(1)),
            "an odd": value % 2 == 1,
            "an even": value % 2 == 0,
        }
        kind = next(
            k for k in good if f"number {k}" in view.utterance or f"{k} number" in view.utterance
        )
        if good[kind]:
            return submit(view)
    return click(view.first("#generate"))


def sign_agreement(view: View) -> str | None:
    quoted = view.quoted()
    if not quoted:  # "Click the cancel button."
        label = re.search(r"Click the (\w+) button", view.utterance).group(1).capitalize()
        return click(view.first("#area button", label))
    name, label = quoted[0], quoted[-1]
    at_bottom = view.js(
        "() => { const t = document.querySelector('#text-area');"
        " return t.scrollTop + t.clientHeight >= t.scrollHeight - 2; }"
    )
    if not at_bottom:
        return f"scroll [{view.first('#text-area')}] bottom"
    return first_move(
        fill(view, view.first("#name"), name), click(view.first("#area button", label))
    )


def form_sequence_2(view: View) -> str | None:
    radio_n, number, box_n = re.search(
        r"Check the (\d+)\w+ radio button and enter the number \"(-?\d+)\" "
        r"into the (\d+)\w+ textbox",
        view.utterance,
    ).groups()
    radio = view.ids("#area input[type=radio]")[int(radio_n) - 1]
    if not view.node(radio).get("checked"):
        return click(radio)
    box = view.ids("#area input[type=text]")[int(box_n) - 1]
    return first_move(fill(view, box, number), submit(view))


_SHAPES_JS = """
() => Array.from(document.querySelectorAll('#area svg text, #area svg rect, #area svg circle,'
                                            + ' #area svg polygon'))
  .map((e) => [+e.getAttribute('data-agid'), e.tagName.toLowerCase(), e.textContent.trim(),
               e.getAttribute('fill'), e.getBoundingClientRect().height])
"""
_SHAPE_NAMES = {"rect": "rectangle", "circle": "circle", "polygon": "triangle"}


def _shape_matches(shape: list, description: str) -> bool:
    """MiniWoB's shape descriptions: "[large|small] [color] (item|letter|digit|shape|<name>)"."""
    _, tag, text, color, height = shape
    words = description.split()
    kind = words[-1]
    if ("large" in words[:-1] and height < 16) or ("small" in words[:-1] and height >= 16):
        return False
    colors = [w for w in words[:-1] if w not in ("large", "small")]
    if colors and colors[0] != color:
        return False
    if tag == "text":
        own = {"letter" if text.isalpha() else "digit", text}
    else:
        own = {"shape", _SHAPE_NAMES[tag]}
    return kind == "item" or kind in own


def click_shape(view: View) -> str | None:
    description = view.utterance.split("Click on a ", 1)[1].strip().rstrip(".")
    found = [s for s in view.js(_SHAPES_JS) if _shape_matches(s, description)]
    return click(found[0][0]) if found else None


def count_shape(view: View) -> str | None:
    description = re.search(r"How many (.+?)s are there", view.utterance).group(1)
    count = sum(1 for s in view.js(_SHAPES_JS) if _shape_matches(s, description))
    return click(view.first("#area button", str(count)))


def click_checkboxes_soft(view: View) -> str | None:
    words = re.search(r"similar to (.+?) and click Submit", view.utterance).group(1)
    wanted = [] if words == "nothing" else [w.strip() for w in words.split(",")]
    groups = view.js("() => SYNONYMS")
    similar = {word for group in groups if any(w in group for w in wanted) for word in group}
    for label in view.ids("#area label"):
        text = view.node(label).get("text", "")
        box = view.first(f'[data-agid="{label}"] input')
        if (text in similar) != bool(view.node(box).get("checked")):
            return click(box)
    return submit(view)


def guess_number(view: View) -> str | None:
    """Binary search; the page shows only the last hint, so the bounds live in task memory."""
    bounds = view.task.memory.setdefault("bounds", [0, 9])
    hint = view.js(
        """() => { for (const id of ['higher', 'lower']) {
                     const d = document.getElementById(id);
                     if (!d.classList.contains('hide'))
                       return [id, +d.querySelector('span').textContent]; }
                   return null; }"""
    )
    if hint:
        direction, guess = hint
        if direction == "higher":
            bounds[0] = max(bounds[0], guess + 1)
        else:
            bounds[1] = min(bounds[1], guess - 1)
    value = str((bounds[0] + bounds[1]) // 2)
    return first_move(fill(view, view.first("#tt"), value), submit(view))


_FIELD_LABELS = """
(names) => {
  // Each text field's label: the placeholder, else the nearest element whose text is a name.
  const norm = (s) => s.replace(/[:\\s]+$/, '').trim().toLowerCase();
  const nameOf = (text) => text.length < 25 &&
      Object.keys(names).find((n) => names[n].some((alias) => norm(text).includes(alias)));
  const labels = Array.from(document.querySelectorAll('#area *')).filter((e) =>
      e.children.length === 0 && nameOf(e.textContent));
  const centre = (e) => { const r = e.getBoundingClientRect();
                          return [r.left + r.width / 2, r.top + r.height / 2]; };
  return Array.from(document.querySelectorAll('#area input[type=text], #area input:not([type])'))
    .map((input) => {
      if (input.placeholder && nameOf(input.placeholder))
        return [+input.getAttribute('data-agid'), nameOf(input.placeholder)];
      const [x, y] = centre(input);
      let best = null, bestDistance = Infinity;
      for (const label of labels) {
        const [lx, ly] = centre(label);
        const distance = Math.hypot(lx - x, ly - y);
        if (distance < bestDistance) { best = label; bestDistance = distance; }
      }
      return [+input.getAttribute('data-agid'), best ? nameOf(best.textContent) : ''];
    });
}
"""


def multi_layouts(view: View) -> str | None:
    genre, name, year = re.search(
        r"Search for (.+?) movies directed by (.+?) from year (\d+)", view.utterance
    ).groups()
    values = {"genre": genre, "director": name, "year": year}
    aliases = {"genre": ["genre"], "director": ["director", "name"], "year": ["year", "date"]}
    for field, label in view.js(_FIELD_LABELS, aliases):
        move = fill(view, field, values.get(label, ""))
        if move:
            return move
    submit_ = view.first("#area button") or view.first("#area div", "Search")
    return click(submit_ or view.first("#area div", "Submit"))
