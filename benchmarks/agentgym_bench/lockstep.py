"""Batched play: up to B episodes of one worker in lock-step, one agent call per turn for all.

Each turn every live episode's observation goes to its agent in one ``act_batch`` call (a local
model answers with one batched ``generate``; an endpoint gets the requests at once), then each
env takes its own step; an episode that ends frees its slot for the next. Every episode keeps
its own env and its own record, the very record ``play_episode`` gives (``LiveEpisode``).

The batch protocol (``BatchAgent``): ``start_slot(slot, seed)`` (a new episode in ``slot``);
``act_batch(slots, observations, infos)`` -> one action per slot (None: no move, the episode
stops; an ``Exception``: that episode alone failed); optionally ``turn_record(slot)`` (kept as
the step's ``"llm"``), ``end_slot(slot)`` and ``batch_with`` (agents with equal, non-None values
share one call: the ``hf:``/``run:`` agents of one loaded model, the ``openai:`` agents of one
endpoint). Agents without it play each episode whole.

Failures stay per episode where they can be told apart: an env that raises ends its episode as
an error; an ``act_batch`` call that raises has no one episode to blame, so each of its
episodes is an error.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from agentgym_envs.core.episode import LiveEpisode, turn_record


@runtime_checkable
class BatchAgent(Protocol):
    """An agent that answers several episodes' turns in one call (see the module docstring)."""

    def start_slot(self, slot: int, seed: int | None) -> None: ...

    def act_batch(
        self, slots: Sequence[int], observations: Sequence[str], infos: Sequence[dict[str, Any]]
    ) -> Sequence[str | Exception | None]: ...


def can_batch(agent: Any) -> bool:
    """True when ``agent`` has the batch protocol (``start_slot`` and ``act_batch``)."""
    return callable(getattr(agent, "act_batch", None)) and callable(
        getattr(agent, "start_slot", None)
    )


class Player(Protocol):
    """What ``LockStep`` needs of the worker's ``player.EpisodePlayer``."""

    def env_and_agent(self, spec: Any) -> tuple[Any, Any]: ...
    def release(self, spec: Any, env: Any) -> None: ...
    def play(self, spec: Any) -> Any: ...
    def record(self, spec: Any, agent: Any, played: Any, env: Any) -> Any: ...
    def failure(self, spec: Any, error: BaseException) -> Any: ...


@dataclass
class _Live:
    spec: Any  # suites.EpisodeSpec
    env: Any
    agent: Any
    episode: LiveEpisode
    began: float


class LockStep:
    """Up to ``size`` episodes of one worker played in lock-step (see the module docstring)."""

    def __init__(self, player: Player, size: int) -> None:
        self.player, self.size = player, max(1, size)
        self.live: dict[int, _Live] = {}
        self.solo = False  # the last ``add`` played an agent without the batch protocol

    def __len__(self) -> int:
        return len(self.live)

    def full(self) -> bool:
        return len(self.live) >= self.size

    def add(self, spec: Any) -> list[dict[str, Any]]:
        """Start ``spec``'s episode in a free slot: [] while it plays on, else its record (an
        agent without the batch protocol plays it whole at once; an env or agent that fails
        to start it makes it an error)."""
        began = time.perf_counter()
        env = agent = slot = None
        self.solo = False
        try:
            env, agent = self.player.env_and_agent(spec)
            if not can_batch(agent):
                self.player.release(spec, env)
                self.solo = True
                return [self.player.play(spec)]
            slot = min(set(range(self.size)) - set(self.live))
            agent.start_slot(slot, spec.seed)
            episode = LiveEpisode(env, spec.seed, spec.max_steps, options={"task_id": spec.task_id})
        except Exception as error:  # recorded, as an unbatched episode's failure is
            if slot is not None:
                _end_slot(agent, slot)
            if env is not None:
                self.player.release(spec, env)
            record = self.player.failure(spec, error)
            record["seconds"] = round(time.perf_counter() - began, 3)
            return [record]
        self.live[slot] = _Live(spec, env, agent, episode, began)
        return [self._end(slot)] if episode.done else []

    def turn(self) -> list[dict[str, Any]]:
        """One turn of every live episode: one ``act_batch`` call per group of agents that batch
        together, then each env's step; the records of the episodes that ended."""
        groups: dict[Hashable, list[int]] = {}
        for slot, live in self.live.items():
            together = getattr(live.agent, "batch_with", None)
            groups.setdefault(("agent", id(live.agent)) if together is None else ("with", together),
                              []).append(slot)  # fmt: skip
        ended = []
        for slots in groups.values():
            episodes = [self.live[slot].episode for slot in slots]
            try:
                actions = list(self.live[slots[0]].agent.act_batch(
                    slots, [e.observation for e in episodes], [e.info for e in episodes]
                ))  # fmt: skip
                if len(actions) != len(slots):
                    raise ValueError(f"act_batch answered {len(actions)} of {len(slots)} slots")
            except Exception as error:  # no one episode to blame: each of the call's is an error
                ended += [self._end(slot, error) for slot in slots]
                continue
            for slot, episode, action in zip(slots, episodes, actions, strict=True):
                if isinstance(action, Exception):  # this episode's own failure; the others play on
                    ended.append(self._end(slot, action))
                    continue
                try:
                    episode.apply(action, turn_record(self.live[slot].agent, slot))
                except Exception as error:  # this env failed; the others play on
                    ended.append(self._end(slot, error))
                    continue
                if episode.done:
                    ended.append(self._end(slot))
        return ended

    def _end(self, slot: int, error: BaseException | None = None) -> dict[str, Any]:
        live = self.live.pop(slot)
        _end_slot(live.agent, slot)
        record: dict[str, Any] | None = None
        if error is None:
            try:
                record = self.player.record(live.spec, live.agent, live.episode.result(),
                                            live.env)  # fmt: skip
            except Exception as failure:
                error = failure
        if error is not None or record is None:
            record = self.player.failure(live.spec, error or RuntimeError("no record"))
        self.player.release(live.spec, live.env)
        record["seconds"] = round(time.perf_counter() - live.began, 3)
        return record


def _end_slot(agent: Any, slot: int) -> None:
    end = getattr(agent, "end_slot", None)
    if callable(end):
        end(slot)


__all__ = ["BatchAgent", "LockStep", "can_batch"]
