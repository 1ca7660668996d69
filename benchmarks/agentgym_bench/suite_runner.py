"""Play a resolved suite with one agent in worker processes, resumably, into a run directory.

    RUN_DIR/run.json        suite (name, version, hash), agent spec and description, provenance
    RUN_DIR/episodes.jsonl  one line per finished episode: figures, error, full trajectory
    RUN_DIR/summary.json    one row per env x difficulty x split (``stats.summarize``), and
                            per variant in a suite with prompt variants
    RUN_DIR/report.md       the same as tables, with the test -> ood -> adversarial gap
                            (a suite's variants side by side)

Episodes run in ``workers`` spawned processes (each builds its envs and agents once and keeps
them); the parent appends every result to ``episodes.jsonl`` as it arrives, so a run that stops
can be started again with the same command and only plays what is missing (the file never holds
an episode twice). An agent that raises, a worker that dies and an episode that runs past
``episode_timeout`` seconds (its worker is killed and replaced) are recorded as errors with
their reason; the run goes on.

With ``batch_size`` B > 1 each worker holds up to B episodes and plays them in lock-step
(``lockstep``: one batched agent call per turn for agents with ``act_batch``: ``hf:`` and
``run:``, one model call; ``openai:``, the turn's requests sent concurrently; others play one at
a time), refilling a finished episode's slot from its queue; the records are the same as B = 1
gives (an episode's ``seconds`` is its wall time in the batch, the turns it shares included).
The episode timeout in lock-step: each episode's clock runs
from its own start in the worker and includes the turns it shares with the others (a turn
lasts as long as its batched call and the slowest env step). When an episode passes the
limit its worker is killed and replaced: every episode of it past the limit is recorded as
timed out (batch-mates that started together pass it together: a hung call cannot be pinned
on one of them), and the others, not yet past it, are played again from their start (a kill
always records one episode, so a run ends). A worker that dies takes its whole batch: each
of its episodes is recorded as an error (``--retry-errors`` plays them again).

Prompt settings (the suite's ``prompt`` and its variants) reach the agents that build prompts
with a ``PromptFormatter`` (``openai:``, ``hf:``, ``run:``, custom agents exposing one; see
``agent_specs.apply_prompt_settings``); the built-in agents that take no prompts (random, oracle,
webshop-rule) are refused on a suite with variants (every variant would play the same), and on
a suite with plain prompt settings they play without them and the report says so. Every episode
of an env with rule checks (``rules``) records which rules it broke.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing as mp
import queue
import time
import traceback
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import gymnasium as gym

from agentgym_bench.agent_specs import sees_oracle
from agentgym_bench.provenance import provenance
from agentgym_bench.run_folder import EPISODES_FILE, REPORT_FILE, RUN_FILE, SUMMARY_FILE
from agentgym_bench.run_report import prompt_use, report_markdown
from agentgym_bench.stats import ratings_summary, summarize
from agentgym_bench.suites import EpisodeSpec, Resolved


class RunMismatch(ValueError):
    """An existing run directory holds a different suite or agent."""


class PromptVariantsRefused(ValueError):
    """A suite with prompt variants and an agent that takes no prompts."""


BACKENDS = ("processes", "ray")


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


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# ---------------------------------------------------------------------------------- workers
class EpisodePlayer:
    """Plays suite episodes in one worker (a process, or a Ray actor): builds envs and the agent
    of each env x difficulty x split (x variant) once and keeps them; any agent or env failure
    is a recorded result. One env per cell serves episodes played one at a time; batched play
    (``lockstep``) takes one per live episode, kept idle between episodes."""

    def __init__(self, settings: RunSettings, prompts: dict) -> None:
        import agentgym_envs  # noqa: F401  (registers the ids)

        #: (env id, variant) -> the prompt settings its episodes are played with
        self.settings, self.prompts = settings, prompts
        self.envs: dict[tuple[str, str, str], list[Any]] = {}  # every env made, per cell
        self.idle: dict[tuple[str, str, str], list[Any]] = {}  # those free for an episode
        self.agents: dict[tuple[str, str, str, str], Any] = {}
        self.applied: dict[tuple[str, str, str, str], bool] = {}
        self.batch: Any = None  # the Ray actor's lock-step (``advance``)

    def play(self, spec: EpisodeSpec) -> dict[str, Any]:
        from agentgym_envs.core.episode import play_episode

        began = time.perf_counter()
        record = self.blank(spec)
        env = None
        try:
            env, agent = self.take(spec)
            played = play_episode(env, agent, spec.seed, spec.max_steps,
                                  options={"task_id": spec.task_id})  # fmt: skip
            self.fill(record, spec, agent, played, env)
        except Exception as error:  # any agent or env failure is a recorded result
            self.fail(record, error)
        if env is not None:
            self.give_back(spec, env)
        record["seconds"] = round(time.perf_counter() - began, 3)
        return record

    # ---- the parts of an episode's play (``lockstep.LockStep`` plays with them too) -----------
    def blank(self, spec: EpisodeSpec) -> dict[str, Any]:
        """A record holding only which episode it is."""
        return {**spec.fields(), "key": spec.key}

    def take(self, spec: EpisodeSpec) -> tuple[Any, Any]:
        """An idle env of the episode's cell (made when there is none) and its agent (made
        once per cell and variant, with the variant's prompt settings)."""
        from agentgym_bench import agent_specs

        cell = (spec.env_id, spec.difficulty, spec.split)
        mine = (*cell, spec.variant)
        idle = self.idle.setdefault(cell, [])
        if idle:
            env = idle.pop()
        else:
            env = _LastInfo(gym.make(spec.env_id, difficulty=spec.difficulty, split=spec.split,
                                     expert=sees_oracle(self.settings.agent)))  # fmt: skip
            self.envs.setdefault(cell, []).append(env)
        if mine not in self.agents:
            try:
                agent = agent_specs.make(self.settings.agent, env, self.settings.agent_options)
                prompt = self.prompts.get((spec.env_id, spec.variant)) or {}
                self.applied[mine] = agent_specs.apply_prompt_settings(agent, prompt)
            except Exception:
                idle.append(env)
                raise
            self.agents[mine] = agent
        return env, self.agents[mine]

    def give_back(self, spec: EpisodeSpec, env: Any) -> None:
        self.idle[(spec.env_id, spec.difficulty, spec.split)].append(env)

    def fill(self, record: dict[str, Any], spec: EpisodeSpec, agent: Any, played: Any,
             env: Any) -> None:  # fmt: skip
        """Complete ``record`` with the played episode: figures, trajectory, agent, prompt
        settings, rule flags."""
        from agentgym_bench import agent_specs
        from agentgym_bench.rules import check_rules

        trajectory = played.to_record()
        record.update(
            score=played.score, success=played.success, length=played.length,
            invalid_actions=played.invalid_actions, complete=played.complete, error=None,
            agent=agent_specs.describe(self.settings.agent, agent), trajectory=trajectory,
        )  # fmt: skip
        prompt = self.prompts.get((spec.env_id, spec.variant)) or {}
        if prompt:
            mine = (spec.env_id, spec.difficulty, spec.split, spec.variant)
            record["prompt"] = {"settings": prompt, "applied": self.applied[mine]}
        flags = check_rules(spec.env_id, trajectory, env.last_info)
        if flags is not None:
            record["rule_violations"] = flags

    def fail(self, record: dict[str, Any], error: BaseException) -> None:
        """Make ``record`` an error with ``error``'s type, message and where it was raised."""
        last = traceback.extract_tb(error.__traceback__)[-1:]
        where = f" ({last[0].filename.rsplit('/', 1)[-1]}:{last[0].lineno})" if last else ""
        record.update(_failed(f"{type(error).__name__}: {error}{where}"))

    def lockstep(self, size: int) -> Any:
        """Batched play of up to ``size`` episodes at once (``lockstep.LockStep``)."""
        from agentgym_bench.lockstep import LockStep

        return LockStep(self, size)

    def advance(self, specs: list[EpisodeSpec]) -> tuple[list[dict], list[EpisodeSpec], bool]:
        """A Ray actor's batched play (``batch_size`` > 1; ``_play`` runs ``lockstep`` in its
        processes directly): start ``specs``, then play turns until an episode ends. Returns
        the ended episodes' records, the specs not started and whether the agent plays in
        batches: one without the batch protocol plays only the first spec, whole."""
        from agentgym_bench.lockstep import can_batch

        if self.batch is None:
            self.batch = self.lockstep(self.settings.batch_size)
        ended: list[dict] = []
        for i, spec in enumerate(specs):
            ended += self.batch.add(spec)
            if not can_batch(self.agents.get((spec.env_id, spec.difficulty, spec.split,
                                              spec.variant))):  # fmt: skip
                return ended, specs[i + 1 :], False
        while len(self.batch) and not ended:
            ended += self.batch.turn()
        return ended, [], True

    def ready(self) -> bool:
        """True once built (a Ray actor's start is not counted in its first episode's time)."""
        return True

    def close(self) -> None:
        for envs in self.envs.values():
            for env in envs:
                env.close()


class _LastInfo(gym.Wrapper):
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


def _worker(settings: RunSettings, prompts: dict, tasks: Any, results: Any, wid: int) -> None:
    """Take episodes from ``tasks`` until None; report ("start" | "done", wid, key, payload)."""
    player = EpisodePlayer(settings, prompts)
    if settings.batch_size > 1:
        _play_batches(player, settings.batch_size, tasks, results, wid)
    else:
        while True:
            spec: EpisodeSpec | None = tasks.get()
            if spec is None:
                break
            results.put(("start", wid, spec.key, None))
            results.put(("done", wid, spec.key, player.play(spec)))
    player.close()


def _play_batches(player: EpisodePlayer, size: int, tasks: Any, results: Any, wid: int) -> None:
    """The worker's loop with ``--batch-size`` > 1: up to ``size`` episodes in lock-step, the
    free slots refilled from ``tasks`` before each turn, each episode reported as one at a
    time is."""
    batch = player.lockstep(size)
    closing = False
    while True:
        while not closing and not batch.full():
            try:  # wait for work only when nothing is in play
                spec: EpisodeSpec | None = tasks.get_nowait() if len(batch) else tasks.get()
            except queue.Empty:
                break
            if spec is None:
                closing = True
                break
            results.put(("start", wid, spec.key, None))
            for record in batch.add(spec):
                if batch.solo:  # its agent has no batch protocol: send one at a time
                    results.put(("solo", wid, record["key"], None))
                results.put(("done", wid, record["key"], record))
        if not len(batch):
            if closing:
                return
            continue
        for record in batch.turn():
            results.put(("done", wid, record["key"], record))


def _failed(reason: str) -> dict[str, Any]:
    return {"score": 0.0, "success": False, "length": 0, "invalid_actions": 0,
            "complete": False, "error": reason, "trajectory": None}  # fmt: skip


@dataclass
class _Flying:
    """An episode handed to a worker and not yet recorded."""

    spec: EpisodeSpec
    since: float  # when it was handed over, then when the worker started it
    started: bool = False

    def late(self, limit: float) -> bool:
        return time.monotonic() - self.since > limit


@dataclass
class _Slot:
    process: Any
    tasks: Any
    wid: int  # this process's id in its messages (a replaced worker's late ones are ignored)
    flying: dict[str, _Flying] = field(default_factory=dict)
    solo: bool = False  # its agent plays one episode at a time: hand it one at a time


class _Pool:
    """``workers`` processes, each with its own task queue so a stuck one can be replaced."""

    def __init__(self, settings: RunSettings, prompts: dict) -> None:
        self.context = mp.get_context("spawn")
        self.settings, self.prompts = settings, prompts
        self.results = self.context.Queue()
        self.spawned = 0
        self.slots = [self._spawn() for _ in range(max(1, settings.workers))]

    def _spawn(self) -> _Slot:
        tasks, wid = self.context.Queue(), self.spawned
        self.spawned += 1
        process = self.context.Process(
            target=_worker, args=(self.settings, self.prompts, tasks, self.results, wid),
            daemon=True,
        )  # fmt: skip
        process.start()
        return _Slot(process, tasks, wid)

    def index_of(self, wid: int) -> int | None:
        return next((i for i, slot in enumerate(self.slots) if slot.wid == wid), None)

    def replace(self, index: int) -> None:
        slot = self.slots[index]
        slot.process.kill()
        slot.process.join(5)
        self.slots[index] = self._spawn()

    def close(self) -> None:
        for slot in self.slots:
            slot.tasks.put(None)
        for slot in self.slots:
            slot.process.join(10)
            if slot.process.is_alive():
                slot.process.kill()


# ------------------------------------------------------------------------------------ runs
def read_episodes(run_dir: Path) -> list[dict[str, Any]]:
    """The finished episodes of a run (a torn last line, from a run killed mid-write, is
    dropped and played again)."""
    path = run_dir / EPISODES_FILE
    if not path.exists():
        return []
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return records


def _open_run(run_dir: Path, suite: Resolved, settings: RunSettings,
              changed_options: bool = False) -> dict[str, Any]:  # fmt: skip
    """run.json of ``run_dir``: written for a new run; for a run to resume, checked to be the
    same suite, agent and (unless ``changed_options``) agent options."""
    from agentgym_bench.agent_specs import public_options

    run_dir.mkdir(parents=True, exist_ok=True)
    path = run_dir / RUN_FILE
    options = public_options(settings.agent, settings.agent_options)
    if path.exists():
        run = json.loads(path.read_text(encoding="utf-8"))
        if run["suite"]["hash"] != suite.hash or run["agent"]["spec"] != settings.agent:
            raise RunMismatch(
                f"{run_dir} holds a run of agent {run['agent']['spec']!r} on suite "
                f"{run['suite']['name']} v{run['suite']['version']} ({run['suite']['hash'][:12]}); "
                f"this is {settings.agent!r} on {suite.name} v{suite.version} "
                f"({suite.hash[:12]}): use another --out folder"
            )
        before = run["agent"].get("options") or {}
        if before != options and not changed_options:
            raise RunMismatch(
                f"{run_dir} was played with agent options {before}; this call has {options}: "
                "use another --out folder, or pass --allow-changed-options to go on with the "
                "new ones (run.json then lists each call's options)"
            )
        if before != options:
            run["agent"].setdefault("earlier_options", []).append(before)
            run["agent"]["options"] = options
        return run
    run = {
        "agent": {
            "spec": settings.agent,
            "options": options,
            "sees_oracle": sees_oracle(settings.agent),
        },
        "suite": suite.describe(),
        "provenance": provenance(),
        "settings": {
            "workers": settings.workers,
            "episode_timeout": settings.episode_timeout,
            "backend": settings.backend,
            **({"batch_size": settings.batch_size} if settings.batch_size > 1 else {}),
        },
        "started": now(),
        "finished": None,
    }
    path.write_text(json.dumps(run, indent=2) + "\n", encoding="utf-8")
    return run


def _tidy(run_dir: Path, keep: set[str]) -> list[dict[str, Any]]:
    """Rewrite episodes.jsonl with one line per kept key (drops torn lines and retried errors)."""
    records, seen = [], set()
    for record in read_episodes(run_dir):
        if record.get("key") in keep and record["key"] not in seen:
            seen.add(record["key"])
            records.append(record)
    text = "".join(json.dumps(r) + "\n" for r in records)
    (run_dir / EPISODES_FILE).write_text(text, encoding="utf-8")
    return records


def refuse_variants(suite: Resolved, agent: str) -> None:
    """A suite with prompt variants played by a built-in agent that takes no prompts would
    play every variant the same: refused, with what to do instead."""
    from agentgym_bench.agent_specs import NO_PROMPTS

    if suite.variants and agent in NO_PROMPTS:
        raise PromptVariantsRefused(
            f"suite {suite.name} plays each episode under the prompt variants "
            f"{', '.join(suite.variants)}, but agent {agent!r} takes no prompts (random, oracle "
            "and webshop-rule ignore prompt settings), so every variant would play the same: use "
            "an LLM agent (openai:MODEL, hf:MODEL, run:PATH) or a suite without variants"
        )


def run_suite(
    suite: Resolved,
    settings: RunSettings,
    run_dir: Path,
    retry_errors: bool = False,
    progress: bool = True,
    changed_options: bool = False,
) -> dict[str, Path]:
    """Play every episode of ``suite`` not yet in ``run_dir``; write the summary and report.
    Resuming with other agent options is refused unless ``changed_options``."""
    from tqdm.auto import tqdm

    refuse_variants(suite, settings.agent)
    if settings.batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {settings.batch_size}")
    run = _open_run(run_dir, suite, settings, changed_options)
    wanted = {spec.key: spec for spec in suite.episodes}
    done = {r["key"]: r for r in read_episodes(run_dir) if r.get("key") in wanted}
    if retry_errors:
        done = {k: r for k, r in done.items() if not r.get("error")}
    _tidy(run_dir, set(done))
    todo = [spec for key, spec in wanted.items() if key not in done]
    bar = tqdm(total=len(wanted), initial=len(done), unit="episode", disable=not progress,
               desc=f"{settings.agent} on {suite.name}")  # fmt: skip
    if todo:
        prompts = {(s.env_id, s.variant): suite.prompt_for(s.env_id, s.variant) for s in todo}
        _play(todo, settings, prompts, run_dir, bar)
    bar.close()
    records = [r for r in read_episodes(run_dir) if r["key"] in wanted]
    run["finished"] = now()
    agents = [r["agent"] for r in records if r.get("agent")]
    run["agent"]["description"] = agents[0] if agents else {"spec": settings.agent}
    (run_dir / RUN_FILE).write_text(json.dumps(run, indent=2) + "\n", encoding="utf-8")
    return write_summary(run_dir, run, records)


def _play(todo: list[EpisodeSpec], settings: RunSettings, prompts: dict, run_dir: Path,
          bar: Any) -> None:  # fmt: skip
    if settings.backend == "ray":
        _play_on_ray(todo, settings, prompts, run_dir, bar)
        return
    pool = _Pool(settings, prompts)
    pending = list(reversed(todo))
    remaining = len(todo)
    size, limit = max(1, settings.batch_size), settings.episode_timeout
    with (run_dir / EPISODES_FILE).open("a", encoding="utf-8") as out:

        def record(result: dict[str, Any]) -> None:
            nonlocal remaining
            out.write(json.dumps(result) + "\n")
            out.flush()
            remaining -= 1
            bar.update()

        try:
            for index in range(len(pool.slots)):  # up to a batch of episodes per worker
                _assign(pool, index, pending, size)
            while remaining:
                # every message already sent is read before any episode is judged late: one
                # that finished in time may have waited in the queue while the loop was busy
                for kind, wid, key, payload in _messages(pool.results, wait=0.5):
                    sender = pool.index_of(wid)  # None: a replaced worker's late message
                    flying = None if sender is None else pool.slots[sender].flying.get(key)
                    if sender is None or flying is None:
                        pass
                    elif kind == "start":
                        flying.since, flying.started = time.monotonic(), True
                    elif kind == "solo":
                        pool.slots[sender].solo = True
                    elif kind == "done":
                        del pool.slots[sender].flying[key]
                        for waiting in pool.slots[sender].flying.values():  # queued behind it
                            if not waiting.started:
                                waiting.since = time.monotonic()
                        record(payload)
                        _assign(pool, sender, pending, size)
                for index, slot in enumerate(pool.slots):
                    if not slot.flying:
                        continue
                    # an episode's clock runs from its start (from its hand-over while the
                    # worker has started none: a worker that hangs before playing)
                    busy = any(f.started for f in slot.flying.values())
                    late = [f for f in slot.flying.values() if (f.started or not busy)
                            and f.late(limit)]  # fmt: skip
                    if late:  # each late one an error; the others played again, first
                        for f in late:
                            failed = _failed(f"timed out after {limit:g} s")
                            record({**f.spec.fields(), "key": f.spec.key, **failed,
                                    "seconds": None})  # fmt: skip
                        again = [f.spec for f in slot.flying.values() if f.spec.key not in
                                 {g.spec.key for g in late}]  # fmt: skip
                        pending += reversed(again)
                    elif not slot.process.is_alive():  # no one episode to blame: each an error
                        why = f"worker died (exit code {slot.process.exitcode})"
                        for f in slot.flying.values():
                            record({**f.spec.fields(), "key": f.spec.key, **_failed(why),
                                    "seconds": None})  # fmt: skip
                    else:
                        continue
                    pool.replace(index)
                    _assign(pool, index, pending, size)
        finally:
            pool.close()


def _messages(results: Any, wait: float) -> list[tuple]:
    """The workers' messages: the first within ``wait`` seconds, then every other queued."""
    try:
        messages = [results.get(timeout=wait)]
    except queue.Empty:
        return []
    with contextlib.suppress(queue.Empty):
        while True:
            messages.append(results.get_nowait())
    return messages


def _ready(ray: Any, calls: list[Any]) -> list[Any]:
    """The finished ``calls``: the first within half a second, then every other one already
    done (all of them before any is judged late)."""
    if not calls:
        return []
    first, _ = ray.wait(calls, num_returns=1, timeout=0.5)
    if not first:
        return []
    ready, _ = ray.wait(calls, num_returns=len(calls), timeout=0)
    return ready


def _play_on_ray(todo: list[EpisodeSpec], settings: RunSettings, prompts: dict, run_dir: Path,
                 bar: Any) -> None:  # fmt: skip
    """``_play`` with Ray actors as the workers: one episode in flight per actor; an actor that
    dies or runs past the episode timeout is killed and replaced, the episode an error."""
    import ray

    if not ray.is_initialized():
        ray.init(address=settings.ray_address, include_dashboard=False, log_to_driver=False)
    player = ray.remote(EpisodePlayer)

    def spawn() -> Any:
        actor = player.remote(settings, prompts)
        ray.get(actor.ready.remote())  # started: the episode timeout counts from here
        return actor

    actors = [spawn() for _ in range(max(1, settings.workers))]
    pending = list(reversed(todo))
    flying: dict[Any, tuple[int, EpisodeSpec, float]] = {}  # call -> (actor, episode, since)

    def assign(index: int) -> None:
        if pending:
            spec = pending.pop()
            flying[actors[index].play.remote(spec)] = (index, spec, time.monotonic())

    with (run_dir / EPISODES_FILE).open("a", encoding="utf-8") as out:

        def record(result: dict[str, Any]) -> None:
            out.write(json.dumps(result) + "\n")
            out.flush()
            bar.update()

        def fail(index: int, spec: EpisodeSpec, why: str) -> None:
            record({**spec.fields(), "key": spec.key, **_failed(why), "seconds": None})
            ray.kill(actors[index])
            actors[index] = spawn()

        try:
            if settings.batch_size > 1:
                _ray_batches(actors, spawn, pending, settings, record)
                return
            for index in range(len(actors)):
                assign(index)
            while flying:
                for call in _ready(ray, list(flying)):
                    index, spec, _ = flying.pop(call)
                    try:
                        record(ray.get(call))
                    except ray.exceptions.RayActorError as error:
                        fail(index, spec, f"worker died ({type(error).__name__})")
                    assign(index)
                for call, (index, spec, since) in list(flying.items()):
                    if time.monotonic() - since > settings.episode_timeout:
                        flying.pop(call)
                        fail(index, spec, f"timed out after {settings.episode_timeout:g} s")
                        assign(index)
        finally:
            for actor in actors:
                ray.kill(actor)


def _ray_batches(actors: list[Any], spawn: Any, pending: list[EpisodeSpec],
                 settings: RunSettings, record: Any) -> None:  # fmt: skip
    """``_play_on_ray`` with ``batch_size`` > 1: one ``EpisodePlayer.advance`` call in flight
    per actor, handing it episodes up to a batch (one at a time once it says its agent does not
    batch); an actor past an episode's timeout is killed and replaced, the late episodes errors
    and its others played again; an actor that dies takes its episodes with it, each an error."""
    import ray

    size, limit = settings.batch_size, settings.episode_timeout
    held: list[dict[str, tuple[EpisodeSpec, float]]] = [{} for _ in actors]  # key -> (spec, since)
    batching: list[bool | None] = [None for _ in actors]  # None: unknown before its first reply
    calls: dict[Any, int] = {}  # call -> actor

    def advance(index: int) -> None:
        room = (1 if batching[index] is False else size) - len(held[index])
        new = [pending.pop() for _ in range(min(max(room, 0), len(pending)))]
        now = time.monotonic()
        held[index].update((spec.key, (spec, now)) for spec in new)
        if held[index]:
            calls[actors[index].advance.remote(new)] = index

    def replace(index: int) -> None:
        ray.kill(actors[index])
        actors[index], held[index], batching[index] = spawn(), {}, None

    def failed(spec: EpisodeSpec, why: str) -> None:
        record({**spec.fields(), "key": spec.key, **_failed(why), "seconds": None})

    while True:
        for index in set(range(len(actors))) - set(calls.values()):
            advance(index)
        if not calls:
            return
        for call in _ready(ray, list(calls)):
            index = calls.pop(call)
            try:
                records, unplayed, batching[index] = ray.get(call)
            except (ray.exceptions.RayActorError, ray.exceptions.RayTaskError) as error:
                for spec, _ in held[index].values():
                    failed(spec, f"worker died ({type(error).__name__})")
                replace(index)
                continue
            for result in records:
                held[index].pop(result["key"], None)
                record(result)
            for spec in unplayed:
                held[index].pop(spec.key, None)
            pending.extend(reversed(unplayed))
        for call, index in list(calls.items()):
            now = time.monotonic()
            late = [spec for spec, since in held[index].values() if now - since > limit]
            if not late:
                continue
            if batching[index] is None:  # its first call: only the first episode had begun
                late = [next(iter(held[index].values()))[0]]
            for spec in late:
                failed(spec, f"timed out after {limit:g} s")
            pending.extend(reversed([s for s, _ in held[index].values() if s not in late]))
            calls.pop(call)
            replace(index)


def _assign(pool: _Pool, index: int, pending: list[EpisodeSpec], size: int) -> None:
    """Hand worker ``index`` episodes until it has ``size`` in flight or none are left."""
    slot = pool.slots[index]
    while pending and len(slot.flying) < (1 if slot.solo else size):
        spec = pending.pop()
        slot.flying[spec.key] = _Flying(spec, time.monotonic())
        slot.tasks.put(spec)


# --------------------------------------------------------------------------------- outputs
def write_summary(run_dir: Path, run: dict[str, Any], records: list[dict[str, Any]]
                  ) -> dict[str, Path]:  # fmt: skip
    rows = summarize(records)
    summary = {"suite": run["suite"], "agent": run["agent"]["spec"], "rows": rows}
    paths = {"run": run_dir / RUN_FILE, "episodes": run_dir / EPISODES_FILE,
             "summary": run_dir / SUMMARY_FILE, "report": run_dir / REPORT_FILE}  # fmt: skip
    paths["summary"].write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    report = report_markdown(run, rows, ratings_summary(run_dir), prompt_use(records))
    paths["report"].write_text(report, encoding="utf-8")
    return paths


def refresh_report(run_dir: Path) -> dict[str, Path]:
    """Rewrite a finished run's summary and report (after ratings were added)."""
    run = json.loads((run_dir / RUN_FILE).read_text(encoding="utf-8"))
    return write_summary(run_dir, run, read_episodes(run_dir))


__all__ = [
    "PromptVariantsRefused",
    "RunMismatch",
    "RunSettings",
    "read_episodes",
    "refuse_variants",
    "run_suite",
    "write_summary",
]
