"""TextWorld's context-sensitive grammar derivation, with its parses cached and no deep copies.

``textworld.envs.pddl.textgen.ContextSensitiveGrammar.derive`` re-parses its start string and
every condition with TatSu and deep-copies symbols and contexts at each expansion; that was
~90% of a step. This derives the same text from the same parsed rules: left to right, the first
applicable production for a nonterminal, queries enumerated by ``State.all_assignments`` in the
same order, and lists joined with the grammar's separators. Symbols are never mutated, so they
can be shared, and contexts are copied shallowly (their values are never mutated). Output is
byte-identical to the stock derivation (``tests/alfworld/test_engine.py`` plays both).
"""

from __future__ import annotations

import functools
from typing import Any

from textworld.envs.pddl import textgen
from textworld.logic import Rule

_Context = dict[str, Any]


@functools.lru_cache(maxsize=4096)
def _symbols(start: str) -> tuple[Any, ...]:
    return tuple(textgen._parse_and_convert(start, rule_name="symbols"))


@functools.lru_cache(maxsize=4096)
def _query_rule(expression: str) -> Rule:
    return Rule.parse_conjunctive_query(expression)


@functools.lru_cache(maxsize=4096)
def _code(expression: str) -> Any:
    return compile(expression, "<grammar>", "eval")


def _query(expression: str, context: _Context) -> list[_Context]:
    contexts = []
    infos = context["entity_infos"]
    for mapping in context["state"].all_assignments(_query_rule(expression), context["mapping"]):
        variables = dict(context["variables"])
        variables.update({ph.name: infos[var.name] for ph, var in mapping.items()})
        merged = dict(context["mapping"])
        merged.update(mapping)
        contexts.append({**context, "variables": variables, "mapping": merged})
    return contexts


def _applicable(rule: Any, context: _Context) -> bool:
    if not rule.condition:
        return True
    found = context["state"].all_assignments(_query_rule(rule.condition), context["mapping"])
    return next(iter(found), None) is not None


def _expand(symbol: Any, context: _Context) -> list[tuple[Any, _Context]]:
    """One derivation step for a Conditional/Eval/List symbol (what ``Symbol.derive`` returns)."""
    if isinstance(symbol, textgen.EvalSymbol):
        value = eval(_code(symbol.expression), {}, dict(context["variables"]))
        return [(textgen.TerminalSymbol(value), context)]
    if isinstance(symbol, textgen.ConditionalSymbol):
        contexts = _query(symbol.given, context) if symbol.given else [context]
        return [(symbol.expression, c) for c in contexts]
    if isinstance(symbol, textgen.ListSymbol):
        items = _expand(symbol.symbol, context)
        if not items:
            return [(textgen.NonterminalSymbol("list_empty"), context)]
        if len(items) == 1:
            return items
        separator = (textgen.NonterminalSymbol("list_separator"), context)
        last = (textgen.NonterminalSymbol("list_last_separator"), context)
        joined: list[tuple[Any, _Context]] = []
        for item in items[:-1]:
            joined += [item, separator]
        return [*joined[:-1], last, items[-1]]
    raise NotImplementedError(f"Unknown symbol: {type(symbol)}")


def derive(grammar: Any, start: str, context: _Context) -> str:
    """The text ``grammar`` derives from ``start`` in ``context`` (same as the stock ``derive``)."""
    stack = [(symbol, context) for symbol in reversed(_symbols(start))]
    derived: list[str] = []
    rules = grammar._rules
    while stack:
        symbol, ctx = stack.pop()
        if isinstance(symbol, textgen.TerminalSymbol):
            derived.append(str(symbol.symbol))
        elif isinstance(symbol, textgen.NonterminalSymbol):
            options = rules.get(str(symbol))
            if not options:
                raise textgen.CSGUnknownSymbolError(symbol)
            chosen = next(rule for rule in options if _applicable(rule, ctx))
            stack += [(s, ctx) for s in reversed(chosen.rhs)]
        else:
            stack += reversed(_expand(symbol, ctx))
    return "".join(derived)
