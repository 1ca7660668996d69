"""The episode record: one JSON object per played episode, the one format every result is kept in.

A benchmark run's ``episodes.jsonl``, a training run's evaluations and a board submission hold
these records; the verifier and the board read them back (strictly, ``field_types`` says what
each field must be). A record is the episode's place in its protocol (env, difficulty, split,
task, seed, step limit and ``key``), its figures, ``error`` (None, or why the episode could not
be played: it then counts as a failure), who played (``agent``) and the whole ``trajectory``
(``Trajectory.to_record``: first observation and every step, ``StepRecord``).
"""

import json
import types
import typing
from collections.abc import Iterable
from typing import Any, NotRequired, TypedDict

from agentgym_envs.core.episode import Trajectory


class StepRecord(TypedDict):
    """One step of a trajectory (``core.episode.step_record`` makes it)."""

    action: str
    observation: str
    reward: float
    terminated: bool
    truncated: bool
    action_error: str | None
    expert_action: NotRequired[str | None]
    #: whether the action was one the step's info listed (None where it lists none)
    admissible: NotRequired[bool | None]
    admissible_actions: NotRequired[list[str] | None]
    #: the agent's own record of the turn (an LLM agent's prompt and raw reply)
    llm: NotRequired[dict[str, Any]]


class EpisodeRecord(TypedDict):
    """One played (or failed) episode of a benchmark run or a training run's evaluation."""

    key: str  # ``core.episode.episode_key``, plus ``|variant`` in a suite with variants
    env_id: str
    difficulty: str
    split: str
    task_id: str
    seed: int
    max_steps: int
    score: float
    success: bool
    length: int
    error: str | None
    trajectory: dict[str, Any] | None  # ``Trajectory.to_record``; None for an error
    variant: NotRequired[str]
    invalid_actions: NotRequired[int]
    complete: NotRequired[bool]
    agent: NotRequired[dict[str, Any]]  # who played: its spec and description
    seconds: NotRequired[float | None]  # wall time (None: timed out or lost with its worker)
    prompt: NotRequired[dict[str, Any]]  # the suite's prompt settings and whether they applied
    rule_violations: NotRequired[dict[str, bool]]  # env rule name -> broken


def played_record(place: dict[str, Any], played: Trajectory, agent: dict[str, Any]
                  ) -> EpisodeRecord:  # fmt: skip
    """The record of ``played`` at ``place`` (its protocol fields and ``key``)."""
    return typing.cast(EpisodeRecord, {
        **place, "score": played.score, "success": played.success, "length": played.length,
        "invalid_actions": played.invalid_actions, "complete": played.complete, "error": None,
        "agent": agent, "trajectory": played.to_record(),
    })  # fmt: skip


def failed_record(place: dict[str, Any], reason: str, seconds: float | None = None
                  ) -> EpisodeRecord:  # fmt: skip
    """The record of an episode at ``place`` that could not be played: a failure, ``reason``
    says why."""
    return typing.cast(EpisodeRecord, {
        **place, "score": 0.0, "success": False, "length": 0, "invalid_actions": 0,
        "complete": False, "error": reason, "trajectory": None, "seconds": seconds,
    })  # fmt: skip


def records_text(records: Iterable[EpisodeRecord | dict[str, Any]]) -> str:
    """``records`` as JSON lines, the way every episodes file is written."""
    return "".join(json.dumps(record) + "\n" for record in records)


def field_types(record_type: type, required_only: bool = True) -> dict[str, tuple[type, ...]]:
    """A record type's fields and the Python types a value read from JSON may have (what a
    strict reader checks; ``required_only``: the fields every record must hold)."""
    hints = typing.get_type_hints(record_type)
    required = record_type.__required_keys__  # type: ignore[attr-defined]
    return {name: _json_types(hint) for name, hint in hints.items()
            if name in required or not required_only}  # fmt: skip


def _json_types(hint: Any) -> tuple[type, ...]:
    if typing.get_origin(hint) is NotRequired:
        hint = typing.get_args(hint)[0]
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return tuple(t for arg in typing.get_args(hint) for t in _json_types(arg))
    if hint is float:
        return (int, float)  # JSON writes 1.0 as 1 in some writers
    if hint is None or hint is type(None):
        return (type(None),)
    return (typing.get_origin(hint) or hint,)


__all__ = [
    "EpisodeRecord",
    "StepRecord",
    "failed_record",
    "field_types",
    "played_record",
    "records_text",
]
