"""``AsyncMiniWoBVectorEnv``: N MiniWoB episodes stepped concurrently in one asyncio event loop.

For async trainers (the sync-only design is a top complaint about BrowserGym/WebArena): ``await
env.areset(seed)`` / ``await env.astep(actions)`` drive every page at once with
``playwright.async_api``; ``reset``/``step`` are blocking wrappers for sync callers. One Chromium
serves all N pages (one context each).

Semantics match ``MiniWoBEnv`` slot by slot: slot ``i`` seeded with ``s`` plays the same episode
as ``MiniWoBEnv(...).reset(seed=s)`` (same task choice, page seed, adversarial edits). Episodes
that end are reset in the same call (autoreset); the finished episode's last observation and info
are in ``info["final_observation"]`` / ``info["final_info"]``. Infos: a list, one dict per slot.
No expert actions here (the oracles use the sync page API): use ``MiniWoBEnv`` for BC data.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.utils import seeding

from agentgym_envs.core import SPLITS, ActionError, check_choice
from agentgym_envs.miniwob import dom_text
from agentgym_envs.miniwob.actions import Action, parse_action
from agentgym_envs.miniwob.adversarial import DECOY_SCRIPT, decoy_args, distract_goal
from agentgym_envs.miniwob.async_page import AsyncMiniWoBPage
from agentgym_envs.miniwob.browser import AsyncBrowser
from agentgym_envs.miniwob.outcome import SUCCESS_RULES, end_note, episode_outcome
from agentgym_envs.miniwob.page import STEP_TIMEOUT_S, BrowserCrashed, EpisodeState
from agentgym_envs.miniwob.seeds import BLOCK, page_seed
from agentgym_envs.miniwob.tasks import (
    MAX_STEPS,
    TASKS,
    check_task_split,
    data_mode,
    default_split,
    task_spec,
    tier_tasks,
)


class _Slot:
    """One sub-environment: its page, RNG and the current episode's state."""

    def __init__(self, page: AsyncMiniWoBPage) -> None:
        self.page = page
        self.rng: np.random.Generator = seeding.np_random(None)[0]
        self.task = ""
        self.page_seed = 0
        #: this episode's reset seed (None: an automatic reset, which draws its page)
        self.seed: int | None = None
        self.goal = ""
        self.utterance = ""
        self.nodes: list[dict[str, Any]] = []
        self.raw = 0.0
        self.done = False
        self.steps = 0
        self.observation = ""


class AsyncMiniWoBVectorEnv:
    """``num_envs`` MiniWoB episodes over one browser; see the module docstring."""

    def __init__(
        self,
        num_envs: int,
        task: str | None = None,
        difficulty: str | None = None,
        split: str | None = None,
        max_episode_steps: int | None = None,
        reload_every: int = 50,
        step_timeout_s: float | None = STEP_TIMEOUT_S,
        success_rule: str = "farama",
        observation_mode: str = "text",
        screenshot: bool = False,
    ) -> None:
        if observation_mode != "text" or screenshot:
            raise ValueError(
                "AsyncMiniWoBVectorEnv observes in text only (observation_mode='text', "
                f"screenshot=False), got observation_mode={observation_mode!r}, "
                f"screenshot={screenshot!r}; use MiniWoBEnv for text_bbox and screenshots"
            )
        self.success_rule = check_choice("success_rule", success_rule, SUCCESS_RULES)
        if num_envs < 1:
            raise ValueError(f"num_envs must be >= 1, got {num_envs}")
        self.split = check_choice("split", split or default_split(task), SPLITS)
        if task is not None:
            difficulty = task_spec(task).tier
            check_task_split(task, self.split)
        self.difficulty = check_choice(
            "difficulty", difficulty or "easy", ("easy", "medium", "hard")
        )
        self.task_list = [task] if task else tier_tasks(self.difficulty, self.split)
        self.num_envs = num_envs
        self.max_episode_steps = max_episode_steps or MAX_STEPS[self.difficulty]
        self.reload_every = reload_every
        self.step_timeout_s = step_timeout_s or None
        self._browser = AsyncBrowser()
        self._slots: list[_Slot] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    # ---- async API ---------------------------------------------------------------------------
    async def areset(
        self, seed: int | Sequence[int] | None = None
    ) -> tuple[list[str], list[dict[str, Any]]]:
        if not self._slots:
            await self._browser.start()
            self._slots = [
                _Slot(AsyncMiniWoBPage(self._browser, self.reload_every))
                for _ in range(self.num_envs)
            ]
        seeds = self._seeds(seed)
        for slot, slot_seed in zip(self._slots, seeds, strict=True):
            if slot_seed is not None or slot.task == "":
                slot.rng = seeding.np_random(slot_seed)[0]
            slot.seed = slot_seed
        infos = await asyncio.gather(*(self._start(slot) for slot in self._slots))
        return [s.observation for s in self._slots], list(infos)

    async def astep(
        self, actions: Sequence[str]
    ) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if len(actions) != self.num_envs:
            raise ValueError(f"expected {self.num_envs} actions, got {len(actions)}")
        if not self._slots:
            raise RuntimeError("call reset() before step()")
        results = await asyncio.gather(
            *(self._step(slot, action) for slot, action in zip(self._slots, actions, strict=True))
        )
        observations, rewards, terminated, truncated, infos = zip(*results, strict=True)
        return (
            list(observations),
            np.array(rewards, dtype=np.float64),
            np.array(terminated, dtype=bool),
            np.array(truncated, dtype=bool),
            list(infos),
        )

    async def aclose(self) -> None:
        for slot in self._slots:
            await slot.page.close()
        self._slots = []
        await self._browser.close()

    # ---- sync wrappers -----------------------------------------------------------------------
    # The blocking API runs the coroutines on a private event loop in a daemon thread, so it works
    # next to sync Playwright users (which occupy this thread's loop). Use one API per instance.
    def _run(self, coroutine: Any) -> Any:
        if self._loop is None or self._loop.is_closed():
            self._loop = asyncio.new_event_loop()
            self._thread = threading.Thread(
                target=self._loop.run_forever, daemon=True, name="miniwob-vector-loop"
            )
            self._thread.start()
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def reset(self, seed: int | Sequence[int] | None = None):
        return self._run(self.areset(seed))

    def step(self, actions: Sequence[str]):
        return self._run(self.astep(actions))

    def close(self) -> None:
        """Close pages, browser and the private loop (idempotent)."""
        loop, self._loop = self._loop, None
        if loop is None or loop.is_closed():
            return
        asyncio.run_coroutine_threadsafe(self.aclose(), loop).result()
        loop.call_soon_threadsafe(loop.stop)
        self._thread.join(timeout=10)
        loop.close()

    # ---- one slot ----------------------------------------------------------------------------
    def _seeds(self, seed: int | Sequence[int] | None) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, int):
            return [seed + i for i in range(self.num_envs)]
        if len(seed) != self.num_envs:
            raise ValueError(f"expected {self.num_envs} seeds, got {len(seed)}")
        return list(seed)

    async def _start(self, slot: _Slot) -> dict[str, Any]:
        """Same RNG draws, in the same order, as TextEnv.reset + MiniWoBTask.start."""
        slot.task = self.task_list[int(slot.rng.integers(len(self.task_list)))]
        drawn = int(slot.rng.integers(0, BLOCK))
        slot.page_seed = page_seed(self.split, drawn if slot.seed is None else slot.seed)
        slot.seed = None  # an automatic reset after this episode draws its page
        start = (slot.task, slot.page_seed, TASKS[slot.task].fresh_page, data_mode(self.split))
        try:
            started = await slot.page.start_episode(*start)
        except BrowserCrashed:
            await slot.page.recover()
            started = await slot.page.start_episode(*start)
        instruction = started.instruction
        slot.utterance, slot.goal = instruction.utterance, instruction.goal
        slot.steps = 0
        settle, adversarial = TASKS[slot.task].settle, self.split == "adversarial"
        if not (settle or adversarial):  # as MiniWoBTask.start: the start's own view
            self._show(slot, started.state, started.nodes)
            return self._info(slot, None)
        if settle:
            await slot.page.settle()
        if adversarial:
            slot.goal = distract_goal(instruction.goal, slot.rng)
            await slot.page.evaluate(DECOY_SCRIPT, decoy_args(slot.rng))
        await self._observe(slot)
        return self._info(slot, None)

    async def _act(self, slot: _Slot, action: Action) -> None:
        await slot.page.perform(action)
        if TASKS[slot.task].settle:  # as MiniWoBTask.act
            await slot.page.settle()
        await self._observe(slot)

    async def _observe(self, slot: _Slot) -> None:
        self._show(slot, await slot.page.state(), await slot.page.snapshot())

    def _show(self, slot: _Slot, state: EpisodeState, nodes: list[dict[str, Any]]) -> None:
        slot.done, slot.raw, slot.nodes = state.done, state.raw, nodes
        note = end_note(slot.raw, slot.done, self.success_rule)
        slot.observation = dom_text.render_observation(slot.goal, slot.nodes, note)

    def _outcome(self, slot: _Slot) -> tuple[float, bool]:
        return episode_outcome(slot.raw, slot.done, self.success_rule)

    def _score(self, slot: _Slot) -> float:
        return self._outcome(slot)[0]

    async def _step(self, slot: _Slot, action: str):
        slot.steps += 1
        error, reason = None, None
        before = self._score(slot)
        observation = None
        try:
            await asyncio.wait_for(self._act(slot, parse_action(str(action))), self.step_timeout_s)
        except TimeoutError:  # the slot's context is closed below; other slots are untouched
            reason = f"step timed out after {self.step_timeout_s:g} s (its page was closed)"
            await slot.page.recover()
        except ActionError as exc:
            error = exc.reason
            observation = f"{slot.observation}\n\nInvalid action: {error}"
        except BrowserCrashed as crash:
            reason = f"browser crashed: {str(crash).splitlines()[0][:200]}"
            await slot.page.recover()
        terminated = slot.done and reason is None
        truncated = reason is not None or (not terminated and slot.steps >= self.max_episode_steps)
        reward = 0.0 if error or reason else self._score(slot) - before
        info = self._info(slot, error)
        if reason:
            info["truncated_reason"] = reason
        observation = observation if observation is not None else slot.observation
        if terminated or truncated:
            final = dict(info, final_observation=observation)
            info = await self._start(slot)
            info["final_observation"], info["final_info"] = observation, final
            observation = slot.observation
        return observation, reward, terminated, truncated, info

    def _info(self, slot: _Slot, error: str | None) -> dict[str, Any]:
        return {
            "task_id": slot.task,
            "split": self.split,
            "difficulty": self.difficulty,
            "goal": slot.goal,
            "admissible_actions": [] if slot.done else dom_text.admissible_actions(slot.nodes),
            "success": self._outcome(slot)[1],
            "score": self._score(slot),
            "action_error": error,
            "expert_action": None,
            "page_seed": slot.page_seed,
            "raw_reward": slot.raw,
            "utterance": slot.utterance,
            "untrusted_clicks": slot.page.untrusted_clicks,
        }
