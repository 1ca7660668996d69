"""``AgentGym/Toy-v0``: a tiny text house used to test agents, trainers and adapters without a
browser or TextWorld. See ``agentgym_envs.toy.tasks`` for the difficulty and split definitions."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from agentgym_envs.core import ActionError, ActionSet, ActionSpec, Arg, Call, TextEnv, Verdict
from agentgym_envs.toy.tasks import TABLE, layout_for
from agentgym_envs.toy.world import House, Layout


def normalise(action: str) -> str:
    """Lower-case, collapse spaces, drop a trailing full stop and the articles 'the'/'a'."""
    text = re.sub(r"\s+", " ", action.lower()).strip().rstrip(".").strip()
    return re.sub(r"\b(the|a|an) ", "", text)


def parse_command(text: str) -> Call:
    """A Toy command, normalised as ``step`` reads it (``ActionError`` when it is none)."""
    return ACTIONS.match(normalise(text))


ROOM = Arg("room", str, "A room a door of the current room leads to.", "<room>")
ACTIONS = ActionSet(
    (
        ActionSpec("go_to", "go to {room}", "Walk through a door into another room.", (ROOM,)),
        ActionSpec("take", "take {object}", "Pick up an object in the current room.",
                   (Arg("object", str, "An object the room holds.", "<object>"),)),
        ActionSpec("drop", "drop {object}", "Put down an object you carry.",
                   (Arg("object", str, "An object you carry.", "<object>"),)),
        ActionSpec("unlock", "unlock {room}", "Unlock the locked door to a room (needs the key).",
                   (ROOM,), usage="unlock <room> (needs the key)"),
        ActionSpec("look", "look", "Describe the current room again."),
        ActionSpec("inventory", "inventory", "List what you carry."),
    ),
    parser=parse_command,
)  # fmt: skip
ACTION_HELP = ACTIONS.describe()
VERBS = tuple(action.template.split()[0] for action in ACTIONS.actions)


class ToyTask:
    """One episode in a Toy house."""

    def __init__(self, task_id: str, layout: Layout, oracle: str = "shortest") -> None:
        self.task_id = task_id
        self.goal = layout.goal
        self.house = House(layout)
        self.oracle = oracle
        self._plan: list[str] | None = None

    def start(self) -> str:
        return f"Task: {self.goal}\n{self.house.describe()}"

    def act(self, action: str) -> str:
        command = normalise(action)
        if command not in self.house.commands():
            raise ActionError(self._why_not(command))
        if self._plan and self._plan[0] == command:
            self._plan.pop(0)
        else:
            self._plan = None
        return self.house.apply(command)

    def admissible_actions(self) -> list[str]:
        return self.house.commands()

    def verdict(self) -> Verdict:
        if self.house.solved():
            return Verdict(1.0, True, True)
        return Verdict(0.0, False, self.house.failed)

    def expert_action(self) -> str | None:
        if self.oracle == "explorer":
            return self.house.explore()
        if self._plan is None:
            self._plan = self.house.plan()
        return self._plan[0] if self._plan else None

    def close(self) -> None:
        pass

    def _why_not(self, command: str) -> str:
        verb, _, arg = command.partition(" ")
        house = self.house
        if verb not in VERBS:
            return f"unknown command {command!r}; commands are: {ACTION_HELP}"
        if verb in ("look", "inventory"):
            return f"{verb!r} takes no argument"
        if verb == "go":
            room = arg.removeprefix("to ")
            if room in house.neighbours(house.agent) and house.is_locked(room):
                return f"the {room} is locked; unlock it with the key first"
            return f"there is no door to {room!r} from the {house.agent}"
        if verb == "take":
            return f"there is no {arg!r} in the {house.agent}"
        if verb == "drop":
            return f"you are not carrying {arg!r}"
        if arg not in house.neighbours(house.agent) or not house.is_locked(arg):
            return f"there is no locked door to {arg!r} here"
        return "you need the key to unlock it"


class ToyEnv(TextEnv):
    """A text house: reach a room, carry an object, unlock a door (see ``tasks`` for levels).

    Actions: ``go to <room>``, ``take <object>``, ``drop <object>``, ``unlock <room>``, ``look``,
    ``inventory`` (case-insensitive; articles and a final full stop are ignored). Score 1 when
    the goal holds, which ends the episode; in easy tasks entering a wrong room ends it with 0.

    ``oracle`` picks what ``info["expert_action"]`` follows: ``"shortest"`` (default) a shortest
    solution computed with the whole house known, walking straight to objects the agent has not
    seen; ``"explorer"`` one that knows only what the agent was shown and searches room by room
    (``House.explore``: 1 / 6.5 / 13.8 steps on easy / medium / hard test, every house solved
    within 20), the demonstrator to clone for a policy that sees only observations.
    """

    oracles = ("shortest", "explorer")
    max_observation_chars = 4_000
    max_action_chars = 200
    action_set = ACTIONS

    def task_ids(self) -> Sequence[str]:
        return TABLE.task_ids(self.difficulty, self.split)

    def make_task(self, task_id: str, rng: np.random.Generator) -> ToyTask:
        return ToyTask(task_id, layout_for(task_id), self.oracle)
