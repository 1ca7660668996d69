"""``ActionSet``: an env family's actions as data, after BrowserGym's ``HighLevelActionSet``.

A family lists its actions once (``ActionSpec``: name, text form, description, typed ``Arg``s)
and the set derives the rest from that list: the help text agents see (``describe``), the text
``step`` accepts (``to_text``), the parser (``parse``: the family's own, or one read off the text
forms) and a JSON-schema tool description per action (``tools``, for TRL or MCP tools).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agentgym_envs.core.task import ActionError

_FIELD = re.compile(r"\{(\w+)\}")
_JSON_TYPES = {str: "string", int: "integer", float: "number"}
POINTS = list[float]  #: the type of a flat list of x y coordinates


@dataclass(frozen=True)
class Arg:
    """One typed argument of an action (``str``, ``int``, ``float`` or ``POINTS``)."""

    name: str
    type: Any
    description: str
    #: what the help text shows for it (default: its name; quoted arguments add the quotes)
    placeholder: str = ""
    #: written as a JSON string in double quotes
    quoted: bool = False
    #: the only values it takes (help ``a|b|c``, schema ``enum``)
    choices: tuple[str, ...] = ()
    #: written lower-cased
    lower: bool = False

    def usage(self) -> str:
        shown = "|".join(self.choices) or self.placeholder or self.name
        return f'"{shown}"' if self.quoted else shown

    def write(self, value: Any) -> str:
        """``value`` as the action text writes it."""
        if self.type == POINTS:
            return " ".join(f"{float(v):g}" for v in value)
        if self.type is int:
            return str(int(value))
        if self.type is float:
            return f"{float(value):g}"
        if self.quoted:
            return json.dumps(str(value), ensure_ascii=False)
        text = " ".join(str(value).split())  # one line: the grammars read the first one
        return text.lower() if self.lower else text

    def schema(self) -> dict[str, Any]:
        if self.type == POINTS:
            out: dict[str, Any] = {"type": "array", "items": {"type": "number"}}
        else:
            out = {"type": _JSON_TYPES[self.type]}
        if self.choices:
            out["enum"] = list(self.choices)
        return {**out, "description": self.description}


@dataclass(frozen=True)
class ActionSpec:
    """One action: ``template`` is its text with ``{arg}`` fields (``"search[{query}]"``);
    ``usage`` replaces the help form the template gives where that needs more words."""

    name: str
    template: str
    description: str
    args: tuple[Arg, ...] = ()
    usage: str = ""

    def __post_init__(self) -> None:
        if _FIELD.findall(self.template) != [arg.name for arg in self.args]:
            raise ValueError(f"{self.name}: {self.template!r} must use the args in order")

    def help(self) -> str:
        usage = {arg.name: arg.usage() for arg in self.args}
        return self.usage or _FIELD.sub(lambda m: usage[m[1]], self.template)


@dataclass(frozen=True)
class Call:
    """An action the template parser read: its name and arguments (as text)."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ActionSet:
    """A family's actions. ``parser`` turns text into the family's action and raises
    ``ActionError`` (None: ``match``, the templates read as patterns); ``table`` lays the help
    out one action a line with its description instead of ``a | b | c``."""

    actions: tuple[ActionSpec, ...]
    parser: Callable[[str], Any] | None = None
    table: bool = False

    def __getitem__(self, name: str) -> ActionSpec:
        for action in self.actions:
            if action.name == name:
                return action
        raise KeyError(f"no action {name!r}; actions: {', '.join(self.names())}")

    def names(self) -> list[str]:
        return [action.name for action in self.actions]

    def describe(self) -> str:
        """The help text shown to agents."""
        forms = [action.help() for action in self.actions]
        if not self.table:
            return " | ".join(forms)
        width = max(map(len, forms))
        return "\n".join(
            f"{form.ljust(width)}  -- {a.description[0].lower()}{a.description[1:].rstrip('.')}"
            for form, a in zip(forms, self.actions, strict=True)
        )

    def to_text(self, name: str, /, **args: Any) -> str:
        """The action ``name`` with ``args`` as the text ``step`` accepts."""
        action = self[name]
        if set(args) != {arg.name for arg in action.args}:
            raise TypeError(f"{name} takes {[arg.name for arg in action.args]}, got {sorted(args)}")
        written = {arg.name: arg.write(args[arg.name]) for arg in action.args}
        return _FIELD.sub(lambda m: written[m[1]], action.template)

    def parse(self, text: str) -> Any:
        """``text`` as the family's action; ``ActionError`` when it is none."""
        return self.parser(text) if self.parser is not None else self.match(text)

    def match(self, text: str) -> Call:
        """The first action whose template matches ``text`` (arguments as text, any case)."""
        text = " ".join(text.split())
        for action in self.actions:
            parts = _FIELD.split(action.template)  # literal, name, literal, ..., literal
            pattern = "".join(
                f"(?P<{part}>.+?)" if i % 2 else re.escape(part) for i, part in enumerate(parts)
            )
            if found := re.fullmatch(pattern, text, re.IGNORECASE):
                return Call(action.name, found.groupdict())
        raise ActionError(f"cannot parse {text[:80]!r}; actions: {self.describe()}")

    def tools(self) -> list[dict[str, Any]]:
        """One JSON-schema function description per action (the shape tool-calling chat
        templates and ``transformers.utils.get_json_schema`` use)."""
        out = []
        for action in self.actions:
            parameters: dict[str, Any] = {
                "type": "object",
                "properties": {arg.name: arg.schema() for arg in action.args},
            }
            if action.args:
                parameters["required"] = [arg.name for arg in action.args]
            function = {"name": action.name, "description": action.description}
            out.append({"type": "function", "function": {**function, "parameters": parameters}})
        return out
