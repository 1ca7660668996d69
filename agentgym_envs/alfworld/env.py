"""``ALFWorldEnv``: generated ALFWorld households played through TextWorld's PDDL engine.

See the package docstring (``agentgym_envs.alfworld``) for difficulties, splits and deviations.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from agentgym_envs.alfworld.assets import INSTALL_HINT, AlfworldMissingError
from agentgym_envs.alfworld.splits import TASK_TABLE
from agentgym_envs.core import ActionError, ActionSet, ActionSpec, Arg, Call, TextEnv, Verdict

NOTHING_HAPPENS = "Nothing happens."
#: Facts that only record what the agent looked at; changing them does not spoil a plan.
_BOOKKEEPING = frozenset({"checked", "examined"})
_PUT = re.compile(r"^put (.+?) (?:in/on|in|on|into) (.+)$")


def parse_command(text: str) -> Call:
    """An ALFWorld command (``put X in/on Y`` read as ``move X to Y``); ``ActionError`` when its
    form is none of the game's (whether the game admits it here is the env's to say)."""
    command = " ".join(text.split())
    if match := _PUT.match(command):
        command = f"move {match.group(1)} to {match.group(2)}"
    return ACTIONS.match(command)


RECEPTACLE = Arg("receptacle", str, 'A receptacle as the game names it, e.g. "fridge 1".', "X")
OBJECT = Arg("object", str, 'An object as the game names it, e.g. "apple 1".', "X")
TO = replace(RECEPTACLE, placeholder="Y")
THING = replace(OBJECT, description="An object or a receptacle as the game names it.")
TOOL = Arg("tool", str, 'The appliance or tool, e.g. "microwave 1" or "knife 1".', "Y")
ACTIONS = ActionSet(
    (
        ActionSpec("go_to", "go to {receptacle}", "Go to a receptacle.", (RECEPTACLE,)),
        ActionSpec("open", "open {receptacle}", "Open a receptacle.", (RECEPTACLE,)),
        ActionSpec("close", "close {receptacle}", "Close a receptacle.", (RECEPTACLE,)),
        ActionSpec("take", "take {object} from {receptacle}", "Take an object from a receptacle.",
                   (OBJECT, TO)),
        ActionSpec("move", "move {object} to {receptacle}",
                   "Put the object you hold in or on a receptacle.", (OBJECT, TO),
                   usage="move X to Y (or put X in/on Y)"),
        ActionSpec("use", "use {object}", "Use an object (turn a desk lamp on).", (OBJECT,)),
        ActionSpec("heat", "heat {object} with {tool}", "Heat an object with a microwave.",
                   (OBJECT, TOOL)),
        ActionSpec("cool", "cool {object} with {tool}", "Cool an object with a fridge.",
                   (OBJECT, TOOL)),
        ActionSpec("clean", "clean {object} with {tool}", "Clean an object in a sink basin.",
                   (OBJECT, TOOL)),
        ActionSpec("slice", "slice {object} with {tool}", "Slice an object with a knife.",
                   (OBJECT, TOOL)),
        ActionSpec("examine", "examine {object}", "Look closely at an object or receptacle.",
                   (THING,)),
        ActionSpec("inventory", "inventory", "List what you hold."),
        ActionSpec("look", "look", "Describe where you are."),
        ActionSpec("help", "help", "List the game's commands."),
    ),
    parser=parse_command,
)  # fmt: skip


def _engine_class() -> Any:
    try:
        from agentgym_envs.alfworld.engine import GameEngine
    except ImportError as exc:
        raise AlfworldMissingError(f"{INSTALL_HINT} ({exc})") from exc
    return GameEngine


class ALFWorldTask:
    """One episode on one generated game; the engine is borrowed from the env and reused."""

    def __init__(self, task_id: str, built: Any, engine: Any) -> None:
        self.task_id = task_id
        self.built = built
        self.engine = engine
        self.goal: str = built.meta["task"]["sentence"]
        self.task_type: str = built.meta["task"]["task_type"]

    def start(self) -> str:
        self.engine.load(self.built.game, self.built.translation)
        observation = self.engine.reset()
        self._plan = self.built.walkthrough
        self._next = 0
        self._replan = False
        return observation

    def act(self, action: str) -> str:
        admissible = self.engine.admissible_commands()
        command = " ".join(action.split())
        if command not in admissible and (match := _PUT.match(command)):
            command = f"move {match.group(1)} to {match.group(2)}"  # ALFWorld 0.2's wording
        if command not in admissible:
            raise ActionError(
                f"{action!r} is not an admissible command here; "
                "pick one of info['admissible_actions']",
                observation=NOTHING_HAPPENS,
            )
        expected = self._plan[self._next] if self._next < len(self._plan) else None
        before = self._relevant_facts() if command != expected and not self._replan else None
        feedback, _ = self.engine.step(command)
        if command == expected and not self._replan:
            self._next += 1
        elif before is not None and before != self._relevant_facts():
            self._replan = True  # the agent left the stored plan: replan lazily
        return feedback

    def _relevant_facts(self) -> frozenset:
        return frozenset(f for f in self.engine.facts() if f.name not in _BOOKKEEPING)

    def admissible_actions(self) -> list[str]:
        return self.engine.admissible_commands()

    def verdict(self) -> Verdict:
        won = bool(self.engine.won)
        return Verdict(score=1.0 if won else 0.0, success=won, done=won)

    def expert_action(self) -> str | None:
        if self._replan:
            self._plan = self.engine.expert_plan(self.built.meta["task"])
            self._next, self._replan = 0, False
        return self._plan[self._next] if self._next < len(self._plan) else None

    def close(self) -> None:
        """The engine belongs to the env; nothing to free per episode."""


class ALFWorldEnv(TextEnv):
    """ALFWorld's text households, generated offline: ``gymnasium.make("AgentGym/ALFWorld-v0")``."""

    action_set = ACTIONS

    def __init__(
        self,
        difficulty: str = "easy",
        split: str = "train",
        expert: bool = True,
        render_mode: str | None = None,
    ) -> None:
        super().__init__(difficulty=difficulty, split=split, expert=expert, render_mode=render_mode)
        self._engine: Any = None

    def task_ids(self) -> Sequence[str]:
        return TASK_TABLE.task_ids(self.difficulty, self.split)

    def make_task(self, task_id: str, rng: np.random.Generator) -> ALFWorldTask:
        from agentgym_envs.alfworld.games import get_game

        difficulty, split, index = TASK_TABLE.parse(task_id)
        if self._engine is None:
            self._engine = _engine_class()()
        return ALFWorldTask(task_id, get_game(self._engine, difficulty, split, index), self._engine)

    def close(self) -> None:
        super().close()
        engine, self._engine = self._engine, None
        if engine is not None:
            engine.close()
