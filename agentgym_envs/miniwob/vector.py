"""``MiniWoBVectorEnv``: a Gymnasium ``VectorEnv`` of N MiniWoB envs whose pages work concurrently.

    envs = agentgym_envs.make_vec("AgentGym/MiniWoB-v0", num_envs=4,
                                  vectorization_mode="vector_entry_point")
    observations, infos = envs.reset(seed=0)        # env i plays reset(seed=0 + i)
    observations, rewards, terminated, truncated, infos = envs.step(actions)

Each sub-env is a ``MiniWoBEnv`` (in Gymnasium's ``TimeLimit``), so its episodes, rewards and
infos are the single env's, ``expert_action`` included: env ``i`` reset with seed ``s`` plays
what ``gymnasium.make(id).reset(seed=s)`` plays, step by step. What differs is where the pages
live: one Chromium serves all N (one context each), driven by ``async_page.AsyncMiniWoBPage``
on one event loop in a thread (``async_page.PageLoop``); the N envs are called from N threads,
so their browser work overlaps (Gymnasium's ``AsyncVectorEnv`` would start N processes and N
browsers; ``SyncVectorEnv`` would step the pages one after another).

Semantics are ``gymnasium.vector.SyncVectorEnv``'s: ``autoreset_mode`` (``metadata``) is
``NEXT_STEP`` by default (the step after an episode's end resets that env, ignoring its action,
with reward 0), or ``SAME_STEP`` (the end's observation and info in ``infos["final_obs"]`` /
``infos["final_info"]``) or ``DISABLED``; ``reset(seed=, options={"reset_mask": mask})`` resets
only the masked envs, each with its own seed (``core.vector_seeds``); infos are a dict of
per-env arrays with ``_key`` masks. A step past ``step_timeout_s`` closes only its own page: that
env's episode ends truncated (``info["truncated_reason"]``) and the others go on.

Async trainers await ``areset`` / ``astep`` (the blocking calls run in a worker thread, so the
caller's event loop is never blocked).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array
from gymnasium.wrappers import TimeLimit

from agentgym_envs.core import vector_seeds
from agentgym_envs.core.vector import AutoresetSlot
from agentgym_envs.miniwob.async_page import LoopPage, PageLoop
from agentgym_envs.miniwob.env import MiniWoBEnv
from agentgym_envs.miniwob.page import STEP_TIMEOUT_S
from agentgym_envs.miniwob.tasks import MAX_STEPS


class MiniWoBVectorEnv(VectorEnv):
    """``num_envs`` ``MiniWoBEnv``s on one browser, stepped concurrently; see the module."""

    def __init__(
        self,
        num_envs: int,
        task: str | None = None,
        difficulty: str | None = None,
        split: str | None = None,
        max_episode_steps: int | None = None,
        expert: bool = True,
        reload_every: int = 50,
        step_timeout_s: float | None = STEP_TIMEOUT_S,
        success_rule: str = "farama",
        observation_mode: str = "text",
        screenshot: bool = False,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
    ) -> None:
        """The env arguments are ``MiniWoBEnv``'s, the same for every sub-env;
        ``max_episode_steps`` defaults to the difficulty's step budget (``tasks.MAX_STEPS``)."""
        if num_envs < 1:
            raise ValueError(f"num_envs must be >= 1, got {num_envs}")
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.num_envs = num_envs
        self._loop = PageLoop()
        boxes = observation_mode == "text_bbox"
        try:
            envs = [
                MiniWoBEnv(
                    task=task, difficulty=difficulty, split=split, expert=expert,
                    success_rule=success_rule, observation_mode=observation_mode,
                    screenshot=screenshot,
                    page=LoopPage(self._loop, reload_every, step_timeout_s, boxes=boxes),
                )
                for _ in range(num_envs)
            ]  # fmt: skip
        except BaseException:
            self._loop.close()
            raise
        first = envs[0]
        self.task, self.difficulty, self.split = task, first.difficulty, first.split
        self.max_episode_steps = max_episode_steps or MAX_STEPS[first.difficulty]
        #: The sub-envs, each in the ``TimeLimit`` that ``gymnasium.make`` would add.
        self.envs = [TimeLimit(env, self.max_episode_steps) for env in envs]
        self._slots = [AutoresetSlot(env, self.autoreset_mode) for env in self.envs]
        self.metadata = {**first.metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = None
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._observations = create_empty_array(self.single_observation_space, num_envs)
        self._last: list[Any] = [None] * num_envs  # each env's latest observation
        self._pool = concurrent.futures.ThreadPoolExecutor(
            num_envs, thread_name_prefix="miniwob-vector"
        )

    # ---- Gymnasium VectorEnv API -----------------------------------------------------------
    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset every env, or those of ``options["reset_mask"]`` (as ``SyncVectorEnv``)."""
        seeds = vector_seeds(seed, self.num_envs)
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        if mask is None:
            mask = np.ones(self.num_envs, dtype=bool)
        elif not isinstance(mask, np.ndarray) or mask.dtype != np.bool_:
            raise TypeError("options['reset_mask'] must be a numpy array of dtype bool")
        elif mask.shape != (self.num_envs,) or not mask.any():
            raise ValueError(f"options['reset_mask'] must have shape ({self.num_envs},) and "
                             f"a True value, got {mask}")  # fmt: skip
        indices = [i for i in range(self.num_envs) if mask[i]]

        def reset_one(i: int) -> tuple[Any, dict[str, Any]]:
            return self._slots[i].reset(seed=seeds[i], options=options or None)

        infos: dict[str, Any] = {}
        for i, (observation, info) in zip(indices, self._map(reset_one, indices), strict=True):
            self._last[i] = observation
            infos = self._add_info(infos, info, i)
        return self._batch(), infos

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict]:
        actions = list(actions)
        if len(actions) != self.num_envs:
            raise ValueError(f"expected {self.num_envs} actions, got {len(actions)}")
        if any(observation is None for observation in self._last):
            raise RuntimeError("call reset() before step()")
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=bool)
        truncated = np.zeros(self.num_envs, dtype=bool)
        infos: dict[str, Any] = {}
        results = self._map(lambda i: self._slots[i].step(actions[i]), range(self.num_envs))
        for i, (observation, reward, term, trunc, info) in enumerate(results):
            self._last[i] = observation
            rewards[i], terminated[i], truncated[i] = reward, term, trunc
            infos = self._add_info(infos, info, i)
        return self._batch(), rewards, terminated, truncated, infos

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Attribute ``name`` of every sub-env (as ``SyncVectorEnv.get_attr``)."""
        return tuple(env.get_wrapper_attr(name) for env in self.envs)

    def close_extras(self, **kwargs: Any) -> None:
        """Close every env's page, the browser and the threads (``close()`` is idempotent)."""
        for env in self.envs:
            env.close()
        self._pool.shutdown(wait=True)
        self._loop.close()

    # ---- async API -------------------------------------------------------------------------
    async def areset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """``reset`` for asyncio callers: awaits it in a worker thread."""
        return await asyncio.to_thread(self.reset, seed=seed, options=options)

    async def astep(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict]:
        """``step`` for asyncio callers: awaits it in a worker thread."""
        return await asyncio.to_thread(self.step, actions)

    async def aclose(self) -> None:
        await asyncio.to_thread(self.close)

    # ---- internals -------------------------------------------------------------------------
    def _map(self, call: Callable[[int], Any], indices: Sequence[int]) -> list[Any]:
        """``call(i)`` for each index, concurrently (each env in its own thread)."""
        if len(indices) == 1:
            return [call(indices[0])]
        return list(self._pool.map(call, indices))

    def _batch(self) -> Any:
        self._observations = concatenate(
            self.single_observation_space, self._last, self._observations
        )
        return self._observations


#: The name the vector env had before it became a Gymnasium ``VectorEnv``.
AsyncMiniWoBVectorEnv = MiniWoBVectorEnv

__all__ = ["AsyncMiniWoBVectorEnv", "MiniWoBVectorEnv"]
