"""Oracles of the easy tier: one or two clicks or a typed answer."""

from __future__ import annotations

import re

from agentgym_envs.miniwob.oracles.view import View, click, fill, first_move, submit


def click_test(view: View) -> str | None:
    return click(view.first("button"))


def click_named_button(view: View) -> str | None:
    label = view.quoted()[0] if view.quoted() else view.utterance.split()[-1].rstrip(".")
    return click(view.first("button", label))


def click_link(view: View) -> str | None:
    return click(view.first("#area span, #area a", view.quoted()[0]))


def click_dialog(view: View) -> str | None:
    return click(view.first("button.ui-dialog-titlebar-close"))


def click_dialog_2(view: View) -> str | None:
    label = view.quoted()[0]
    if label == "x":
        return click_dialog(view)
    return click(view.first(".ui-dialog button", label))


def click_widget(view: View) -> str | None:
    kind = view.quoted()[0]
    return click(view.first(f'#area [data-type="{kind}"]'))


def click_color(view: View) -> str | None:
    color = re.search(r"the (\w+) colored box", view.utterance).group(1)
    return click(next((i for i, n in view.nodes.items() if n.get("color") == color), None))


def click_tab(view: View) -> str | None:
    number = re.search(r"Tab #(\d+)", view.utterance).group(1)
    return click(view.first("#area a", f"Tab #{number}"))


def click_collapsible(view: View) -> str | None:
    if view.js("() => $('#area h3').attr('aria-expanded') !== 'true'"):
        return click(view.first("#area h3"))
    return submit(view)


def enter_text(view: View) -> str | None:
    text = view.quoted()[0]
    if "upper case" in view.utterance:
        text = text.upper()
    elif "lower case" in view.utterance:
        text = text.lower()
    return first_move(fill(view, view.first("#area input"), text), submit(view))


def enter_password(view: View) -> str | None:
    password = view.quoted()[0]
    return first_move(
        fill(view, view.first("#password"), password),
        fill(view, view.first("#verify"), password),
        submit(view),
    )


def focus_text(view: View) -> str | None:
    match = re.search(r"(\d+)(?:st|nd|rd|th)", view.utterance)
    fields = view.ids("#area input")
    return click(fields[int(match.group(1)) - 1] if match else fields[0])


def simple_arithmetic(view: View) -> str | None:
    problem = view.js("() => document.querySelector('#math-problem').textContent")
    left, op, right = re.match(r"\s*(-?\d+)\s*([-+x*])\s*(-?\d+)", problem).groups()
    a, b = int(left), int(right)
    answer = {"+": a + b, "-": a - b, "x": a * b, "*": a * b}[op]
    return first_move(fill(view, view.first("#math-answer"), str(answer)), submit(view))


def odd_or_even(view: View) -> str | None:
    rows = view.js(
        """() => Array.from(document.querySelectorAll('.row')).map((r) => [
             +r.querySelector('.display-number').textContent,
             r.querySelector('.odd').classList.contains('selected'),
             r.querySelector('.even').classList.contains('selected')])"""
    )
    odd_buttons, even_buttons = view.ids(".row .odd"), view.ids(".row .even")
    for i, (number, odd_on, even_on) in enumerate(rows):
        if number % 2 and not odd_on:
            return click(odd_buttons[i])
        if number % 2 == 0 and not even_on:
            return click(even_buttons[i])
    return submit(view)
