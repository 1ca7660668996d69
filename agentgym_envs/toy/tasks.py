"""The Toy task lists: which houses exist for each (difficulty, split), fixed per version.

Difficulty
- easy: a hallway with 3 doors to dead-end rooms; "go to the <colour> room". Entering a wrong
  room ends the episode as a failure, so a random agent succeeds about a third of the time.
- medium: a hallway with 4 rooms and 2-3 objects; carry the target object into the target room.
- hard: 6-8 rooms in a two-level tree, 3-4 objects, and the target room locked: fetch the key,
  unlock the door, then carry the object in.

Splits
- train / valid / test: distinct houses (no two share a layout and goal) drawn from one
  vocabulary and one set of goal templates.
- ood: colours, objects and goal templates that never occur in train/valid/test.
- adversarial: the test houses with near-identical decoys added (a "dark red room" beside the
  "red room", an "old apple" beside the "apple") and the goal padded with distracting sentences;
  the target and the reward are unchanged.
"""

from __future__ import annotations

import functools
import random

from agentgym_envs.core.splits import DIFFICULTIES, SplitTable
from agentgym_envs.toy.world import HALLWAY, KEY, Layout

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "white", "black", "pink", "brown")
COLOURS_OOD = ("teal", "maroon", "olive", "navy", "amber", "crimson", "ivory", "lilac")
OBJECTS = ("apple", "ball", "book", "cup", "lamp", "hat", "shoe", "coin", "vase", "pen")
OBJECTS_OOD = ("kettle", "violin", "globe", "candle", "helmet", "ladder")

GO_TEMPLATES = ("Go to the {room}.", "Walk into the {room}.", "Find the {room} and enter it.")
GO_TEMPLATES_OOD = ("Your destination is the {room}: get there.", "Make your way to the {room}.")
PUT_TEMPLATES = (
    "Put the {item} in the {room}.",
    "Move the {item} to the {room}.",
    "Bring the {item} into the {room}.",
)
PUT_TEMPLATES_OOD = (
    "The {item} belongs in the {room}; take it there and leave it.",
    "Carry the {item} to the {room} and drop it.",
)
DISTRACTIONS = (
    "Someone painted the {decoy} last week.",
    "The {decoy} is said to be cosy, but that is not your concern.",
    "Ignore any note about the {decoy}.",
    "It is raining outside and the windows rattle.",
    "A cat sleeps somewhere in the house.",
)

SIZES = {"train": 1000, "valid": 100, "test": 100, "ood": 100, "adversarial": 100}
TABLE = SplitTable("toy", {(d, s): n for d in DIFFICULTIES for s, n in SIZES.items()})


def layout_for(task_id: str) -> Layout:
    """The house behind ``task_id`` (ValueError for ids that are not Toy task ids)."""
    difficulty, split, index = TABLE.parse(task_id)
    return layouts(difficulty, split)[index]


@functools.cache
def layouts(difficulty: str, split: str) -> tuple[Layout, ...]:
    """All houses of one (difficulty, split), in task-id order."""
    if split == "ood":
        rng = random.Random(f"toy/{difficulty}/ood")
        vocab = (COLOURS_OOD, OBJECTS_OOD, GO_TEMPLATES_OOD, PUT_TEMPLATES_OOD)
        return tuple(_unique(rng, difficulty, vocab, SIZES["ood"]))
    if split == "adversarial":
        rng = random.Random(f"toy/{difficulty}/adversarial")
        return tuple(_adversarial(rng, layout) for layout in layouts(difficulty, "test"))
    rng = random.Random(f"toy/{difficulty}/iid")
    total = SIZES["valid"] + SIZES["test"] + SIZES["train"]
    pool = _unique(rng, difficulty, (COLOURS, OBJECTS, GO_TEMPLATES, PUT_TEMPLATES), total)
    start = {"valid": 0, "test": SIZES["valid"], "train": SIZES["valid"] + SIZES["test"]}[split]
    return tuple(pool[start : start + SIZES[split]])


def _unique(rng: random.Random, difficulty: str, vocab: tuple, count: int) -> list[Layout]:
    out: list[Layout] = []
    seen: set[tuple] = set()
    while len(out) < count:
        layout = _generate(rng, difficulty, *vocab)
        if layout.signature() not in seen:
            seen.add(layout.signature())
            out.append(layout)
    return out


def _generate(
    rng: random.Random, difficulty: str, colours: tuple, objects: tuple, go_t: tuple, put_t: tuple
) -> Layout:
    if difficulty == "easy":
        rooms = [f"{c} room" for c in rng.sample(colours, 3)]
        target = rng.choice(rooms)
        doors = tuple((HALLWAY, room) for room in rooms)
        return Layout("go", doors, (), target, goal=rng.choice(go_t).format(room=target))
    if difficulty == "medium":
        rooms = [f"{c} room" for c in rng.sample(colours, 4)]
        doors = tuple((HALLWAY, room) for room in rooms)
        names = rng.sample(objects, rng.randint(2, 3))
        target_room, target_item = rng.choice(rooms), names[0]
        places = [HALLWAY, *rooms]
        items = [(target_item, rng.choice([p for p in places if p != target_room]))]
        items += [(name, rng.choice(places)) for name in names[1:]]
        goal = rng.choice(put_t).format(item=target_item, room=target_room)
        return Layout("put", doors, tuple(sorted(items)), target_room, target_item, goal=goal)
    # hard: a two-level tree with one locked leaf room holding nothing but the goal
    names = [f"{c} room" for c in rng.sample(colours, rng.randint(6, 8))]
    level1, level2 = names[:3], names[3:]
    doors = [(HALLWAY, room) for room in level1]
    doors += [(rng.choice(level1), room) for room in level2]
    leaves = [r for r in names if sum(r in d for d in doors) == 1]
    locked = rng.choice(leaves)
    open_places = [HALLWAY, *[r for r in names if r != locked]]
    things = rng.sample(objects, rng.randint(3, 4))
    items = [(KEY, rng.choice(open_places))]
    items += [(name, rng.choice(open_places)) for name in things]
    goal = rng.choice(put_t).format(item=things[0], room=locked)
    return Layout("put", tuple(doors), tuple(sorted(items)), locked, things[0], locked, goal)


def _adversarial(rng: random.Random, layout: Layout) -> Layout:
    """Add near-identical decoys and distracting sentences; the goal itself is unchanged."""
    decoy_room = f"dark {layout.target_room}"
    doors = (*layout.doors, (HALLWAY, decoy_room))
    items = layout.items
    if layout.target_item is not None:
        items = tuple(sorted((*items, (f"old {layout.target_item}", HALLWAY))))
    before, after = rng.sample(DISTRACTIONS, 2)
    goal = " ".join((before.format(decoy=decoy_room), layout.goal, after.format(decoy=decoy_room)))
    return Layout(
        layout.kind, doors, items, layout.target_room, layout.target_item, layout.locked_room, goal
    )
