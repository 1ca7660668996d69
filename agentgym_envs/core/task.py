"""The task side of the task/env split: what one episode asks, checks and knows.

An env (``TextEnv``) owns the Gymnasium plumbing; a ``Task`` owns one episode's world and rules.
This mirrors BrowserGym's split so that every benchmark only writes the part that differs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable


class ActionError(Exception):
    """Raised by ``Task.act`` when the agent's action is malformed or impossible.

    ``str(error)`` is the short, human-readable reason that lands in ``info["action_error"]``.
    ``observation`` optionally replaces the env's default error observation (ALFWorld answers
    ``"Nothing happens."``, for example).
    """

    def __init__(self, reason: str, observation: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.observation = observation


class EpisodeAborted(Exception):
    """Raised by a ``Task`` when the episode cannot go on through no fault of the agent (a crashed
    browser, a dead engine process). The env truncates the episode, puts ``str(error)`` in
    ``info["truncated_reason"]`` and calls its ``recover`` hook so the next ``reset`` works."""


@dataclass(frozen=True)
class Verdict:
    """How the episode stands: ``score`` in [0, 1], ``done`` once it cannot change any more."""

    score: float = 0.0
    success: bool = False
    done: bool = False

    def __post_init__(self) -> None:
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"Verdict.score must lie in [0, 1], got {self.score!r}")


@runtime_checkable
class Task(Protocol):
    """One episode's task logic. ``act`` receives the agent's text already stripped."""

    task_id: str
    goal: str

    def start(self) -> str:
        """Set the episode up and return the first observation."""
        ...

    def act(self, action: str) -> str:
        """Apply one action and return the observation; raise ``ActionError`` if it is invalid."""
        ...

    def admissible_actions(self) -> list[str]:
        """The exact action strings ``act`` accepts in the current state."""
        ...

    def verdict(self) -> Verdict:
        """Score, success and whether the task is over."""
        ...

    def expert_action(self) -> str | None:
        """The oracle's next action from the current state (None when nothing is left to do)."""
        ...

    def close(self) -> None:
        """Free what the episode holds (pages, processes); may be called twice."""
        ...


def extra_info(task: Task) -> dict[str, Any]:
    """Env-specific info keys a task offers through an optional ``extra_info()`` method."""
    method = getattr(task, "extra_info", None)
    return dict(method()) if callable(method) else {}
