"""Play a resolved suite with one agent in worker processes, resumably, into a run directory.

    RUN_DIR/run.json        suite (name, version, hash), agent spec and description, provenance
    RUN_DIR/episodes.jsonl  one line per finished episode: figures, error, full trajectory
    RUN_DIR/summary.json    one row per env x difficulty x split (``stats.summarize``)
    RUN_DIR/report.md       the same as tables, with the test -> ood -> adversarial gap

Episodes run in ``workers`` spawned processes (each builds its envs and agents once and keeps
them); the parent appends every result to ``episodes.jsonl`` as it arrives, so a run that stops
can be started again with the same command and only plays what is missing (the file never holds
an episode twice). An agent that raises, a worker that dies and an episode that runs past
``episode_timeout`` seconds (its worker is killed and replaced) are recorded as errors with
their reason; the run goes on.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import queue
import time
import traceback
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agentgym_bench.provenance import provenance
from agentgym_bench.stats import DIMENSIONS, ratings_summary, summarize
from agentgym_bench.suites import EpisodeSpec, Resolved

RUN_FILE, EPISODES_FILE, SUMMARY_FILE, REPORT_FILE = (
    "run.json", "episodes.jsonl", "summary.json", "report.md")  # fmt: skip


class RunMismatch(ValueError):
    """An existing run directory holds a different suite or agent."""


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

        self.settings, self.prompts = settings, prompts
        self.envs: dict[tuple[str, str, str], Any] = {}
        self.agents: dict[tuple[str, str, str], Any] = {}

    def play(self, spec: EpisodeSpec) -> dict[str, Any]:
        import gymnasium as gym

        from agentgym_bench import agent_specs
        from agentgym_envs.core.episode import play_episode

        settings = self.settings
        began = time.perf_counter()
        cell = (spec.env_id, spec.difficulty, spec.split)
        record: dict[str, Any] = {**asdict(spec), "key": spec.key}
        try:
            if cell not in self.envs:
                env = gym.make(spec.env_id, difficulty=spec.difficulty, split=spec.split)
                self.envs[cell] = env
                options = {**settings.agent_options}
                if spec.env_id in self.prompts and settings.agent.startswith("openai:"):
                    options.setdefault("formatter_kwargs", self.prompts[spec.env_id])
                self.agents[cell] = agent_specs.make(settings.agent, env, options)
            played = play_episode(self.envs[cell], self.agents[cell], spec.seed, spec.max_steps,
                                  options={"task_id": spec.task_id})  # fmt: skip
            record.update(
                score=played.score, success=played.success, length=played.length,
                invalid_actions=played.invalid_actions, complete=played.complete, error=None,
                agent=agent_specs.describe(settings.agent, self.agents[cell]),
                trajectory=played.to_record(),
            )  # fmt: skip
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


def run_suite(
    suite: Resolved,
    settings: RunSettings,
    run_dir: Path,
    retry_errors: bool = False,
    progress: bool = True,
) -> dict[str, Path]:
    """Play every episode of ``suite`` not yet in ``run_dir``; write the summary and report."""
    from tqdm.auto import tqdm

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
        _play(todo, settings, suite.prompts, run_dir, bar)
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
                        record({**asdict(spec), "key": spec.key, **_failed(why), "seconds": None})
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
            record({**asdict(spec), "key": spec.key, **_failed(why), "seconds": None})
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
    report = report_markdown(run, rows, ratings_summary(run_dir))
    paths["report"].write_text(report, encoding="utf-8")
    return paths


def refresh_report(run_dir: Path) -> dict[str, Path]:
    """Rewrite a finished run's summary and report (after ratings were added)."""
    run = json.loads((run_dir / RUN_FILE).read_text(encoding="utf-8"))
    return write_summary(run_dir, run, read_episodes(run_dir))


def _share(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def _percent(row: dict[str, Any]) -> str:
    low, high = row["success_ci"]
    return f"{100 * row['success_rate']:.1f}% [{100 * low:.0f}–{100 * high:.0f}]"


def report_markdown(
    run: dict[str, Any], rows: list[dict[str, Any]], ratings: dict[str, Any] | None = None
) -> str:
    """Per env: difficulty x split with success (95% CI), mean score, steps and errors; then
    the generalization gap (success on test, ood, adversarial side by side)."""
    suite, agent = run["suite"], run["agent"]["spec"]
    lines = [f"# {agent} on the {suite['name']} suite (v{suite['version']})", "",
             f"Suite hash `{suite['hash'][:16]}`, {suite['episodes']} episodes; "
             f"agentgym {run['provenance'].get('agentgym_version')}, "
             f"commit {run['provenance'].get('git_commit')}, {run['provenance'].get('device')}.",
             ""]  # fmt: skip
    for env_id in dict.fromkeys(r["env_id"] for r in rows):
        mine = [r for r in rows if r["env_id"] == env_id]
        lines += [f"## {env_id}", "",
                  "| difficulty | split | episodes | success (95% CI) | mean score | mean steps "
                  "| invalid actions | admissible actions | errors |",
                  "|---|---|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
        for r in mine:
            cells = (r["difficulty"], r["split"], str(r["episodes"]), _percent(r),
                     f"{r['mean_score']:.3f}", f"{r['mean_steps']:.1f}",
                     _share(r.get("invalid_action_rate")), _share(r.get("admissible_rate")),
                     str(r["errors"]))  # fmt: skip
            lines.append("| " + " | ".join(cells) + " |")
        splits = [s for s in ("test", "ood", "adversarial") if any(r["split"] == s for r in mine)]
        lines += ["", "Generalization gap (success):", "",
                  "| difficulty | " + " | ".join(splits) + " |",
                  "|---|" + "---:|" * len(splits)]  # fmt: skip
        for difficulty in dict.fromkeys(r["difficulty"] for r in mine):
            by_split = {r["split"]: r for r in mine if r["difficulty"] == difficulty}
            cells = [f"{100 * by_split[s]['success_rate']:.1f}%" if s in by_split else "–"
                     for s in splits]  # fmt: skip
            lines.append(f"| {difficulty} | " + " | ".join(cells) + " |")
        lines.append("")
    if ratings:
        means = ", ".join(f"{d} {ratings[d]:.2f}" for d in DIMENSIONS)
        lines += ["## People's ratings", "",
                  f"{ratings['rated_episodes']} episodes rated (`agentgym inspect`), mean of 5: "
                  f"{means}.", ""]  # fmt: skip
    return "\n".join(lines)


__all__ = ["RunMismatch", "RunSettings", "read_episodes", "run_suite", "write_summary"]
