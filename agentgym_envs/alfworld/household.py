"""Plain data for one generated household and its task, plus ALFWorld's naming rules.

Kept free of TextWorld imports so that generation and task lists work without the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: ALFWorld's six task types (the goal library's keys) and the short names the issue uses.
TASK_TYPES: tuple[str, ...] = (
    "pick_and_place_simple",
    "look_at_obj_in_light",
    "pick_clean_then_place_in_recep",
    "pick_heat_then_place_in_recep",
    "pick_cool_then_place_in_recep",
    "pick_two_obj_and_place",
)
SHORT_TASK_NAMES: dict[str, str] = {
    "pick_and_place_simple": "pick_and_place",
    "look_at_obj_in_light": "look_at_obj_in_light",
    "pick_clean_then_place_in_recep": "pick_clean_then_place",
    "pick_heat_then_place_in_recep": "pick_heat_then_place",
    "pick_cool_then_place_in_recep": "pick_cool_then_place",
    "pick_two_obj_and_place": "pick_two_obj_and_place",
}

_MANGLE = (("|", "_bar_"), ("+", "_plus_"), ("-", "_minus_"), (".", "_dot_"), (",", "_comma_"))


def mangle(entity_id: str) -> str:
    """ALFWorld's PDDL-safe spelling of an AI2-THOR id (``|`` -> ``_bar_``, ``+`` -> ``_plus_``)."""
    for raw, safe in _MANGLE:
        entity_id = entity_id.replace(raw, safe)
    return entity_id


@dataclass(frozen=True)
class Receptacle:
    kind: str  # ALFWorld receptacle class, e.g. "Cabinet", "SinkBasin"
    entity_id: str  # AI2-THOR style id, e.g. "Cabinet|+00.68|+00.50|-02.20"
    location: str  # location id, e.g. "loc|3|-5|2|30"
    openable: bool


@dataclass(frozen=True)
class Item:
    kind: str  # object class, e.g. "Apple", "DeskLamp"
    entity_id: str
    receptacle: str  # entity_id of the receptacle it starts in


@dataclass(frozen=True)
class TaskSpec:
    task_type: str  # one of TASK_TYPES
    object_class: str
    receptacle_class: str | None  # destination (None for look_at_obj_in_light)
    toggle_class: str | None  # lamp class (look_at_obj_in_light only)
    sentence: str  # the text after "Your task is to: "
    template_sentence: str  # ALFWorld's templated sentence (equals sentence unless adversarial)


@dataclass(frozen=True)
class Household:
    """A generated game: where everything is, and what to do."""

    layout: int
    room: str
    receptacles: tuple[Receptacle, ...]
    items: tuple[Item, ...]
    agent_location: str
    task: TaskSpec
    decoy_classes: tuple[str, ...] = field(default=())

    def fingerprint(self) -> tuple:
        """What makes two games the same, ignoring generated coordinates."""
        kinds = sorted((i.kind, i.receptacle) for i in self.items)
        return (self.layout, tuple(r.entity_id for r in self.receptacles), tuple(kinds), self.task)
