"""A worker's side of a suite run: play the episodes handed to it and report each record.

``EpisodePlayer`` builds the envs and agent of each env x difficulty x split (x variant) once and
keeps them; any agent or env failure becomes that episode's recorded error. ``serve`` is a
worker's loop (a spawned process or a Ray actor, ``scheduler``): it takes episodes from its task
queue until None and reports ``(kind, worker id, key, payload)`` messages: ``start`` when it
begins one, ``done`` with the record, ``solo`` when its agent plays one episode at a time. With
``batch_size`` > 1 it holds up to that many episodes in lock-step (``lockstep``).
"""

from __future__ import annotations

import queue
import time
import traceback
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import gymnasium as gym

from agentgym_bench.agent_specs import sees_oracle
from agentgym_envs.core.records import EpisodeRecord, failed_record, played_record

if TYPE_CHECKING:
    from agentgym_bench.lockstep import LockStep
    from agentgym_bench.suites import EpisodeSpec


@dataclass
class RunSettings:
    """How to run: the agent, its options, and the worker limits."""

    agent: str
    agent_options: dict[str, Any] = field(default_factory=dict)
    workers: int = 1
    episode_timeout: float = 600.0  # seconds
    #: "processes" (spawned on this machine) or "ray" (Ray actors: this machine or a cluster)
    backend: str = "processes"
    ray_address: str | None = None  # None: a running Ray, else a local one started here
    #: episodes a worker plays at once in lock-step, one batched agent call per turn, for
    #: agents with the batch protocol (``lockstep``); 1: one at a time (others always are)
    batch_size: int = 1
    #: play on envs served by ``agentgym serve`` at this URL (None: made in the worker)
    env_url: str | None = None


def place(spec: EpisodeSpec) -> dict[str, Any]:
    """The record fields that say which episode ``spec`` is: its protocol fields and key."""
    return {**spec.fields(), "key": spec.key}


class EpisodePlayer:
    """Plays suite episodes in one worker. One env per cell serves episodes played one at a
    time; batched play (``lockstep``) takes one per live episode, kept idle between episodes."""

    def __init__(self, settings: RunSettings, prompts: dict) -> None:
        import agentgym_envs  # noqa: F401  (registers the ids)

        #: (env id, variant) -> the prompt settings its episodes are played with
        self.settings, self.prompts = settings, prompts
        self.envs: dict[tuple[str, str, str], list[Any]] = {}  # every env made, per cell
        self.idle: dict[tuple[str, str, str], list[Any]] = {}  # those free for an episode
        self.agents: dict[tuple[str, str, str, str], Any] = {}
        self.applied: dict[tuple[str, str, str, str], bool] = {}

    def play(self, spec: EpisodeSpec) -> EpisodeRecord:
        from agentgym_envs.core.episode import play_episode

        began = time.perf_counter()
        env = None
        try:
            env, agent = self.env_and_agent(spec)
            played = play_episode(env, agent, spec.seed, spec.max_steps,
                                  options={"task_id": spec.task_id})  # fmt: skip
            record = self.record(spec, agent, played, env)
        except Exception as error:  # any agent or env failure is a recorded result
            record = self.failure(spec, error)
        if env is not None:
            self.release(spec, env)
        record["seconds"] = round(time.perf_counter() - began, 3)
        return record

    # ---- the parts of an episode's play (``lockstep.LockStep`` plays with them too) -----------
    def env_and_agent(self, spec: EpisodeSpec) -> tuple[Any, Any]:
        """An idle env of the episode's cell (made when there is none) and its agent (made
        once per cell and variant, with the variant's prompt settings)."""
        from agentgym_bench import agent_specs

        cell = (spec.env_id, spec.difficulty, spec.split)
        agent_key = (*cell, spec.variant)
        idle = self.idle.setdefault(cell, [])
        if idle:
            env = idle.pop()
        else:
            env = LastInfo(self._make(spec))
            self.envs.setdefault(cell, []).append(env)
        if agent_key not in self.agents:
            try:
                agent = agent_specs.make(self.settings.agent, env, self.settings.agent_options)
                prompt = self.prompts.get((spec.env_id, spec.variant)) or {}
                self.applied[agent_key] = agent_specs.apply_prompt_settings(agent, prompt)
            except Exception:
                idle.append(env)
                raise
            self.agents[agent_key] = agent
        return env, self.agents[agent_key]

    def _make(self, spec: EpisodeSpec) -> gym.Env:
        """The env of ``spec``'s cell: made here, or a session on the ``env_url`` server (its
        bearer token from ``$AGENTGYM_SERVE_TOKEN``)."""
        kwargs: dict[str, Any] = {"difficulty": spec.difficulty, "split": spec.split,
                                  "expert": sees_oracle(self.settings.agent)}  # fmt: skip
        if self.settings.env_url is None:
            return gym.make(spec.env_id, **kwargs)
        from agentgym_envs.core.remote import RemoteTextEnv

        return RemoteTextEnv(self.settings.env_url, spec.env_id, **kwargs)

    def release(self, spec: EpisodeSpec, env: Any) -> None:
        """Put ``env`` back among its cell's idle envs."""
        self.idle[(spec.env_id, spec.difficulty, spec.split)].append(env)

    def record(self, spec: EpisodeSpec, agent: Any, played: Any, env: Any) -> EpisodeRecord:
        """The record of the played episode: figures, trajectory, agent, prompt settings, rule
        flags."""
        from agentgym_bench import agent_specs
        from agentgym_bench.rules import check_rules

        record = played_record(place(spec), played,
                               agent_specs.describe(self.settings.agent, agent))  # fmt: skip
        prompt = self.prompts.get((spec.env_id, spec.variant)) or {}
        if prompt:
            applied = self.applied[(spec.env_id, spec.difficulty, spec.split, spec.variant)]
            record["prompt"] = {"settings": prompt, "applied": applied}
        flags = check_rules(spec.env_id, record["trajectory"] or {}, env.last_info)
        if flags is not None:
            record["rule_violations"] = flags
        return record

    def failure(self, spec: EpisodeSpec, error: BaseException) -> EpisodeRecord:
        """The record of an episode that ``error`` ended: its type, message and where it was
        raised."""
        last = traceback.extract_tb(error.__traceback__)[-1:]
        where = f" ({last[0].filename.rsplit('/', 1)[-1]}:{last[0].lineno})" if last else ""
        return failed_record(place(spec), f"{type(error).__name__}: {error}{where}")

    def lockstep(self, size: int) -> LockStep:
        """Batched play of up to ``size`` episodes at once (``lockstep.LockStep``)."""
        from agentgym_bench.lockstep import LockStep

        return LockStep(self, size)

    def close(self) -> None:
        for envs in self.envs.values():
            for env in envs:
                env.close()


class LastInfo(gym.Wrapper):
    """The env as ``play_episode`` sees it, keeping the ``info`` of its last reset or step (what
    the rule checks read at the episode's end)."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.last_info: dict[str, Any] = {}

    def reset(self, **kwargs: Any) -> Any:
        observation, self.last_info = self.env.reset(**kwargs)
        return observation, self.last_info

    def step(self, action: Any) -> Any:
        observation, reward, terminated, truncated, self.last_info = self.env.step(action)
        return observation, reward, terminated, truncated, self.last_info


def work(settings: RunSettings, prompts: dict, tasks: Any, results: Any, wid: int) -> None:
    """A worker's whole life (a process's target, a Ray actor's one call): play what ``tasks``
    hands over until None, then close the envs."""
    player = EpisodePlayer(settings, prompts)
    try:
        serve(player, settings.batch_size, tasks, results, wid)
    finally:
        player.close()


def serve(player: EpisodePlayer, size: int, tasks: Any, results: Any, wid: int) -> None:
    """Play episodes from ``tasks`` until None, up to ``size`` in lock-step (the free slots
    refilled before each turn), reporting each start and record on ``results``."""
    if size == 1:
        while (spec := tasks.get()) is not None:
            results.put(("start", wid, spec.key, None))
            results.put(("done", wid, spec.key, player.play(spec)))
        return
    batch = player.lockstep(size)
    closing = False
    while True:
        while not closing and not batch.full():
            try:  # wait for work only when nothing is in play
                spec = tasks.get_nowait() if len(batch) else tasks.get()
            except queue.Empty:
                break
            if spec is None:
                closing = True
                break
            results.put(("start", wid, spec.key, None))
            for record in batch.add(spec):
                if batch.solo:  # its agent has no batch protocol: one at a time
                    results.put(("solo", wid, record["key"], None))
                results.put(("done", wid, record["key"], record))
        if not len(batch):
            if closing:
                return
            continue
        for record in batch.turn():
            results.put(("done", wid, record["key"], record))


__all__ = ["EpisodePlayer", "LastInfo", "RunSettings", "place", "serve", "work"]
