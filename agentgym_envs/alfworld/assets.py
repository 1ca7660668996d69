"""Read ALFWorld's shipped data (domain, grammar, layouts, tables, goal library) from the wheel.

Nothing here is copied into our repository: every table is read from the installed ``alfworld``
package at run time. The package's ``__init__`` creates ``~/.cache/alfworld`` as a side effect,
so the two plain-Python data modules are loaded straight from their files under private names.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import re
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

INSTALL_HINT = (
    "ALFWorld needs the optional packages textworld==1.7.0, fast-downward-textworld==20.6.4 and "
    "alfworld==0.4.2 (no deps); run scripts/install_alfworld.sh"
)

#: Layout receptacle names that ALFWorld turns into basin receptacles.
BASIN_OF = {"Sink": "SinkBasin", "Bathtub": "BathtubBasin"}
#: Object classes that switch on (used by look_at_obj_in_light).
LAMP_CLASSES = ("DeskLamp", "FloorLamp")


class AlfworldMissingError(ImportError):
    """Raised when the alfworld wheel (or textworld) is not installed."""


@functools.cache
def package_dir() -> Path:
    """The installed ``alfworld`` package folder, without importing the package."""
    spec = importlib.util.find_spec("alfworld")
    if spec is None or not spec.submodule_search_locations:
        raise AlfworldMissingError(INSTALL_HINT)
    return Path(next(iter(spec.submodule_search_locations)))


def _load_file_module(relative: str, name: str) -> ModuleType:
    path = package_dir() / relative
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise AlfworldMissingError(f"cannot read {path}; {INSTALL_HINT}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass(frozen=True)
class Layout:
    """One AI2-THOR FloorPlan as ALFWorld ships it: object classes and receptacle instances."""

    number: int
    room: str
    object_classes: tuple[str, ...]
    #: (receptacle class as ALFWorld's PDDL names it, layout id, pose (x, z, rotation, horizon))
    receptacles: tuple[tuple[str, str, tuple[float, float, int, int]], ...]


@dataclass(frozen=True)
class AlfredTables:
    """The compatibility and property tables from ``alfworld/gen/constants.py``."""

    can_contain: dict[str, frozenset[str]]  # receptacle class -> object classes it holds
    heatable: frozenset[str]
    coolable: frozenset[str]
    cleanable: frozenset[str]
    toggleable: frozenset[str]
    sliceable: frozenset[str]
    openable: frozenset[str]
    scene_rooms: dict[str, tuple[int, ...]]  # room type -> FloorPlan numbers
    held_out_scenes: frozenset[int]  # ALFWorld's unseen (test) scenes
    goal_rooms: dict[str, frozenset[str]]  # task type -> room types it is valid in
    max_instances: int
    max_pickup_repeat: int

    @property
    def pickupable(self) -> frozenset[str]:
        """Whole (unsliced) object classes that some receptacle can hold."""
        objects = set().union(*self.can_contain.values())
        return frozenset(o for o in objects if not o.endswith("Sliced"))


@functools.cache
def tables() -> AlfredTables:
    """Parse the tables once per process."""
    c = _load_file_module("gen/constants.py", "_agentgym_alfred_constants")
    actions = c.VAL_ACTION_OBJECTS
    rooms = {room: tuple(numbers) for room, numbers in c.SCENE_TYPE.items()}
    return AlfredTables(
        can_contain={r: frozenset(objs) for r, objs in c.VAL_RECEPTACLE_OBJECTS.items()},
        heatable=frozenset(actions["Heatable"]),
        coolable=frozenset(actions["Coolable"]),
        cleanable=frozenset(actions["Cleanable"]),
        toggleable=frozenset(actions["Toggleable"]),
        sliceable=frozenset(actions["Sliceable"]),
        openable=frozenset(c.OPENABLE_CLASS_LIST),
        scene_rooms=rooms,
        held_out_scenes=frozenset(c.TEST_SCENE_NUMBERS),
        goal_rooms={g: frozenset(r) for g, r in c.GOALS_VALID.items()},
        max_instances=int(c.MAX_NUM_OF_OBJ_INSTANCES),
        max_pickup_repeat=int(c.PICKUP_REPEAT_MAX),
    )


@functools.cache
def goal_library() -> dict[str, dict[str, object]]:
    """``gdict`` from ``alfworld/gen/goal_library.py``: task type -> {'pddl', 'templates'}."""
    return dict(_load_file_module("gen/goal_library.py", "_agentgym_alfred_goals").gdict)


@functools.cache
def domain_text() -> str:
    return (package_dir() / "data" / "alfred.pddl").read_text()


@functools.cache
def grammar_text() -> str:
    return (package_dir() / "data" / "alfred.twl2").read_text()


def _room_of(number: int) -> str:
    for room, numbers in tables().scene_rooms.items():
        if number in numbers:
            return room
    raise ValueError(f"FloorPlan{number} is not in ALFWorld's SCENE_TYPE table")


@functools.cache
def layout_numbers() -> tuple[int, ...]:
    """FloorPlan numbers the wheel ships, sorted."""
    folder = package_dir() / "gen" / "layouts"
    found = {
        int(m.group(1))
        for p in folder.iterdir()
        if (m := re.match(r"FloorPlan(\d+)-objects\.json$", p.name))
    }
    return tuple(sorted(found))


@functools.cache
def layout(number: int) -> Layout:
    """The object classes and receptacles of ``FloorPlan<number>``."""
    folder = package_dir() / "gen" / "layouts"
    objects = json.loads((folder / f"FloorPlan{number}-objects.json").read_text())
    poses = json.loads((folder / f"FloorPlan{number}-openable.json").read_text())
    known = tables().can_contain
    receptacles = []
    for layout_id in sorted(poses):
        kind = layout_id.split("|", 1)[0]
        kind = BASIN_OF.get(kind, kind)
        if kind not in known:
            continue
        x, z, rotation, horizon = poses[layout_id]
        receptacles.append((kind, layout_id, (float(x), float(z), int(rotation), int(horizon))))
    return Layout(
        number=number,
        room=_room_of(number),
        object_classes=tuple(sorted(set(objects))),
        receptacles=tuple(receptacles),
    )
