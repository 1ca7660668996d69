"""``TextEnv``: the Gymnasium side of every AgentGym environment.

Subclasses say which tasks exist (``task_ids``) and how to build one (``make_task``); this class
does the rest of the contract (docs/ARCHITECTURE.md §3) once: seeding, task choice, the
invalid-action path, the reward, and the info keys every env reports.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import re
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

from agentgym_envs.core.actions import ActionSet
from agentgym_envs.core.spaces import clean_text, text_space
from agentgym_envs.core.splits import DIFFICULTIES, SPLITS, check_choice
from agentgym_envs.core.task import ActionError, EpisodeAborted, Task, Verdict, extra_info

_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")

#: The keys every env puts in ``info`` on reset and on every step.
INFO_KEYS: tuple[str, ...] = (
    "task_id",
    "split",
    "difficulty",
    "goal",
    "admissible_actions",
    "success",
    "score",
    "action_error",
    "expert_action",
)


@dataclass(frozen=True)
class _End:
    """How the episode ended, repeated by every ``step`` after it until ``reset``."""

    verdict: Verdict
    terminated: bool
    truncated: bool
    reason: str | None = None  # the truncated_reason of an aborted episode


@functools.cache
def source_digest(*folders: Path) -> str:
    """12 hex digits of SHA-256 over the ``.py`` and ``.json`` files of ``folders`` (not their
    subfolders), by name and content: it changes when a file of them does."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted([*folder.glob("*.py"), *folder.glob("*.json")]):
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


class TextEnv(gym.Env[str, str]):
    """A text-in, text-out env over a fixed, enumerable task list per (difficulty, split).

    Reward is the increase of the task's score (in [0, 1]) caused by the step, so an episode's
    return equals its final score. A malformed or impossible action costs the step, earns 0,
    leaves the world unchanged, and is reported in ``info["action_error"]`` and in the observation.
    After the end (terminated, or truncated because the episode was aborted) every ``step``
    changes nothing and reports that end again, with its ``truncated_reason``, until ``reset``.
    """

    # (not ClassVar: gymnasium.Env declares metadata as an attribute that instances may override)
    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012
    #: Longest observation the env emits; longer text is cut with a visible marker.
    max_observation_chars: ClassVar[int] = 100_000
    #: Longest action the action space samples; longer agent text is still accepted by ``step``.
    max_action_chars: ClassVar[int] = 2_000
    #: The family's actions: help text, parser, text forms and tool schemas.
    action_set: ClassVar[ActionSet | None] = None
    #: One line per action form, for prompts and for ``agentgym play``: the action set's
    #: ``describe()``, filled in for each subclass that names a set.
    action_help: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.action_set is not None:
            cls.action_help = cls.action_set.describe()

    #: Tasks whose observations or reward follow the wall clock by design, with the reason:
    #: the same seed and actions need not replay them exactly (replay checks skip them).
    real_time_tasks: ClassVar[Mapping[str, str]] = {}
    #: The oracles ``info["expert_action"]`` can follow, the default first: a family with more
    #: than one (one that searches as the agent must, beside one that knows the whole task) takes
    #: ``oracle=`` and hands ``self.oracle`` to its tasks.
    oracles: ClassVar[tuple[str, ...]] = ("default",)

    def __init__(
        self,
        difficulty: str = "easy",
        split: str = "train",
        expert: bool = True,
        render_mode: str | None = None,
        oracle: str | None = None,
    ) -> None:
        self.difficulty = check_choice("difficulty", difficulty, DIFFICULTIES)
        self.split = check_choice("split", split, SPLITS)
        self.oracle = check_choice("oracle", oracle or self.oracles[0], self.oracles)
        if render_mode is not None:
            check_choice("render_mode", render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        self.expert = bool(expert)
        self.observation_space = text_space(self.max_observation_chars)
        self.action_space = text_space(self.max_action_chars, min_length=1)
        self._task: Task | None = None
        self._task_id_set: frozenset[str] | None = None
        self._observation = ""
        self._score = 0.0
        self._end: _End | None = None

    def content_version(self) -> str:
        """What this env's episodes depend on besides seeds and actions, as a short text that
        results record: by default a digest of the env family's and the core's source files
        (families add their data: WebShop its catalog, MiniWoB its page package)."""
        family = Path(inspect.getfile(type(self))).parent
        return f"src-{source_digest(family, Path(__file__).parent)}"

    # ---- what subclasses provide -------------------------------------------------------------
    @abstractmethod
    def task_ids(self) -> Sequence[str]:
        """The fixed task list of this env's (difficulty, split), identical on every machine."""

    @abstractmethod
    def make_task(self, task_id: str, rng: np.random.Generator) -> Task:
        """Build the task for ``task_id``; ``rng`` may randomise what the id leaves open."""

    # ---- Gymnasium API -----------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        options = dict(options or {})
        task_id = options.pop("task_id", None)
        if options:
            raise ValueError(
                f"unknown reset option(s) {sorted(options)}; the only one is 'task_id'"
            )
        ids = self.task_ids()
        if not ids:
            raise ValueError(
                f"{type(self).__name__} has no tasks for {self.difficulty}/{self.split}"
            )
        if task_id is None:
            task_id = ids[int(self.np_random.integers(len(ids)))]
        elif task_id not in self._known_task_ids():
            raise ValueError(
                f"task_id {task_id!r} is not in the {self.difficulty}/{self.split} task list; "
                "see env.unwrapped.task_ids() or make the env with the matching difficulty/split"
            )
        self._close_task()
        self._end = None
        self._task = self.make_task(task_id, self.np_random)
        self._observation = self._clean(self._task.start())
        verdict = self._task.verdict()
        self._score = verdict.score
        if verdict.done:
            self._end = _End(verdict, terminated=True, truncated=False)
        return self._observation, self._info(verdict, None)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if self._task is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        if self._end is not None:
            return self._after_end()
        text, error = self._parse(action)
        observation = None
        if error is None:
            try:
                self._observation = self._clean(self._task.act(text))
            except ActionError as exc:
                error = exc.reason or "invalid action"
                observation = exc.observation
            except EpisodeAborted as exc:
                return self._abort(str(exc) or type(exc).__name__)
        if error is not None:
            if observation is None:
                observation = f"{self._observation}\n\nInvalid action: {error}"
            observation = self._clean(observation)
        verdict = self._task.verdict()
        reward = 0.0 if error is not None else float(verdict.score - self._score)
        self._score = verdict.score
        if verdict.done:
            self._end = _End(verdict, terminated=True, truncated=False)
        obs = self._observation if observation is None else observation
        if self.render_mode == "human":
            print(obs)
        return obs, reward, verdict.done, False, self._info(verdict, error)

    def recover(self, reason: str) -> None:
        """Called after a task raised ``EpisodeAborted``: repair what the env owns (restart a
        browser page, say) so that the next ``reset`` works. Nothing to do by default."""

    def _abort(self, reason: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        self.recover(reason)
        verdict = Verdict(score=self._score, success=False, done=True)
        self._end = _End(verdict, terminated=False, truncated=True, reason=reason)
        info = self._info(verdict, None)
        info["truncated_reason"] = reason
        self._observation = self._clean(
            f"The episode was aborted ({reason}). Call reset() to continue."
        )
        return self._observation, 0.0, False, True, info

    def _after_end(self) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """A step after the end: nothing happens, and the end is reported again, as it was
        (terminated, or truncated with its reason), without touching the task, which may be
        gone (a crashed browser)."""
        end = self._end
        assert end is not None
        error = "the episode is over; call reset() to start a new one"
        info = self._info(end.verdict, error)
        if end.reason is not None:
            info["truncated_reason"] = end.reason
        observation = self._clean(f"{self._observation}\n\nInvalid action: {error}")
        return observation, 0.0, end.terminated, end.truncated, info

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self._observation
        if self.render_mode == "human":
            print(self._observation)
        return None

    def close(self) -> None:
        self._close_task()
        super().close()

    # ---- helpers -----------------------------------------------------------------------------
    @property
    def task(self) -> Task | None:
        """The current episode's task (None before the first reset)."""
        return self._task

    def _known_task_ids(self) -> frozenset[str]:
        if self._task_id_set is None:
            self._task_id_set = frozenset(self.task_ids())
        return self._task_id_set

    def _close_task(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.close()

    def _parse(self, action: object) -> tuple[str, str | None]:
        if isinstance(action, bytes):
            action = action.decode("utf-8", errors="replace")
        if isinstance(action, np.str_):
            action = str(action)
        if not isinstance(action, str):
            return "", f"an action must be a string, got {type(action).__name__}"
        text = action.strip()
        if not text:
            return "", "the action is empty"
        return text, None

    def _clean(self, text: str) -> str:
        if (
            text.isascii()
            and not _ASCII_CONTROL.search(text)
            and len(text) <= self.max_observation_chars
        ):
            return text
        return clean_text(text, self.max_observation_chars)

    def _info(self, verdict: Verdict, error: str | None) -> dict[str, Any]:
        task = self._task
        assert task is not None
        expert = task.expert_action() if self.expert and not verdict.done else None
        info = {
            "task_id": task.task_id,
            "split": self.split,
            "difficulty": self.difficulty,
            "goal": task.goal,
            "admissible_actions": [] if verdict.done else list(task.admissible_actions()),
            "success": bool(verdict.success),
            "score": float(verdict.score),
            "action_error": error,
            "expert_action": expert,
        }
        info.update(extra_info(task))
        return info
