"""``MiniWoBEnv``: Farama's MiniWoB++ task pages played through Playwright, in text.

Faithfulness and deliberate deviations (documented as DESIGN §5 asks):
- Same HTML (the installed ``miniwob`` package) and the same seeding calls as Farama's env, so a
  page seed gives the same task there and here (``info["page_seed"]``).
- Pages run on virtual time (``clock.py``: a logical clock behind the page's timers, ``Date``
  and ``performance.now()``): page time passes only as the env lets it (after an action until
  the page is idle, ``wait N`` N seconds), so episodes replay exactly on any machine, timed
  tasks included (button-delay, stock-market, drag-cube). MiniWoB's episode timeout is
  disabled; the step budget is the only limit.
- Reward: the raw (not time-scaled) MiniWoB reward ``raw`` in [-1, 1], in ``info["raw_reward"]``;
  ``success`` = raw == 1 (Farama's binary reward: the task fully done; ``success_rule=
  "browsergym"`` takes raw > 0 instead) and ``score`` = raw once the task ends, 0 for raw <= 0
  and before the end (``outcome.py``): an episode's return is its final score, partial credit
  (0 < raw < 1) scores that much without counting as a success.
- Text observation and actions (see ``actions.ACTION_HELP``) instead of Farama's pixel/ref actions;
  the pointer actions (click_xy, drag, select_text, draw) take page coordinates or elements.
  ``observation_mode="text_bbox"`` adds each element's box to its line; ``screenshot=True`` puts
  a PNG of the task area in ``info["screenshot"]`` after every reset and step (off by default).
- Every step is bounded: ``type`` text is capped at ``actions.MAX_TYPE_CHARS`` (an action error
  beyond), and a step past ``step_timeout_s`` (30 s) is stopped (its call cancelled, its page
  closed) and truncated (``info["truncated_reason"]``); the next reset opens a fresh page.
- Tasks whose page state leaks across episodes are reloaded every episode (deterministic here).
- Splits: train/valid/test/ood play disjoint blocks of page seeds, each reset seed its own page
  (``seeds.py``: a bijection, no two reset seeds share a page); ``ood`` also uses held-out tasks
  (variant transfer and held-out families, see tasks.py); ``adversarial`` replays the test seeds
  with decoy elements on the page and distracting text around the instruction (the task's reward
  unchanged).
- ``admissible_actions`` lists the enumerable actions (clicks, selects, scrolls, keys, noop); typing
  is open-ended, so ``type [id] "..."`` is accepted for any text field listed in the page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from agentgym_envs.core import SPLITS, TextEnv, Verdict, check_choice
from agentgym_envs.miniwob import dom_text
from agentgym_envs.miniwob.actions import ACTIONS, parse_action
from agentgym_envs.miniwob.adversarial import distract_goal, inject_decoys
from agentgym_envs.miniwob.async_page import LoopPage, MiniWoBPage
from agentgym_envs.miniwob.browser import find_chromium, require_playwright
from agentgym_envs.miniwob.oracles import expert_action
from agentgym_envs.miniwob.outcome import SUCCESS_RULES, end_note, episode_outcome
from agentgym_envs.miniwob.page import (
    STEP_TIMEOUT_S,
    BrowserCrashed,
    EpisodeState,
    Started,
)
from agentgym_envs.miniwob.seeds import BLOCK, page_seed
from agentgym_envs.miniwob.tasks import (
    REAL_TIME_TASKS,
    TASKS,
    TIERS,
    check_task_split,
    data_mode,
    default_split,
    html_root,
    miniwob_version,
    task_spec,
    tier_tasks,
)

#: Observation modes: ``text`` (the page as element lines) and ``text_bbox`` (each element's line
#: ends with its box ``@x,y,w,h``, page CSS pixels, for the coordinate actions).
OBSERVATION_MODES = ("text", "text_bbox")


class MiniWoBTask:
    """One MiniWoB episode on the env's page (the page outlives the task)."""

    def __init__(
        self,
        page: LoopPage,
        name: str,
        page_seed: int,
        adversarial: bool,
        rng: np.random.Generator,
        success_rule: str = "farama",
        data_mode: str = "train",
        boxes: bool = False,
        screenshot: bool = False,
    ) -> None:
        self.task_id = name
        self.boxes = boxes  # the text_bbox observation mode
        self.take_screenshots = screenshot
        self.screenshot: bytes | None = None  # PNG of the task area at the last observation
        self.success_rule = success_rule
        self.data_mode = data_mode  # MiniWoB's: "test" plays a task's own test distribution
        self.page_seed = page_seed
        self.goal = ""
        self._page = page
        self._adversarial = adversarial
        self._rng = rng
        self._nodes: list[dict[str, Any]] = []
        self._utterance = ""
        self._fields: dict[str, str] = {}
        self._raw = 0.0
        self._done = False
        self.reason: Any = None
        #: Applied actions (typed text for ``type``): oracles use it to know what was done.
        self.history: list[str] = []
        #: Scratch space for oracles that must remember what the page no longer shows.
        self.memory: dict[str, Any] = {}

    def start(self) -> str:
        spec = TASKS[self.task_id]
        try:
            started = self._start_page(spec.fresh_page)
        except BrowserCrashed:
            self._page.recover()  # one retry on a fresh context, then give up loudly
            started = self._start_page(spec.fresh_page)
        instruction = started.instruction
        self._utterance, self._fields = instruction.utterance, instruction.fields
        self.goal = instruction.goal
        if not self._adversarial:  # the page is as the start observed it
            return self._observe(started.state, started.nodes)
        self.goal = distract_goal(instruction.goal, self._rng)
        inject_decoys(self._page, self._rng)
        return self._observe()

    def _start_page(self, fresh_page: bool) -> Started:
        return self._page.start_episode(self.task_id, self.page_seed, fresh_page, self.data_mode)

    @property
    def utterance(self) -> str:
        """The page's own instruction (without adversarial distractions)."""
        return self._utterance

    @property
    def fields(self) -> dict[str, str]:
        """Structured task fields for the nl-turk tasks ({} otherwise)."""
        return self._fields

    @property
    def raw_reward(self) -> float:
        return self._raw

    @property
    def page(self) -> LoopPage:
        return self._page

    @property
    def nodes(self) -> list[dict[str, Any]]:
        return self._nodes

    def _observe(
        self, state: EpisodeState | None = None, nodes: list[dict[str, Any]] | None = None
    ) -> str:
        """The observation of the page now (or of ``state`` and ``nodes`` just read from it)."""
        if state is None or nodes is None:
            state, nodes = self._page.observe()
        self._done, self._raw, self.reason = state.done, state.raw, state.reason
        self._nodes = nodes
        note = end_note(self._raw, self._done, self.success_rule)
        if self.take_screenshots:
            self.screenshot = self._page.screenshot()
        return dom_text.render_observation(self.goal, self._nodes, note, self.boxes)

    def act(self, action: str) -> str:
        parsed = parse_action(action)
        with self._page.deadline(self._page.step_timeout_s):
            state, nodes = self._page.act(parsed)
            self.history.append(parsed.text if parsed.kind == "type" else parsed.render())
            return self._observe(state, nodes)

    def admissible_actions(self) -> list[str]:
        return dom_text.admissible_actions(self._nodes)

    def verdict(self) -> Verdict:
        if not self._done:
            return Verdict()
        score, success = episode_outcome(self._raw, True, self.success_rule)
        return Verdict(score=score, success=success, done=True)

    def expert_action(self) -> str | None:
        if self._done:
            return None
        try:
            return expert_action(self)
        except BrowserCrashed:
            return None

    def extra_info(self) -> dict[str, Any]:
        """MiniWoB's own view of the episode: page seed, raw reward in [-1, 1], utterance, and
        how many clicks fell back to an untrusted JS click."""
        info = {
            "page_seed": self.page_seed,
            "raw_reward": self._raw,
            "utterance": self._utterance,
            "untrusted_clicks": self._page.untrusted_clicks,
        }
        if self.take_screenshots:
            info["screenshot"] = self.screenshot
        return info

    def close(self) -> None:
        """The page belongs to the env; nothing per-episode to free."""


class MiniWoBEnv(TextEnv):
    """MiniWoB++ in text. ``task=None`` samples the tier's tasks (``AgentGym/MiniWoB-v0``)."""

    action_set = ACTIONS
    real_time_tasks = REAL_TIME_TASKS

    def __init__(
        self,
        task: str | None = None,
        difficulty: str | None = None,
        split: str | None = None,
        expert: bool = True,
        render_mode: str | None = None,
        reload_every: int = 50,
        step_timeout_s: float | None = STEP_TIMEOUT_S,
        success_rule: str = "farama",
        observation_mode: str = "text",
        screenshot: bool = False,
        page: LoopPage | None = None,
    ) -> None:
        """``page``: the page to play on (``vector.MiniWoBVectorEnv`` passes ``LoopPage``s on its
        own loop and browser; it then carries ``reload_every``, ``step_timeout_s`` and the boxes
        of ``observation_mode``); default a ``MiniWoBPage`` (a ``LoopPage`` on the process's
        shared loop and browser)."""
        self.task_name = task
        self.success_rule = check_choice("success_rule", success_rule, SUCCESS_RULES)
        self.observation_mode = check_choice(
            "observation_mode", observation_mode, OBSERVATION_MODES
        )
        self.screenshot = bool(screenshot)
        self._reset_seed: int | None = None  # the seed of the last reset (seeds.py)
        if task is not None:
            spec = task_spec(task)
            if difficulty not in (None, spec.tier):
                raise ValueError(
                    f"MiniWoB task {task!r} is tier {spec.tier!r}; "
                    f"drop difficulty= or pass difficulty={spec.tier!r}"
                )
            difficulty = spec.tier
        split = check_choice("split", split or default_split(task), SPLITS)
        if task is not None:
            check_task_split(task, split)
        require_playwright()  # fail at make() with the install command, not at the first reset
        find_chromium()
        html_root()
        super().__init__(
            difficulty=difficulty or "easy", split=split, expert=expert, render_mode=render_mode
        )
        boxes = self.observation_mode == "text_bbox"
        self._page: LoopPage = page or MiniWoBPage(
            reload_every=reload_every, step_timeout_s=step_timeout_s, boxes=boxes
        )

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self._reset_seed = seed  # the page seed follows it
        return super().reset(seed=seed, options=options)

    @property
    def page(self) -> LoopPage:
        """The env's page, which every episode reuses (to run page JS: benchmarks, tests)."""
        return self._page

    def content_version(self) -> str:
        """The source digest and the version of the ``miniwob`` package whose pages are played."""
        return f"{super().content_version()} miniwob-{miniwob_version()}"

    def task_ids(self) -> Sequence[str]:
        if self.task_name is not None:
            return [self.task_name]
        return tier_tasks(self.difficulty, self.split)

    def make_task(self, task_id: str, rng: np.random.Generator) -> MiniWoBTask:
        drawn = int(rng.integers(0, BLOCK))  # the page a seedless reset plays
        seed = self._reset_seed
        page = page_seed(self.split, drawn if seed is None else seed)
        adversarial = self.split == "adversarial"
        return MiniWoBTask(
            self._page, task_id, page, adversarial, rng, self.success_rule, data_mode(self.split),
            boxes=self.observation_mode == "text_bbox", screenshot=self.screenshot,
        )  # fmt: skip

    def recover(self, reason: str) -> None:
        """The browser or page died: start a fresh context so the next reset works."""
        self._page.recover()

    def close(self) -> None:
        super().close()
        self._page.close()


def tier_of(task: str) -> str:
    """The difficulty tier of a MiniWoB task name."""
    return task_spec(task).tier


__all__ = ["TIERS", "MiniWoBEnv", "MiniWoBTask", "tier_of"]
