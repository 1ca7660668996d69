"""Deterministic household generator: an ALFWorld FloorPlan + a task -> a ``Household``.

Rooms, receptacles and object classes come from the wheel's FloorPlan lists; which object fits in
which receptacle, and which can be heated/cooled/cleaned/toggled, come from ALFWorld's
``constants.py``; task sentences from its goal library (see ``assets``). The random stream is a
``random.Random`` seeded with a string, which is identical on every machine and process.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass

from agentgym_envs.alfworld import assets
from agentgym_envs.alfworld.household import TASK_TYPES, Household, Item, Receptacle, TaskSpec

#: Bump whenever generated games change; it keys the on-disk cache and the task lists.
GENERATOR_VERSION = 1

#: Appliance each state-change task needs, and which class it may not use as the destination.
_APPLIANCE = {
    "pick_clean_then_place_in_recep": "SinkBasin",
    "pick_heat_then_place_in_recep": "Microwave",
    "pick_cool_then_place_in_recep": "Fridge",
}
#: Near-identical object classes used as decoys in the adversarial split (our own choice).
_LOOKALIKES = {
    "Mug": ("Cup",),
    "Cup": ("Mug",),
    "Apple": ("Tomato",),
    "Tomato": ("Apple", "Potato"),
    "Potato": ("Tomato", "Egg"),
    "Egg": ("Potato",),
    "Knife": ("ButterKnife",),
    "ButterKnife": ("Knife",),
    "Fork": ("Spoon",),
    "Spoon": ("Fork", "Ladle"),
    "Ladle": ("Spoon", "Spatula"),
    "Spatula": ("Ladle",),
    "Pen": ("Pencil",),
    "Pencil": ("Pen",),
    "SaltShaker": ("PepperShaker",),
    "PepperShaker": ("SaltShaker",),
    "SoapBar": ("SoapBottle",),
    "SoapBottle": ("SoapBar", "SprayBottle"),
    "SprayBottle": ("SoapBottle",),
    "Bowl": ("Plate", "Pot"),
    "Plate": ("Bowl",),
    "Pot": ("Pan", "Kettle"),
    "Pan": ("Pot",),
    "Kettle": ("Pot",),
    "CellPhone": ("RemoteControl", "CreditCard"),
    "RemoteControl": ("CellPhone",),
    "CreditCard": ("KeyChain", "CellPhone"),
    "KeyChain": ("CreditCard",),
    "Book": ("Newspaper",),
    "Newspaper": ("Book",),
    "Towel": ("HandTowel", "Cloth"),
    "HandTowel": ("Towel", "Cloth"),
    "Cloth": ("HandTowel",),
    "ToiletPaper": ("TissueBox", "PaperTowel"),
    "TissueBox": ("ToiletPaper",),
    "WineBottle": ("Glassbottle",),
    "Glassbottle": ("WineBottle",),
    "Watch": ("AlarmClock",),
    "AlarmClock": ("Watch",),
    "Lettuce": ("Bread",),
    "Bread": ("Lettuce",),
    "Candle": ("Vase",),
    "Vase": ("Candle", "Statue"),
    "Statue": ("Vase",),
}


@dataclass(frozen=True)
class Profile:
    """What a difficulty level means for generation (documented in ``agentgym_envs.alfworld``)."""

    rooms: tuple[str, ...]
    task_weights: dict[str, float]
    max_receptacles: int | None  # subsample the layout down to this many (easy)
    min_receptacles: int  # pad the layout with extra receptacles of its own kinds up to this
    target_in_open: bool  # targets start on open surfaces, never inside a container
    min_closed_targets: int  # targets placed inside closed containers (when the house has any)
    min_containers: int  # closed containers (drawers/cabinets) added when the layout has fewer
    distractor_classes: tuple[int, int]
    distractor_copies: tuple[int, int]


PROFILES: dict[str, Profile] = {
    "easy": Profile(
        rooms=("Kitchen",),
        task_weights={"pick_and_place_simple": 1.0},
        max_receptacles=8,
        min_receptacles=5,
        target_in_open=True,
        min_closed_targets=0,
        min_containers=0,
        distractor_classes=(2, 4),
        distractor_copies=(1, 1),
    ),
    "medium": Profile(
        rooms=("Kitchen", "LivingRoom", "Bedroom", "Bathroom"),
        task_weights={t: 1.0 for t in TASK_TYPES},
        max_receptacles=None,
        min_receptacles=0,
        target_in_open=False,
        min_closed_targets=0,
        min_containers=0,
        distractor_classes=(4, 10),
        distractor_copies=(1, 3),
    ),
    "hard": Profile(
        rooms=("Kitchen", "LivingRoom", "Bedroom", "Bathroom"),
        task_weights={
            "pick_and_place_simple": 1.0,
            "look_at_obj_in_light": 2.0,
            "pick_clean_then_place_in_recep": 1.0,
            "pick_heat_then_place_in_recep": 1.0,
            "pick_cool_then_place_in_recep": 1.0,
            "pick_two_obj_and_place": 2.0,
        },
        max_receptacles=None,
        min_receptacles=25,
        target_in_open=False,
        min_closed_targets=1,
        min_containers=3,
        distractor_classes=(8, 14),
        distractor_copies=(2, 3),
    ),
}


class GenerationError(RuntimeError):
    """This seed cannot make a valid game (the caller retries with the next attempt)."""


def is_held_out_pair(task_type: str, object_class: str) -> bool:
    """Object x task pairings reserved for the ood split (about one in five, fixed by CRC32)."""
    return zlib.crc32(f"{task_type}:{object_class}".encode()) % 5 == 0


def layouts_for(room: str, held_out: bool) -> list[int]:
    """FloorPlans of ``room``: ALFWorld's unseen test scenes if ``held_out``, else the others."""
    t = assets.tables()
    numbers = [n for n in assets.layout_numbers() if n in t.scene_rooms[room]]
    return [n for n in numbers if (n in t.held_out_scenes) == held_out]


def _coordinate(rng: random.Random) -> str:
    return "|".join(f"{rng.uniform(-3, 3):+06.2f}" for _ in range(3))


def _location(x: float, z: float, rotation: int, horizon: int) -> str:
    return f"loc|{round(x * 4)}|{round(z * 4)}|{rotation // 90}|{horizon}"


class _Builder:
    """One generation attempt; raises GenerationError when the random choices do not fit."""

    def __init__(self, rng: random.Random, profile: Profile, ood: bool, adversarial: bool) -> None:
        self.rng = rng
        self.profile = profile
        self.ood = ood
        self.adversarial = adversarial
        self.tables = assets.tables()
        self.used_ids: set[str] = set()
        self.items: list[Item] = []

    def new_id(self, kind: str, suffix: str = "") -> str:
        while True:
            entity_id = f"{kind}|{_coordinate(self.rng)}{suffix}"
            if entity_id not in self.used_ids:
                self.used_ids.add(entity_id)
                return entity_id

    # -- receptacles ---------------------------------------------------------------------------
    def receptacles(self, number: int) -> list[Receptacle]:
        result, locations = [], set()
        for kind, layout_id, pose in assets.layout(number).receptacles:
            basin = kind.endswith("Basin") and not layout_id.endswith(kind)
            entity_id = layout_id + ("|" + kind if basin else "")
            self.used_ids.add(entity_id)
            result.append(self._receptacle(kind, entity_id, _location(*pose), locations))
        kinds = [r.kind for r in result]
        containers = sorted(
            {k for k in kinds if k in self.tables.openable} - {"Fridge", "Microwave"}
        )
        while sum(r.openable for r in result) < self.profile.min_containers:
            result.append(
                self._extra(self.rng.choice(containers or ["Drawer", "Cabinet"]), locations)
            )
        while len(result) < self.profile.min_receptacles:
            result.append(self._extra(self.rng.choice(kinds), locations))
        return result

    def _extra(self, kind: str, locations: set[str]) -> Receptacle:
        """A receptacle beyond the layout's own, at a made-up pose."""
        rotation = self.rng.choice((0, 90, 180, 270))
        pose = (self.rng.uniform(-4, 4), self.rng.uniform(-4, 4), rotation, 30)
        return self._receptacle(kind, self.new_id(kind), _location(*pose), locations)

    def _receptacle(self, kind: str, entity_id: str, location: str, taken: set[str]) -> Receptacle:
        base, n = location, 1
        while location in taken:  # one receptacle per location keeps "go to" unambiguous
            n += 1
            location = f"{base}|{n}"
        taken.add(location)
        return Receptacle(kind, entity_id, location, kind in self.tables.openable)

    # -- task ----------------------------------------------------------------------------------
    def task(
        self, task_type: str, classes: set[str], kinds: set[str]
    ) -> tuple[str, str, str | None, str | None]:
        t = self.tables
        candidates = sorted(c for c in classes if c in t.pickupable)
        if task_type in _APPLIANCE:
            if _APPLIANCE[task_type] not in kinds:
                raise GenerationError(f"{task_type} needs a {_APPLIANCE[task_type]}")
            needed = {
                "pick_clean_then_place_in_recep": t.cleanable,
                "pick_heat_then_place_in_recep": t.heatable,
                "pick_cool_then_place_in_recep": t.coolable,
            }[task_type]
            candidates = [c for c in candidates if c in needed]
        candidates = [c for c in candidates if is_held_out_pair(task_type, c) == self.ood]
        if task_type == "look_at_obj_in_light":
            lamps = sorted(c for c in classes if c in t.toggleable)
            if not lamps:
                raise GenerationError("look_at_obj_in_light needs a lamp")
            if not candidates:
                raise GenerationError("no object for this task")
            return task_type, self.rng.choice(candidates), None, self.rng.choice(lamps)
        pairs = []
        for obj in candidates:
            holders = sorted(k for k in kinds if obj in t.can_contain.get(k, ()))
            for dest in holders:
                if dest != _APPLIANCE.get(task_type) and len(holders) > 1:
                    pairs.append((obj, dest))
        if not pairs:
            raise GenerationError("no (object, destination) pair fits this house")
        obj, dest = self.rng.choice(pairs)
        return task_type, obj, dest, None

    # -- placement -----------------------------------------------------------------------------
    def place(
        self, kind: str, receptacles: list[Receptacle], count: int, closed_first: int = 0
    ) -> None:
        for i in range(count):
            options = [r for r in receptacles if kind in self.tables.can_contain.get(r.kind, ())]
            closed = [r for r in options if r.openable]
            pool = closed if i < closed_first and closed else options
            if not pool:
                raise GenerationError(f"no receptacle here can hold a {kind}")
            home = self.rng.choice(pool)
            self.items.append(Item(kind, self.new_id(kind), home.entity_id))

    def place_lamp(self, kind: str, receptacles: list[Receptacle]) -> None:
        surfaces = [r for r in receptacles if not r.openable and not r.kind.endswith("Basin")]
        if not surfaces:
            raise GenerationError("no surface for a lamp")
        self.items.append(Item(kind, self.new_id(kind), self.rng.choice(surfaces).entity_id))


def _sentence(
    rng: random.Random, task_type: str, obj: str, dest: str | None, toggle: str | None
) -> str:
    template = rng.choice(assets.goal_library()[task_type]["templates"])
    return template.format(
        obj=obj.lower(), recep=(dest or "").lower(), toggle=(toggle or "").lower()
    )


def generate(seed: str, difficulty: str, ood: bool = False, adversarial: bool = False) -> Household:
    """One attempt at a household for ``seed``; raises GenerationError if the draw does not fit."""
    rng = random.Random(f"agentgym-alfworld-v{GENERATOR_VERSION}:{seed}")
    profile = PROFILES[difficulty]
    builder = _Builder(rng, profile, ood, adversarial)
    # Task type first (so the profile's weights hold), then a room where ALFWorld allows it.
    weights = profile.task_weights
    task_type = rng.choices(list(weights), list(weights.values()))[0]
    rooms = [r for r in profile.rooms if r in builder.tables.goal_rooms[task_type]]
    room = rng.choice(rooms)
    number = rng.choice(layouts_for(room, held_out=ood))
    receptacles = builder.receptacles(number)
    classes = set(assets.layout(number).object_classes)
    kinds = {r.kind for r in receptacles}
    task_type, obj, dest, toggle = builder.task(task_type, classes, kinds)
    receptacles = _subsample(rng, profile, receptacles, obj, dest)
    # Targets never start where the goal wants them (the goal would hold at reset).
    starts = [r for r in receptacles if r.kind != dest and r.kind != _APPLIANCE.get(task_type)]
    if profile.target_in_open:
        starts = [r for r in starts if not r.openable]
    copies = rng.randint(2, 3) if task_type == "pick_two_obj_and_place" else rng.randint(1, 2)
    builder.place(obj, starts, copies, closed_first=profile.min_closed_targets)
    if toggle:
        builder.place_lamp(toggle, receptacles)
    for lamp in sorted(c for c in classes if c in builder.tables.toggleable and c != toggle):
        if rng.random() < 0.5:
            builder.place_lamp(lamp, receptacles)
    decoys = _decoys(builder, obj, receptacles) if adversarial else ()
    _distractors(builder, classes - {obj, *decoys}, receptacles)
    template = _sentence(rng, task_type, obj, dest, toggle)
    sentence = template
    if adversarial:
        from agentgym_envs.alfworld.adversarial import rewrite_sentence

        sentence = rewrite_sentence(rng, task_type, obj, dest, toggle, decoys)
    spec = TaskSpec(task_type, obj, dest, toggle, sentence, template)
    start = _location(rng.uniform(-5, 5), rng.uniform(-5, 5), 0, 30) + "|start"
    return Household(number, room, tuple(receptacles), tuple(builder.items), start, spec, decoys)


def _subsample(
    rng: random.Random, profile: Profile, receptacles: list[Receptacle], obj: str, dest: str | None
) -> list[Receptacle]:
    """Easy houses keep a few receptacles: a destination, an open surface for the target, others."""
    if profile.max_receptacles is None or len(receptacles) <= profile.max_receptacles:
        return receptacles
    can_contain = assets.tables().can_contain
    dests = [r for r in receptacles if r.kind == dest]
    surfaces = [
        r
        for r in receptacles
        if r.kind != dest and not r.openable and obj in can_contain.get(r.kind, ())
    ]
    if not surfaces:
        raise GenerationError("no open surface for the target")
    keep = {rng.choice(dests).entity_id, rng.choice(surfaces).entity_id} if dests else set()
    size = rng.randint(profile.min_receptacles, profile.max_receptacles)
    others = [r.entity_id for r in receptacles if r.entity_id not in keep]
    keep.update(rng.sample(others, min(len(others), size - len(keep))))
    return [r for r in receptacles if r.entity_id in keep]


def _decoys(builder: _Builder, obj: str, receptacles: list[Receptacle]) -> tuple[str, ...]:
    """Two copies of each near-identical class that this house can hold, next to the target."""
    placed = []
    target_home = next(i.receptacle for i in builder.items if i.kind == obj)
    for kind in _LOOKALIKES.get(obj, ()):
        holders = [r for r in receptacles if kind in builder.tables.can_contain.get(r.kind, ())]
        if holders:
            beside = [r for r in holders if r.entity_id == target_home]
            builder.place(kind, beside or holders, 1)  # one right next to the target
            builder.place(kind, holders, 1)
            placed.append(kind)
    if not placed:
        raise GenerationError(f"no lookalike of {obj} fits this house")
    return tuple(placed)


def _distractors(builder: _Builder, classes: set[str], receptacles: list[Receptacle]) -> None:
    rng, profile = builder.rng, builder.profile
    can_contain = builder.tables.can_contain
    kinds = {r.kind for r in receptacles}
    options = sorted(
        c
        for c in classes
        if c in builder.tables.pickupable and any(c in can_contain.get(k, ()) for k in kinds)
    )
    count = min(len(options), rng.randint(*profile.distractor_classes))
    for kind in rng.sample(options, count):
        builder.place(kind, receptacles, rng.randint(*profile.distractor_copies))
