"""The one episode loop: an agent plays a seeded episode to its end, and the result keeps what
replaying and scoring need, in the ``TrajectoryRecorder`` format (one JSON object per episode).

The benchmark runner, behaviour cloning and the tiny-model corpora all play episodes through
``play_episode``, so a benchmark result, a cloning example and a recorded trajectory are the same
record.

An agent may say how it chose each action: with a ``turn_record(slot=None)`` method (an LLM
agent's prompt and raw reply), whatever it returns right after ``act`` (or, batched, after
``act_batch`` for that slot) goes into that step's record as ``"llm"``, so a run can be
debugged from its records. Agents without it (random, oracle) record exactly what they did.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, SupportsFloat

import gymnasium as gym

#: the step-record field holding what an agent's ``turn_record`` returned for that step
TURN_KEY = "llm"


class Agent(Protocol):
    """Anything that answers an observation with an action (None: it has no move, so the
    episode stops there, incomplete); ``reset(seed)``, when present, is called first, and
    ``turn_record()``, when present, after each ``act`` (see the module docstring)."""

    def act(self, observation: str, info: dict[str, Any]) -> str | None: ...


@dataclass
class Trajectory:
    """One played episode: its task, first observation, steps and outcome."""

    env_id: str
    task_id: str | None
    seed: int | None
    difficulty: str | None
    split: str | None
    goal: str | None
    observation: str
    steps: list[dict[str, Any]] = field(default_factory=list)
    score: float = 0.0
    success: bool = False
    #: the episode ended (terminated or truncated), not cut off by the caller or the agent
    complete: bool = False

    @property
    def key(self) -> str:
        """The episode's id in result files: env, difficulty, split, task and seed."""
        return episode_key(self.env_id, self.difficulty, self.split, self.task_id, self.seed)

    @property
    def episode_return(self) -> float:
        return sum(step["reward"] for step in self.steps)

    @property
    def length(self) -> int:
        return len(self.steps)

    @property
    def invalid_actions(self) -> int:
        return sum(step["action_error"] is not None for step in self.steps)

    def to_record(self) -> dict[str, Any]:
        """The ``TrajectoryRecorder`` JSON object of this episode."""
        return {
            "env_id": self.env_id,
            "task_id": self.task_id,
            "seed": self.seed,
            "difficulty": self.difficulty,
            "split": self.split,
            "goal": self.goal,
            "observation": self.observation,
            "steps": self.steps,
            "return": self.episode_return,
            "length": self.length,
            "score": self.score,
            "success": self.success,
            "complete": self.complete,
        }


def env_name(env: gym.Env) -> str:
    """The registered id of ``env`` (its class name when it was not made by id)."""
    return env.spec.id if env.spec is not None else type(env.unwrapped).__name__


def episode_key(env_id: str, difficulty: Any, split: Any, task_id: Any, seed: Any) -> str:
    """``env|difficulty|split|task|seed``: how benchmark results and replays name an episode."""
    return f"{env_id}|{difficulty}|{split}|{task_id}|{seed}"


def new_trajectory(
    env: gym.Env | str, seed: int | None, observation: str, info: dict
) -> Trajectory:
    """The record of an episode that was just reset (``env``: the env, or its id)."""
    return Trajectory(
        env_id=env if isinstance(env, str) else env_name(env),
        task_id=info.get("task_id"),
        seed=seed,
        difficulty=info.get("difficulty"),
        split=info.get("split"),
        goal=info.get("goal"),
        observation=observation,
    )


def step_record(
    action: Any,
    observation: str,
    reward: SupportsFloat,
    terminated: bool,
    truncated: bool,
    info: dict[str, Any],
    before: dict[str, Any],
    admissible: bool = False,
    turn: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One step of a record; ``before`` is the info the action was chosen from (its oracle
    action, whether the action was one it listed as admissible (None where it lists none) and,
    with ``admissible``, the list itself are recorded); ``turn``, the agent's own record of
    the turn (``turn_record``), is kept as ``"llm"`` (no field at all without one)."""
    listed = before.get("admissible_actions") or []
    text = action if isinstance(action, str) else repr(action)
    step = {
        "action": text,
        "observation": observation,
        "reward": float(reward),
        "terminated": bool(terminated),
        "truncated": bool(truncated),
        "action_error": info.get("action_error"),
        "expert_action": before.get("expert_action"),
        "admissible": (text in listed) if listed else None,
    }
    if admissible:
        step["admissible_actions"] = before.get("admissible_actions")
    if turn is not None:
        step[TURN_KEY] = turn
    return step


def turn_record(agent: Any, slot: int | None = None) -> dict[str, Any] | None:
    """What ``agent`` says of the turn it just played (in batch ``slot``, when batched): its
    ``turn_record`` method's answer, None for an agent without one."""
    own = getattr(agent, "turn_record", None)
    if not callable(own):
        return None
    return own() if slot is None else own(slot)


class LiveEpisode:
    """One episode played a step at a time: what ``play_episode`` loops over, and what a
    lock-step player holds several of (one model call answers every live episode's turn).

    Made by resetting ``env``; ``apply(action)`` takes one step (None: the agent has no move,
    the episode stops there) until ``done``; ``result()`` is the finished ``Trajectory``."""

    def __init__(
        self,
        env: gym.Env,
        seed: int | None,
        max_steps: int | None = None,
        admissible: bool = False,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.env, self.max_steps, self.admissible = env, max_steps, admissible
        self.observation, self.info = env.reset(seed=seed, options=options)
        self.trajectory = new_trajectory(env, seed, self.observation, self.info)
        self.ended = False  # the episode ended, or the agent had no move

    @property
    def done(self) -> bool:
        limited = self.max_steps is not None and self.trajectory.length >= self.max_steps
        return self.ended or limited

    def apply(self, action: Any, turn: dict[str, Any] | None = None) -> None:
        """Step the env with the agent's ``action`` (None ends the episode, incomplete);
        ``turn`` is the agent's record of the turn (``turn_record``), kept with the step."""
        if action is None:
            self.ended = True
            return
        observation, reward, terminated, truncated, after = self.env.step(action)
        self.trajectory.steps.append(
            step_record(
                action, observation, reward, terminated, truncated, after, self.info,
                self.admissible, turn,
            )
        )  # fmt: skip
        self.observation, self.info = observation, after
        if terminated or truncated:
            self.trajectory.complete = True
            self.ended = True

    def result(self) -> Trajectory:
        """The trajectory, scored from the last info."""
        self.trajectory.score = float(self.info.get("score", 0.0))
        self.trajectory.success = bool(self.info.get("success", False))
        return self.trajectory


def play_episode(
    env: gym.Env,
    agent: Agent,
    seed: int | None,
    max_steps: int | None = None,
    admissible: bool = False,
    options: dict[str, Any] | None = None,
) -> Trajectory:
    """Reset ``env`` with ``seed`` (and reset ``options``, e.g. ``{"task_id": ...}``) and let
    ``agent`` act until the episode ends, the agent has no move, or ``max_steps`` steps were
    taken; ``admissible`` records each step's admissible actions (what behaviour cloning learns
    to choose from)."""
    reset = getattr(agent, "reset", None)
    if callable(reset):
        reset(seed)
    live = LiveEpisode(env, seed, max_steps, admissible, options)
    while not live.done:
        action = agent.act(live.observation, live.info)
        live.apply(action, turn_record(agent))
    return live.result()


__all__ = [
    "TURN_KEY",
    "Agent",
    "LiveEpisode",
    "Trajectory",
    "env_name",
    "episode_key",
    "new_trajectory",
    "play_episode",
    "step_record",
    "turn_record",
]
