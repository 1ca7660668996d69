"""Hand a run's episodes to workers and collect their records: one loop, one timeout policy.

Workers are spawned processes on this machine or Ray actors (this machine or a cluster); either
runs ``player.work`` with a task queue of its own, so a stuck one can be killed and replaced, and
reports on one shared results queue. The loop keeps up to ``batch_size`` episodes in flight per
worker (one for a worker whose agent plays one at a time). An episode's clock runs from its start
in the worker (from its hand-over while the worker has started none: a worker that hangs before
playing) and includes the turns it shares with batch-mates. When one passes ``episode_timeout``
its worker is killed and replaced: every episode of it past the limit is recorded as timed out
(batch-mates that started together pass it together: a hung call cannot be pinned on one of
them) and the others are played again from their start (a kill always records one episode, so
a run ends). A worker that dies takes its episodes with it, each recorded as an error.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from agentgym_bench.player import place, work
from agentgym_envs.core.records import EpisodeRecord, failed_record

if TYPE_CHECKING:
    from agentgym_bench.player import RunSettings
    from agentgym_bench.suites import EpisodeSpec


class Worker(Protocol):
    """One worker as the loop sees it, whatever runs it."""

    tasks: Any  # its task queue: EpisodeSpec, or None to stop

    def death(self) -> str | None:
        """None while it runs, else why it stopped."""

    def kill(self) -> None: ...
    def stop(self) -> None:
        """Wait a while for it to finish (the loop has put None on its queue), then kill it."""


class Backend(Protocol):
    results: Any  # the queue every worker reports on

    def spawn(self, wid: int) -> Worker: ...
    def close(self) -> None: ...


# -------------------------------------------------------------------------------- processes
@dataclass
class _Process:
    process: Any
    tasks: Any

    def death(self) -> str | None:
        alive = self.process.is_alive()
        return None if alive else f"worker died (exit code {self.process.exitcode})"

    def kill(self) -> None:
        self.process.kill()
        self.process.join(5)

    def stop(self) -> None:
        self.process.join(10)
        if self.process.is_alive():
            self.process.kill()


class Processes:
    """Workers as spawned processes of this machine."""

    def __init__(self, settings: RunSettings, prompts: dict) -> None:
        self.context = mp.get_context("spawn")
        self.settings, self.prompts = settings, prompts
        self.results = self.context.Queue()

    def spawn(self, wid: int) -> Worker:
        tasks = self.context.Queue()
        process = self.context.Process(
            target=work, args=(self.settings, self.prompts, tasks, self.results, wid), daemon=True
        )
        process.start()
        return _Process(process, tasks)

    def close(self) -> None:
        pass


# -------------------------------------------------------------------------------------- Ray
class _Actor:
    """A Ray actor that imports the envs when made (before the loop hands it an episode) and
    then runs ``player.work`` as its one long call."""

    def __init__(self) -> None:
        import agentgym_bench.player  # noqa: F401
        import agentgym_envs  # noqa: F401

    def ready(self) -> bool:
        return True

    def work(self, *args: Any) -> None:
        work(*args)


@dataclass
class _RayWorker:
    actor: Any
    call: Any  # its ``work`` call: done when it stops
    tasks: Any

    def death(self) -> str | None:
        import ray

        done, _ = ray.wait([self.call], timeout=0)
        if not done:
            return None
        try:
            ray.get(self.call)
        except (ray.exceptions.RayActorError, ray.exceptions.RayTaskError) as error:
            return f"worker died ({type(error).__name__})"
        return "worker stopped"

    def kill(self) -> None:
        import ray

        ray.kill(self.actor)
        self.tasks.shutdown()

    def stop(self) -> None:
        import ray

        ray.wait([self.call], timeout=10)
        self.kill()


class RayActors:
    """Workers as Ray actors (a running Ray, else a local one started here)."""

    def __init__(self, settings: RunSettings, prompts: dict) -> None:
        import ray
        from ray.util.queue import Queue

        if not ray.is_initialized():
            ray.init(address=settings.ray_address, include_dashboard=False, log_to_driver=False)
        self.settings, self.prompts, self.queue = settings, prompts, Queue
        self.actor: Any = ray.remote(_Actor)
        self.results = Queue()

    def spawn(self, wid: int) -> Worker:
        import ray

        actor, tasks = self.actor.remote(), self.queue()
        ray.get(actor.ready.remote())  # started: its episodes' clocks start from here
        call = actor.work.remote(self.settings, self.prompts, tasks, self.results, wid)
        return _RayWorker(actor, call, tasks)

    def close(self) -> None:
        self.results.shutdown()


# ------------------------------------------------------------------------------------- loop
@dataclass
class InFlight:
    """An episode handed to a worker and not yet recorded."""

    spec: EpisodeSpec
    since: float  # when it was handed over, then when the worker started it
    started: bool = False

    def late(self, limit: float) -> bool:
        return time.monotonic() - self.since > limit


@dataclass
class _Slot:
    worker: Worker
    wid: int  # the worker's id in its messages (a replaced worker's late ones are ignored)
    flying: dict[str, InFlight] = field(default_factory=dict)
    solo: bool = False  # its agent plays one episode at a time: hand it one at a time


class Scheduler:
    """Plays ``todo`` on ``settings.workers`` workers of ``settings.backend``, passing each
    record to ``record`` as it arrives (see the module docstring)."""

    def __init__(self, settings: RunSettings, prompts: dict) -> None:
        self.backend: Backend = (RayActors if settings.backend == "ray" else Processes)(
            settings, prompts
        )
        self.size, self.limit = max(1, settings.batch_size), settings.episode_timeout
        self.spawned = 0
        self.slots = [self._spawn() for _ in range(max(1, settings.workers))]

    def _spawn(self) -> _Slot:
        self.spawned += 1
        return _Slot(self.backend.spawn(self.spawned - 1), self.spawned - 1)

    def run(self, todo: list[EpisodeSpec], record: Callable[[EpisodeRecord], None]) -> None:
        pending, remaining = list(reversed(todo)), len(todo)

        def recorded(result: EpisodeRecord) -> None:
            nonlocal remaining
            record(result)
            remaining -= 1

        try:
            for slot in self.slots:
                self._assign(slot, pending)
            while remaining:
                # every message already sent is read before any episode is judged late: one
                # that finished in time may have waited in the queue while the loop was busy
                for kind, wid, key, payload in messages(self.backend.results, wait=0.5):
                    sender = next((s for s in self.slots if s.wid == wid), None)
                    flying = None if sender is None else sender.flying.get(key)
                    if sender is None or flying is None:
                        continue  # a replaced worker's late message
                    if kind == "start":
                        flying.since, flying.started = time.monotonic(), True
                    elif kind == "solo":
                        sender.solo = True
                    elif kind == "done":
                        del sender.flying[key]
                        for waiting in sender.flying.values():  # queued behind it
                            if not waiting.started:
                                waiting.since = time.monotonic()
                        recorded(payload)
                        self._assign(sender, pending)
                for index, slot in enumerate(self.slots):
                    if slot.flying and self._judge(slot, pending, recorded):
                        slot.worker.kill()
                        self.slots[index] = self._spawn()
                        self._assign(self.slots[index], pending)
        finally:
            self._close()

    def _judge(self, slot: _Slot, pending: list[EpisodeSpec],
               recorded: Callable[[EpisodeRecord], None]) -> bool:  # fmt: skip
        """Record ``slot``'s late episodes (and put back its others) or, when its worker died,
        all of them; True when the worker must be replaced."""
        busy = any(f.started for f in slot.flying.values())
        late = [f for f in slot.flying.values() if (f.started or not busy) and f.late(self.limit)]
        if late:  # each late one an error; the others played again, first
            for f in late:
                recorded(failed_record(place(f.spec), f"timed out after {self.limit:g} s"))
            pending += reversed([f.spec for f in slot.flying.values() if f not in late])
            return True
        death = slot.worker.death()
        if death is None:
            return False
        for f in slot.flying.values():  # no one episode to blame: each an error
            recorded(failed_record(place(f.spec), death))
        return True

    def _assign(self, slot: _Slot, pending: list[EpisodeSpec]) -> None:
        """Hand ``slot``'s worker episodes until it has a batch in flight or none are left."""
        while pending and len(slot.flying) < (1 if slot.solo else self.size):
            spec = pending.pop()
            slot.flying[spec.key] = InFlight(spec, time.monotonic())
            slot.worker.tasks.put(spec)

    def _close(self) -> None:
        for slot in self.slots:
            slot.worker.tasks.put(None)
        for slot in self.slots:
            slot.worker.stop()
        self.backend.close()


def messages(results: Any, wait: float) -> list[tuple]:
    """The workers' messages: the first within ``wait`` seconds, then every other queued."""
    try:
        found = [results.get(timeout=wait)]
    except queue.Empty:
        return []
    with contextlib.suppress(queue.Empty):
        while True:
            found.append(results.get_nowait())
    return found


__all__ = ["InFlight", "Processes", "RayActors", "Scheduler", "messages"]
