"""The Toy house: rooms joined by doors, objects to carry, one locked door.

Small enough that an oracle can search it exhaustively, rich enough to need several steps.
A ``Layout`` is the immutable task; a ``House`` is its mutable state during an episode.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

HALLWAY = "hallway"
KEY = "key"


@dataclass(frozen=True)
class Layout:
    """One Toy task: the house, where things start, and what the goal asks.

    ``kind`` is ``"go"`` (reach ``target_room``; entering any other dead-end room fails the
    task) or ``"put"`` (leave ``target_item`` in ``target_room``).
    """

    kind: str
    doors: tuple[tuple[str, str], ...]
    items: tuple[tuple[str, str], ...]  # (item, room) at the start
    target_room: str
    target_item: str | None = None
    locked_room: str | None = None
    goal: str = ""

    @property
    def rooms(self) -> tuple[str, ...]:
        names = {HALLWAY}
        for a, b in self.doors:
            names.update((a, b))
        return tuple(sorted(names))

    def signature(self) -> tuple:
        """What makes two layouts the same task (goal wording aside)."""
        return (
            self.kind,
            self.doors,
            self.items,
            self.target_room,
            self.target_item,
            self.locked_room,
        )


@dataclass
class House:
    """The episode state of a ``Layout``; every method that changes it mirrors one command."""

    layout: Layout
    agent: str = HALLWAY
    where: dict[str, str] = field(default_factory=dict)  # item -> room, or "agent" when carried
    unlocked: bool = False
    failed: bool = False
    visited: set[str] = field(default_factory=set)  # rooms entered (their contents were shown)

    def __post_init__(self) -> None:
        if not self.where:
            self.where = dict(self.layout.items)
        self.visited.add(self.agent)
        self._neighbours: dict[str, list[str]] = {room: [] for room in self.layout.rooms}
        for a, b in self.layout.doors:
            self._neighbours[a].append(b)
            self._neighbours[b].append(a)

    def neighbours(self, room: str) -> list[str]:
        return self._neighbours[room]

    def is_locked(self, room: str) -> bool:
        return room == self.layout.locked_room and not self.unlocked

    def here(self) -> list[str]:
        return sorted(item for item, room in self.where.items() if room == self.agent)

    def carried(self) -> list[str]:
        return sorted(item for item, room in self.where.items() if room == "agent")

    def commands(self) -> list[str]:
        """Every command that changes or shows something now, in a stable order."""
        out = []
        for room in self.neighbours(self.agent):
            if self.is_locked(room):
                if KEY in self.carried():
                    out.append(f"unlock {room}")
            else:
                out.append(f"go to {room}")
        out += [f"take {item}" for item in self.here()]
        out += [f"drop {item}" for item in self.carried()]
        out += ["look", "inventory"]
        return out

    def apply(self, command: str) -> str:
        """Change the state for an admissible ``command`` and describe what happened."""
        verb, _, arg = command.partition(" ")
        if verb == "go":
            self.agent = arg.removeprefix("to ")
            self.visited.add(self.agent)
            if self.layout.kind == "go" and self.agent not in (HALLWAY, self.layout.target_room):
                self.failed = self._is_dead_end(self.agent)
            return self.describe()
        if verb == "take":
            self.where[arg] = "agent"
            return f"You take the {arg}."
        if verb == "drop":
            self.where[arg] = self.agent
            return f"You drop the {arg} in the {self.agent}."
        if verb == "unlock":
            self.unlocked = True
            return f"You unlock the door to the {arg} with the key."
        if verb == "inventory":
            carried = ", ".join(self.carried()) or "nothing"
            return f"You carry: {carried}."
        return self.describe()

    def describe(self) -> str:
        exits = []
        for room in self.neighbours(self.agent):
            exits.append(f"{room} (locked)" if self.is_locked(room) else room)
        seen = ", ".join(self.here()) or "nothing"
        carried = ", ".join(self.carried()) or "nothing"
        return (
            f"You are in the {self.agent}. Doors lead to: {', '.join(exits)}. "
            f"You see: {seen}. You carry: {carried}."
        )

    def solved(self) -> bool:
        layout = self.layout
        if layout.kind == "go":
            return self.agent == layout.target_room
        return self.where.get(layout.target_item or "") == layout.target_room

    def _is_dead_end(self, room: str) -> bool:
        return len(self.neighbours(room)) == 1

    # ---- oracle ------------------------------------------------------------------------------
    def plan(self) -> list[str]:
        """A shortest command sequence that solves the task from here (breadth-first search over
        the agent's room, where the target item and key are, and the lock)."""
        relevant = {self.layout.target_item, KEY} - {None}

        def state(house: House) -> tuple:
            return (
                house.agent,
                house.unlocked,
                tuple(house.where.get(i) for i in sorted(relevant)),
            )

        start = self.copy()
        seen = {state(start)}
        queue: deque[tuple[House, list[str]]] = deque([(start, [])])
        while queue:
            house, path = queue.popleft()
            if house.solved():
                return path
            if house.failed:
                continue
            for command in house.commands():
                verb, _, arg = command.partition(" ")
                if verb in ("look", "inventory") or (
                    verb in ("take", "drop") and arg not in relevant
                ):
                    continue
                nxt = house.copy()
                nxt.apply(command)
                key = state(nxt)
                if key not in seen:
                    seen.add(key)
                    queue.append((nxt, [*path, command]))
        return []

    def explore(self) -> str | None:
        """The next command of an oracle that knows only what the agent was shown: the goal,
        the rooms entered (what they hold, where their doors lead, which door is locked) and what
        it carries. Where that knowledge holds a plan, the first step of a shortest one; else it
        picks up the target object or the key where it stands, then walks to the nearest room not
        yet entered (doors taken in their listed order). Unlike ``plan`` it searches, so cloning
        it teaches a policy that works from the observations alone."""
        if self.solved() or self.failed:
            return None
        known = self._known()
        path = known.plan()
        if path or known.solved():
            return path[0] if path else None
        for item in self.here():
            if item in (self.layout.target_item, KEY):  # a key may open the goal's room
                return f"take {item}"
        return self._towards_unvisited()

    def _known(self) -> House:
        """This house as the agent knows it: doors of rooms entered, things seen or carried, the
        lock where a door to it was shown; rooms behind unseen doors look like dead ends."""
        doors = tuple(d for d in self.layout.doors if d[0] in self.visited or d[1] in self.visited)
        shown = {room for door in doors for room in door}
        seen = self.visited | {"agent"}  # what rooms entered hold, and what is carried
        items = tuple((item, room) for item, room in self.layout.items if self.where[item] in seen)
        locked = self.layout.locked_room if self.layout.locked_room in shown else None
        layout = Layout(self.layout.kind, doors, items, self.layout.target_room,
                        self.layout.target_item, locked, self.layout.goal)  # fmt: skip
        known_where = {item: self.where[item] for item, _ in items}
        return House(layout, self.agent, known_where, self.unlocked, self.failed, set(self.visited))

    def _towards_unvisited(self) -> str | None:
        """The first step towards the nearest open room not entered yet (breadth-first over the
        rooms entered, doors in their listed order); None when every reachable room was entered."""
        first: dict[str, str | None] = {self.agent: None}
        queue = deque([self.agent])
        while queue:
            room = queue.popleft()
            for nxt in self.neighbours(room):
                if nxt in first or self.is_locked(nxt):
                    continue
                first[nxt] = first[room] or f"go to {nxt}"
                if nxt not in self.visited:
                    return first[nxt]
                queue.append(nxt)
        return None

    def copy(self) -> House:
        return House(self.layout, self.agent, dict(self.where), self.unlocked, self.failed,
                     set(self.visited))  # fmt: skip
