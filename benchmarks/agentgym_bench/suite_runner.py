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

Prompt settings (the suite's ``prompt`` and its variants) reach the agents that build prompts
with a ``PromptFormatter`` (``openai:``, ``hf:``, ``run:``, custom agents exposing one; see
``agent_specs.apply_prompt_settings``); the built-in agents that take no prompts (random, oracle,
webshop-rule) are refused on a suite with variants (every variant would play the same), and on
a suite with plain prompt settings they play without them and the report says so. Every episode
of an env with rule checks (``rules``) records which rules it broke.
"""

from __future__ import annotations

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

from agentgym_bench.provenance import provenance
from agentgym_bench.run_report import prompt_use, report_markdown
from agentgym_bench.stats import ratings_summary, summarize
from agentgym_bench.suites import EpisodeSpec, Resolved

RUN_FILE, EPISODES_FILE, SUMMARY_FILE, REPORT_FILE = (
    "run.json", "episodes.jsonl", "summary.json", "report.md")  # fmt: skip


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


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# ---------------------------------------------------------------------------------- workers
class EpisodePlayer:
    """Plays suite episodes in one worker (a process, or a Ray actor): builds each env and its
    agent once and keeps them; any agent or env failure is a recorded result."""

    def __init__(self, settings: RunSettings, prompts: dict) -> None:
        import agentgym_envs  # noqa: F401  (registers the ids)

        #: (env id, variant) -> the prompt settings its episodes are played with
        self.settings, self.prompts = settings, prompts
        self.envs: dict[tuple[str, str, str], Any] = {}
        self.agents: dict[tuple[str, str, str, str], Any] = {}
        self.applied: dict[tuple[str, str, str, str], bool] = {}

    def play(self, spec: EpisodeSpec) -> dict[str, Any]:
        from agentgym_bench import agent_specs
        from agentgym_bench.rules import check_rules
        from agentgym_envs.core.episode import play_episode

        settings = self.settings
        began = time.perf_counter()
        cell = (spec.env_id, spec.difficulty, spec.split)
        mine = (*cell, spec.variant)
        prompt = self.prompts.get((spec.env_id, spec.variant)) or {}
        record: dict[str, Any] = {**spec.fields(), "key": spec.key}
        try:
            if cell not in self.envs:
                self.envs[cell] = _LastInfo(
                    gym.make(spec.env_id, difficulty=spec.difficulty, split=spec.split)
                )
            if mine not in self.agents:
                agent = agent_specs.make(settings.agent, self.envs[cell], settings.agent_options)
                self.applied[mine] = agent_specs.apply_prompt_settings(agent, prompt)
                self.agents[mine] = agent
            env = self.envs[cell]
            played = play_episode(env, self.agents[mine], spec.seed, spec.max_steps,
                                  options={"task_id": spec.task_id})  # fmt: skip
            trajectory = played.to_record()
            record.update(
                score=played.score, success=played.success, length=played.length,
                invalid_actions=played.invalid_actions, complete=played.complete, error=None,
                agent=agent_specs.describe(settings.agent, self.agents[mine]),
                trajectory=trajectory,
            )  # fmt: skip
            if prompt:
                record["prompt"] = {"settings": prompt, "applied": self.applied[mine]}
            flags = check_rules(spec.env_id, trajectory, env.last_info)
            if flags is not None:
                record["rule_violations"] = flags
        except Exception as error:  # any agent or env failure is a recorded result
            last = traceback.extract_tb(error.__traceback__)[-1:]
            where = f" ({last[0].filename.rsplit('/', 1)[-1]}:{last[0].lineno})" if last else ""
            record.update(_failed(f"{type(error).__name__}: {error}{where}"))
        record["seconds"] = round(time.perf_counter() - began, 3)
        return record

    def ready(self) -> bool:
        """True once built (a Ray actor's start is not counted in its first episode's time)."""
        return True

    def close(self) -> None:
        for env in self.envs.values():
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


def _worker(settings: RunSettings, prompts: dict, tasks: Any, results: Any, slot: int) -> None:
    """Take episodes from ``tasks`` until None; report ("start" | "done", slot, key, payload)."""
    player = EpisodePlayer(settings, prompts)
    while True:
        spec: EpisodeSpec | None = tasks.get()
        if spec is None:
            break
        results.put(("start", slot, spec.key, None))
        results.put(("done", slot, spec.key, player.play(spec)))
    player.close()


def _failed(reason: str) -> dict[str, Any]:
    return {"score": 0.0, "success": False, "length": 0, "invalid_actions": 0,
            "complete": False, "error": reason, "trajectory": None}  # fmt: skip


@dataclass
class _Slot:
    process: Any
    tasks: Any
    key: str | None = None
    spec: EpisodeSpec | None = None
    since: float = 0.0


class _Pool:
    """``workers`` processes, each with its own task queue so a stuck one can be replaced."""

    def __init__(self, settings: RunSettings, prompts: dict) -> None:
        self.context = mp.get_context("spawn")
        self.settings, self.prompts = settings, prompts
        self.results = self.context.Queue()
        self.slots = [self._spawn(i) for i in range(max(1, settings.workers))]

    def _spawn(self, index: int) -> _Slot:
        tasks = self.context.Queue()
        process = self.context.Process(
            target=_worker, args=(self.settings, self.prompts, tasks, self.results, index),
            daemon=True,
        )  # fmt: skip
        process.start()
        return _Slot(process, tasks)

    def replace(self, index: int) -> None:
        slot = self.slots[index]
        slot.process.kill()
        slot.process.join(5)
        self.slots[index] = self._spawn(index)

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


def _open_run(run_dir: Path, suite: Resolved, settings: RunSettings) -> dict[str, Any]:
    run_dir.mkdir(parents=True, exist_ok=True)
    path = run_dir / RUN_FILE
    if path.exists():
        run = json.loads(path.read_text(encoding="utf-8"))
        if run["suite"]["hash"] != suite.hash or run["agent"]["spec"] != settings.agent:
            raise RunMismatch(
                f"{run_dir} holds a run of agent {run['agent']['spec']!r} on suite "
                f"{run['suite']['name']} v{run['suite']['version']} ({run['suite']['hash'][:12]}); "
                f"this is {settings.agent!r} on {suite.name} v{suite.version} "
                f"({suite.hash[:12]}): use another --out folder"
            )
        return run
    run = {
        "agent": {"spec": settings.agent, "options": settings.agent_options},
        "suite": suite.describe(),
        "provenance": provenance(),
        "settings": {
            "workers": settings.workers,
            "episode_timeout": settings.episode_timeout,
            "backend": settings.backend,
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
) -> dict[str, Path]:
    """Play every episode of ``suite`` not yet in ``run_dir``; write the summary and report."""
    from tqdm.auto import tqdm

    refuse_variants(suite, settings.agent)
    run = _open_run(run_dir, suite, settings)
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
    with (run_dir / EPISODES_FILE).open("a", encoding="utf-8") as out:

        def record(result: dict[str, Any]) -> None:
            nonlocal remaining
            out.write(json.dumps(result) + "\n")
            out.flush()
            remaining -= 1
            bar.update()

        try:
            for index in range(len(pool.slots)):  # one episode in flight per worker
                _assign(pool, index, pending)
            while remaining:
                try:
                    kind, index, key, payload = pool.results.get(timeout=0.5)
                except queue.Empty:
                    kind = None
                if kind == "start":
                    pool.slots[index].since = time.monotonic()
                elif kind == "done" and pool.slots[index].key == key:
                    record(payload)
                    pool.slots[index].key = None
                    _assign(pool, index, pending)
                for index, slot in enumerate(pool.slots):
                    if slot.key is None:
                        continue
                    late = slot.since and time.monotonic() - slot.since > settings.episode_timeout
                    dead = not slot.process.is_alive()
                    if late or dead:
                        why = (f"timed out after {settings.episode_timeout:g} s" if late else
                               f"worker died (exit code {slot.process.exitcode})")  # fmt: skip
                        spec = slot.spec
                        assert spec is not None
                        record({**spec.fields(), "key": spec.key, **_failed(why), "seconds": None})
                        pool.replace(index)
                        _assign(pool, index, pending)
        finally:
            pool.close()


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
            for index in range(len(actors)):
                assign(index)
            while flying:
                ready, _ = ray.wait(list(flying), num_returns=1, timeout=0.5)
                for call in ready:
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


def _assign(pool: _Pool, index: int, pending: list[EpisodeSpec]) -> None:
    slot = pool.slots[index]
    if not pending:
        slot.key, slot.spec = None, None
        return
    spec = pending.pop()
    slot.key, slot.spec, slot.since = spec.key, spec, time.monotonic()
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
