"""A task-aware planner over the engine's facts: the oracle for all six ALFWorld task types.

fast-downward's replanner (TextWorld's ``policy_commands``) is exact but its search blew up to
50-250 s on ALFWorld-sized pick_two houses (23 receptacles, 24 objects), which is too slow to
build thousands of games or to replan inside an RL loop. This planner reads the current facts
(where things are, what is open, held, hot, clean, cool, toggled) and writes the short command
sequence for the task type, like ALFWorld's own hand-coded expert but with full knowledge.
Every walkthrough is replayed through the real PDDL engine at build time, whose goal check
(the goal library's PDDL) is what decides success.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

_APPLIANCE = {
    "pick_clean_then_place_in_recep": ("sinkbasintype", "clean", "isclean"),
    "pick_heat_then_place_in_recep": ("microwavetype", "heat", "ishot"),
    "pick_cool_then_place_in_recep": ("fridgetype", "cool", "iscool"),
}


class _World:
    """The facts that matter to the plan, kept up to date as the plan is written."""

    def __init__(self, facts: Iterable[Any], names: dict[str, str]) -> None:
        by = defaultdict(list)
        for fact in facts:
            by[fact.name].append([v.name for v in fact.arguments])
        self.names = names
        self.location = next(a[1] for a in by["atlocation"])
        self.loc_of = {r: loc for r, loc in by["receptacleatlocation"]}
        self.inside = {o: r for o, r in by["inreceptacle"]}
        self.held = next((a[1] for a in by["holds"]), None)
        self.opened = {a[0] for a in by["opened"]}
        self.openable = {a[0] for a in by["openable"]}
        self.otype = {o: t for o, t in by["objecttype"]}
        self.rtype = {r: t for r, t in by["receptacletype"]}
        self.can_contain = {(rt, ot) for rt, ot in by["cancontain"]}
        self.flags = {
            name: {a[0] for a in by[name]} for name in ("isclean", "ishot", "iscool", "istoggled")
        }
        self.commands: list[str] = []

    def receptacles_of(self, rtype: str) -> list[str]:
        return sorted((r for r, t in self.rtype.items() if t == rtype), key=self._order)

    def objects_of(self, otype: str) -> list[str]:
        return sorted((o for o, t in self.otype.items() if t == otype), key=self._order)

    def _order(self, entity: str) -> tuple:
        name, _, number = self.names[entity].rpartition(" ")
        return (name, int(number) if number.isdigit() else 0)

    def go(self, receptacle: str) -> None:
        if self.loc_of[receptacle] != self.location:
            self.commands.append(f"go to {self.names[receptacle]}")
            self.location = self.loc_of[receptacle]

    def open(self, receptacle: str) -> None:
        if receptacle in self.openable and receptacle not in self.opened:
            self.commands.append(f"open {self.names[receptacle]}")
            self.opened.add(receptacle)

    def take(self, obj: str) -> None:
        if self.held == obj:
            return
        if self.held is not None:
            self.put_away()
        home = self.inside.pop(obj)
        self.go(home)
        self.open(home)
        self.commands.append(f"take {self.names[obj]} from {self.names[home]}")
        self.held = obj

    def put(self, receptacle: str) -> None:
        assert self.held is not None
        self.go(receptacle)
        self.open(receptacle)
        self.commands.append(f"move {self.names[self.held]} to {self.names[receptacle]}")
        self.inside[self.held], self.held = receptacle, None

    def put_away(self) -> None:
        """Free the hands: here if this receptacle can hold it, else the first one that can."""
        otype = self.otype[self.held]
        fits = [
            r
            for r in sorted(self.rtype, key=self._order)
            if (self.rtype[r], otype) in self.can_contain
        ]
        here = [r for r in fits if self.loc_of[r] == self.location]
        self.put((here or fits)[0])

    def treat(self, obj: str, task_type: str) -> None:
        appliance_type, verb, flag = _APPLIANCE[task_type]
        if obj in self.flags[flag]:
            return
        appliance = self.receptacles_of(appliance_type)[0]
        self.go(appliance)
        self.commands.append(f"{verb} {self.names[obj]} with {self.names[appliance]}")
        self.flags[flag].add(obj)


def plan(facts: Iterable[Any], names: dict[str, str], task: dict[str, Any]) -> list[str]:
    """Commands that reach the task's goal from the state described by ``facts``."""
    world = _World(facts, names)
    task_type = task["task_type"]
    otype = task["object_class"].lower() + "type"
    if task_type == "look_at_obj_in_light":
        _look(world, otype, task["toggle_class"].lower() + "type")
    elif task_type == "pick_two_obj_and_place":
        _two(world, otype, task["receptacle_class"].lower() + "type")
    else:
        _place(world, otype, task["receptacle_class"].lower() + "type", task_type)
    return world.commands


def _place(world: _World, otype: str, rtype: str, task_type: str) -> None:
    flag = _APPLIANCE[task_type][2] if task_type in _APPLIANCE else None
    dests = world.receptacles_of(rtype)
    for obj in world.objects_of(otype):
        if world.inside.get(obj) in dests and (flag is None or obj in world.flags[flag]):
            return  # already done
    candidates = world.objects_of(otype)
    if world.held in candidates:
        candidates.insert(0, world.held)
    obj = candidates[0]
    world.take(obj)
    if flag is not None:
        world.treat(obj, task_type)
    here = [r for r in dests if world.loc_of[r] == world.location]
    world.put((here or dests)[0])


def _two(world: _World, otype: str, rtype: str) -> None:
    dests = world.receptacles_of(rtype)
    targets = world.objects_of(otype)
    counts = {r: sum(world.inside.get(o) == r for o in targets) for r in dests}
    dest = max(dests, key=lambda r: counts[r])  # first of the fullest
    need = 2 - counts[dest]
    order = [o for o in targets if world.inside.get(o) != dest]
    if world.held in order:
        order.remove(world.held)
        order.insert(0, world.held)
    for obj in order[: max(need, 0)]:
        world.take(obj)
        world.put(dest)


def _look(world: _World, otype: str, lamp_type: str) -> None:
    targets = world.objects_of(otype)
    if world.held not in targets:
        world.take(targets[0])
    lamp = world.objects_of(lamp_type)[0]
    world.go(world.inside[lamp])
    if lamp not in world.flags["istoggled"]:
        world.commands.append(f"use {world.names[lamp]}")
