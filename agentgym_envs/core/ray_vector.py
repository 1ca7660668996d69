"""``RayVectorEnv``: a Gymnasium ``VectorEnv`` whose envs live in Ray actors, for many machines.

Each actor holds several envs and steps them all in one remote call, so a vector step costs one
round trip per actor, not per env (a Ray call is ~1-3 ms; an env step of the text envs is
microseconds to milliseconds). The actors step concurrently. Semantics are Gymnasium's
``SyncVectorEnv`` with the next-step autoreset: an env that ended is reset by the following
``step`` (which ignores its action and returns reward 0); ``reset(seed=...)`` seeds every env
(``seed + i`` for an int) and ``options={"reset_mask": mask}`` resets only the masked ones.

A dead actor (its process or node gone, or a step past ``step_timeout_s``) does not stop the
others: its envs' episodes end truncated with ``info["truncated_reason"]``, a new actor takes
its place, and its envs start new (seedless) episodes at the next step. Works with a local Ray
(``ray.init()``, done for you if Ray is not running) and with a cluster
(``ray_address="ray://head:10001"`` or ``"auto"``).

It lives in ``agentgym_envs.core`` so the trainer can use it as a rollout backend without
importing an adapter; Ray (the ``ray`` extra) is imported only when one is made, and
``agentgym_ray`` re-exports it.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array

from agentgym_envs.core.vector import AutoresetSlot, vector_seeds


class EnvGroup:
    """A few envs of one id in one Ray actor (``env_group_actor()``), stepped together. The
    actor's process imports this module, so ``agentgym_envs`` has registered the ids there."""

    def __init__(self, env_id: str, count: int, env_kwargs: dict[str, Any]) -> None:
        # ended: a new actor's envs start (seedless) at the next step
        self.slots = [AutoresetSlot(gym.make(env_id, **env_kwargs), ended=True)
                      for _ in range(count)]  # fmt: skip
        self.envs = [slot.env for slot in self.slots]

    def spaces(self) -> tuple[gym.Space, gym.Space]:
        return self.envs[0].observation_space, self.envs[0].action_space

    def reset(self, indices: list[int], seeds: list[int | None], options: dict | None) -> list:
        return [self.slots[index].reset(seed=seed, options=options)
                for index, seed in zip(indices, seeds, strict=True)]  # fmt: skip

    def step(self, actions: list[Any]) -> list:
        return [slot.step(action) for slot, action in zip(self.slots, actions, strict=True)]

    def get_attr(self, name: str) -> list[Any]:
        return [env.get_wrapper_attr(name) for env in self.envs]

    def close(self) -> None:
        for env in self.envs:
            env.close()


@functools.cache
def env_group_actor() -> Any:
    """``EnvGroup`` as a Ray actor class (``agentgym_ray.EnvGroup``); imports Ray."""
    import ray

    return ray.remote(EnvGroup)


def _split(num_envs: int, num_actors: int) -> list[list[int]]:
    """Env indices per actor, as even as possible, in order."""
    size, extra = divmod(num_envs, num_actors)
    groups, start = [], 0
    for actor in range(num_actors):
        end = start + size + (actor < extra)
        groups.append(list(range(start, end)))
        start = end
    return groups


class RayVectorEnv(VectorEnv):
    """``num_envs`` envs of ``env_id`` spread over ``num_actors`` Ray actors (see the module)."""

    def __init__(
        self,
        env_id: str,
        num_envs: int,
        num_actors: int | None = None,
        env_kwargs: dict[str, Any] | None = None,
        step_timeout_s: float | None = 120.0,
        actor_options: dict[str, Any] | None = None,
        ray_address: str | None = None,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        num_actors = num_actors or min(num_envs, 4)
        if not 1 <= num_actors <= num_envs:
            raise ValueError(f"num_actors must be between 1 and num_envs={num_envs}, "
                             f"got {num_actors}")  # fmt: skip
        import ray

        if not ray.is_initialized():
            ray.init(address=ray_address, include_dashboard=False, log_to_driver=False)
        self.env_id, self.num_envs = env_id, num_envs
        self.env_kwargs = dict(env_kwargs or {})
        self.step_timeout_s = step_timeout_s
        # Ray's default actor resources (1 CPU to place, 0 held once running) let more actors
        # than CPUs start; ``actor_options`` (e.g. {"num_cpus": 1}) reserves resources per actor.
        self.actor_options = dict(actor_options or {})
        self.groups = _split(num_envs, num_actors)
        self.actors = [self._new_actor(len(group)) for group in self.groups]
        observation_space, action_space = ray.get(self.actors[0].spaces.remote())
        self.single_observation_space, self.single_action_space = observation_space, action_space
        self.observation_space = batch_space(observation_space, num_envs)
        self.action_space = batch_space(action_space, num_envs)
        self.metadata = {"autoreset_mode": gym.vector.AutoresetMode.NEXT_STEP}
        self.restarts = 0  # actors replaced after dying
        self._observations: Any = create_empty_array(observation_space, num_envs)
        self._last: list[Any] = [None] * num_envs  # each env's latest observation

    def _new_actor(self, count: int) -> Any:
        return (
            env_group_actor()
            .options(**self.actor_options)
            .remote(self.env_id, count, self.env_kwargs)
        )

    # ---- Gymnasium VectorEnv API -----------------------------------------------------------
    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict | None = None
    ) -> tuple[Any, dict[str, Any]]:
        import ray

        seeds = self._seeds(seed)
        options = dict(options or {})
        mask = np.asarray(options.pop("reset_mask", np.ones(self.num_envs, dtype=bool)))
        if mask.shape != (self.num_envs,) or mask.dtype != np.bool_ or not mask.any():
            raise ValueError(f"options['reset_mask'] must be a bool array of shape "
                             f"({self.num_envs},) with a True value")  # fmt: skip
        calls = []
        for actor, group in zip(self.actors, self.groups, strict=True):
            local = [j for j, i in enumerate(group) if mask[i]]
            if local:
                seeds_here = [seeds[group[j]] for j in local]
                calls.append((group, local, actor.reset.remote(local, seeds_here, options)))
        infos: dict[str, Any] = {}
        for group, local, ref in calls:
            for j, (observation, info) in zip(local, ray.get(ref), strict=True):
                self._last[group[j]] = observation
                infos = self._add_info(infos, info, group[j])
        return self._batch(), infos

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict]:
        import ray

        actions = list(actions)
        if len(actions) != self.num_envs:
            raise ValueError(f"expected {self.num_envs} actions, got {len(actions)}")
        refs = [actor.step.remote([actions[i] for i in group])
                for actor, group in zip(self.actors, self.groups, strict=True)]  # fmt: skip
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=bool)
        truncated = np.zeros(self.num_envs, dtype=bool)
        infos: dict[str, Any] = {}
        for index, (group, ref) in enumerate(zip(self.groups, refs, strict=True)):
            try:
                results = ray.get(ref, timeout=self.step_timeout_s)
            except (ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError) as error:
                results = self._replace(index, error)
            for i, (observation, reward, term, trunc, info) in zip(group, results, strict=True):
                self._last[i] = observation
                rewards[i], terminated[i], truncated[i] = reward, term, trunc
                infos = self._add_info(infos, info, i)
        return self._batch(), rewards, terminated, truncated, infos

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Attribute ``name`` of every env, in env order (as ``SyncVectorEnv.get_attr``)."""
        import ray

        values = ray.get([actor.get_attr.remote(name) for actor in self.actors])
        return tuple(value for group in values for value in group)

    def close_extras(self, **kwargs: Any) -> None:
        import ray

        for actor in self.actors:
            with contextlib.suppress(Exception):  # already dead: nothing to close
                ray.get(actor.close.remote(), timeout=30)
            ray.kill(actor)
        self.actors = []

    # ---- internals -------------------------------------------------------------------------
    def _replace(self, index: int, error: Exception) -> list:
        """Actor ``index`` died or hung: a new one replaces it; its episodes end truncated."""
        import ray

        ray.kill(self.actors[index])
        self.actors[index] = self._new_actor(len(self.groups[index]))
        # Wait for it to start (a process and its imports: seconds), as the constructor does, so
        # that start-up never counts against the next step's timeout.
        ray.get(self.actors[index].spaces.remote())
        self.restarts += 1
        reason = f"ray actor died ({type(error).__name__}); its envs restart at the next step"
        info = {"truncated_reason": reason}
        return [(self._last[i], 0.0, False, True, dict(info)) for i in self.groups[index]]

    def _seeds(self, seed: int | Sequence[int | None] | None) -> list[int | None]:
        return vector_seeds(seed, self.num_envs)  # as SyncVectorEnv expands it

    def _batch(self) -> Any:
        self._observations = concatenate(
            self.single_observation_space, self._last, self._observations
        )
        return self._observations


__all__ = ["EnvGroup", "RayVectorEnv", "env_group_actor"]
