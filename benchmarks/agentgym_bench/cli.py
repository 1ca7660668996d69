"""``agentgym bench`` and ``agentgym leaderboard``: benchmark runs and the verified leaderboard.

- ``bench run``: one agent on a suite (``benchmarks/suites``), resumable, in worker processes.
- ``bench baselines``: random vs oracle (or other agents) on a suite, side by side.
- ``leaderboard submit RUN_DIR``: replay the run; if it verifies, add it to the board.
- ``leaderboard build``: rebuild the board's README.md and index.html from its submissions.

Added to the ``agentgym`` command through the ``agentgym.commands`` entry point, so the env
package never imports the benchmark code.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from agentgym_bench.suites import SUITES_DIR
from agentgym_envs.cli import UsageError
from agentgym_envs.registration import entry_for


def cmd_baselines(args: argparse.Namespace) -> int:
    """Every ``--agents`` agent on one suite, each into its own run folder, and one table."""
    import json

    from agentgym_bench.run_report import comparison_markdown
    from agentgym_bench.site import slug
    from agentgym_bench.suite_runner import RunSettings, run_suite

    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    for agent in args.agents:  # fail now, not after the progress bar started
        _check_agent(agent)
    suite = _resolve_suite(args.suite, args.env)
    out = Path(args.out or f"runs/baselines/{suite.name}")
    summaries = {}
    for agent in args.agents:
        paths = run_suite(suite, RunSettings(agent, workers=args.workers), out / slug(agent))
        summaries[agent] = json.loads(paths["summary"].read_text(encoding="utf-8"))
    rows = [{**row, "agent": agent} for agent, s in summaries.items() for row in s["rows"]]
    (out / "summary.json").write_text(json.dumps({"suite": suite.describe(), "rows": rows},
                                                 indent=2) + "\n", encoding="utf-8")  # fmt: skip
    report = comparison_markdown(suite.name, suite.version, rows)
    (out / "report.md").write_text(report, encoding="utf-8")
    print(report)
    print(f"Wrote {out / 'report.md'}, {out / 'summary.json'} and a run folder per agent "
          f"({', '.join(slug(a) for a in args.agents)}): submit one with agentgym leaderboard "
          "submit")  # fmt: skip
    return 0


def _check_agent(spec: str) -> None:
    """A one-line error for an agent name that is neither built in nor a known form."""
    from agentgym_bench import agent_specs

    if ":" not in spec and spec not in agent_specs.BUILT_IN:
        from agentgym_envs.registration import did_you_mean

        raise UsageError(f"unknown agent {spec!r}{did_you_mean(spec, agent_specs.BUILT_IN)}; "
                         "or openai:MODEL, hf:MODEL, run:PATH, or "
                         "package.module:callable")  # fmt: skip


def _resolve_suite(name: str, env_ids: list[str] | None) -> Any:
    """The suite ``name`` on ``env_ids`` (all its envs when None), skipped envs said."""
    from agentgym_bench.suites import SuiteError, resolve

    for env_id in env_ids or []:
        entry_for(env_id)  # a typo fails now, with a suggestion
    try:
        suite = resolve(name, env_ids=env_ids)
    except SuiteError as error:
        raise UsageError(str(error)) from error
    for env_id, why in suite.skipped.items():
        print(f"skipping {env_id}: {why}")
    if not suite.episodes:
        raise UsageError(f"suite {suite.name}: no episodes on the installed envs")
    return suite


def _parse_options(pairs: list[str]) -> dict[str, Any]:
    """KEY=VALUE pairs; values read as YAML scalars (numbers, booleans), else strings."""
    import yaml

    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--agent-option takes KEY=VALUE, got {pair!r}")
        options[key] = yaml.safe_load(value) if value else ""
    return options


def cmd_bench_run(args: argparse.Namespace) -> int:
    from agentgym_bench import agent_specs
    from agentgym_bench.suite_runner import (
        PromptVariantsRefused,
        RunMismatch,
        RunSettings,
        refuse_variants,
        run_suite,
    )

    if args.workers < 1 or args.episode_timeout <= 0:
        raise UsageError("--workers must be at least 1 and --episode-timeout positive")
    if args.batch_size < 1:
        raise UsageError(f"--batch-size must be at least 1, got {args.batch_size}")
    spec = args.agent
    _check_agent(spec)
    suite = _resolve_suite(args.suite, args.env)
    try:
        refuse_variants(suite, spec)
    except PromptVariantsRefused as error:
        raise UsageError(str(error)) from error
    from agentgym_bench.site import slug

    out = Path(args.out or f"runs/{suite.name}/{slug(spec)}")
    options = _parse_options(args.agent_option)
    try:  # a wrong option fails here, in one line, before any file is written
        agent_specs.check_options(spec, options)
    except ValueError as error:
        raise UsageError(str(error)) from error
    settings = RunSettings(spec, options, args.workers,
                           args.episode_timeout, args.backend, args.ray_address,
                           args.batch_size, args.env_url)  # fmt: skip
    variants = f", variants {', '.join(suite.variants)}" if suite.variants else ""
    print(f"{spec} on suite {suite.name} v{suite.version} ({len(suite.episodes)} episodes"
          f"{variants}, hash {suite.hash[:12]}) -> {out}")  # fmt: skip
    try:
        paths = run_suite(suite, settings, out, retry_errors=args.retry_errors,
                          changed_options=args.allow_changed_options)  # fmt: skip
    except RunMismatch as error:
        raise UsageError(str(error)) from error
    print(paths["report"].read_text(encoding="utf-8"))
    print("Wrote " + ", ".join(str(p) for p in paths.values()))
    return _all_errors(paths["episodes"])


def _all_errors(episodes: Path) -> int:
    """1 (and why) when every episode of the run errored: nothing was measured."""
    from agentgym_bench.run_folder import RunDir

    records = RunDir(episodes.parent).records()
    if records and all(r.get("error") for r in records):
        reasons = sorted({str(r["error"]) for r in records})
        print(f"every episode ({len(records)}) ended in an error, e.g. {reasons[0]}: fix the "
              "cause, then rerun with --retry-errors")  # fmt: skip
        return 1
    return 0


def add_bench_command(sub: Any) -> None:
    """Add ``bench`` (``run``, ``baselines``) to the ``agentgym`` subparsers ``sub``."""
    bench = sub.add_parser("bench", help="benchmark agents on suites of tasks")
    commands = bench.add_subparsers(dest="bench_command", required=True)
    p = commands.add_parser(
        "run", help="play one agent on a suite (resumable; results, summary and report in --out)"
    )
    suites = ", ".join(sorted(path.stem for path in SUITES_DIR.glob("*.yaml")))
    p.add_argument("--suite", default="quick",
                   help=f"suite name in benchmarks/suites ({suites}) or a YAML path; a suite "
                   "with prompt variants (e.g. ablation-history: 0, 1 or all past turns in "
                   "the prompt) plays each episode once per variant, for LLM agents only "
                   "(random, oracle and webshop-rule are refused on it)")  # fmt: skip
    p.add_argument(
        "--agent",
        required=True,
        help="random, oracle, webshop-rule, openai:MODEL (an OpenAI-compatible endpoint: "
        "--agent-option base_url=... or OPENAI_BASE_URL), hf:MODEL (a local Hugging Face "
        "model: hf:smollm2-135m-instruct or hf:/path/to/model), run:PATH (an agentgym-train "
        "run or export), or package.module:callable",
    )
    p.add_argument("--agent-option", action="append", default=[], metavar="KEY=VALUE",
                   help="passed to the agent (e.g. temperature=0.2, max_tokens=128, "
                   "base_url=http://127.0.0.1:8000/v1); repeatable")  # fmt: skip
    p.add_argument("--env", action="append", default=None, metavar="ENV_ID",
                   help="run only this env id of the suite (repeatable)")  # fmt: skip
    p.add_argument("--out", default=None,
                   help="run folder (default runs/<suite>/<agent>); rerun to resume")  # fmt: skip
    p.add_argument("--workers", type=int, default=1,
                   help="workers playing episodes in parallel (default 1)")  # fmt: skip
    p.add_argument("--backend", choices=("processes", "ray"), default="processes",
                   help="processes: workers spawned here (default); ray: Ray actors, here or "
                   "on a cluster (needs the ray extra)")  # fmt: skip
    p.add_argument("--ray-address", default=None,
                   help="with --backend ray: the cluster to join (e.g. auto or "
                   "ray://head:10001); default a running Ray, else a local one")  # fmt: skip
    p.add_argument("--episode-timeout", type=float, default=600.0,
                   help="seconds before an episode counts as timed out (default 600)")  # fmt: skip
    p.add_argument("--batch-size", type=int, default=1, metavar="B",
                   help="episodes each worker plays at once in lock-step, one batched model "
                   "call per turn (hf:MODEL and run:PATH agents: one left-padded generate for "
                   "all; greedy play makes the same moves as B=1 in fp32, and almost always in "
                   "bf16, whose padded batches round differently: play a bf16 agent you will "
                   "submit at 1; openai:MODEL agents: the "
                   "turn's requests sent concurrently, so B bounds a worker's requests in "
                   "flight); a finished episode's slot takes the next one. Agents without "
                   "batch support (random, oracle, webshop-rule, custom agents without "
                   "act_batch) play one episode at a time as with the default 1. Each "
                   "episode's --episode-timeout clock runs from its own start and includes "
                   "the turns it shares")  # fmt: skip
    p.add_argument("--env-url", default=None, metavar="URL",
                   help="play on envs served by agentgym serve at URL (e.g. "
                   "http://host:8000; a bearer token from $AGENTGYM_SERVE_TOKEN): the same "
                   "records and replay as envs made here; the suite is still resolved here. "
                   "The oracle agent needs a server started with --oracle")  # fmt: skip
    p.add_argument("--retry-errors", action="store_true",
                   help="play again the episodes a previous run recorded as errors")  # fmt: skip
    p.add_argument("--allow-changed-options", action="store_true",
                   help="resume a run folder with other --agent-option values than it was "
                   "started with (refused by default: the run would mix two settings; "
                   "run.json then keeps the earlier ones under agent.earlier_options)")  # fmt: skip
    p.set_defaults(func=cmd_bench_run)

    p = commands.add_parser("baselines", help="random vs oracle (or --agents) on a suite: a "
                            "run folder per agent and one table side by side")  # fmt: skip
    p.add_argument("--suite", default="quick", help="suite name or YAML path (default quick)")
    p.add_argument("--agents", nargs="+", default=["random", "oracle"],
                   help="agents to play it, as bench run's --agent (default random oracle)"
                   )  # fmt: skip
    p.add_argument("--env", action="append", default=None, metavar="ENV_ID",
                   help="run only this env id of the suite (repeatable)")  # fmt: skip
    p.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--out", default=None,
                   help="folder for the run folders and the table (default "
                   "runs/baselines/<suite>); rerun to resume")  # fmt: skip
    p.set_defaults(func=cmd_baselines)


def _reproduce(value: str) -> int | str:
    if value == "all":
        return value
    try:
        count = int(value)
    except ValueError:
        count = -1
    if count < 0:
        raise argparse.ArgumentTypeError(f"a count of episodes or 'all', got {value!r}")
    return count


def cmd_leaderboard_submit(args: argparse.Namespace) -> int:
    from agentgym_bench.leaderboard import submit

    accepted, message = submit(Path(args.run_dir), Path(args.to),
                               suite_file=Path(args.suite) if args.suite else None,
                               reproduce=args.reproduce, tag=args.tag,
                               strict_versions=args.strict_versions)  # fmt: skip
    print(message)
    return 0 if accepted else 1


def cmd_leaderboard_build(args: argparse.Namespace) -> int:
    from agentgym_bench.replay import verify_run
    from agentgym_bench.run_folder import SUITE_FILE
    from agentgym_bench.site import build_site
    from agentgym_bench.site.load import newest_revisions

    failed = []
    if args.replay:
        for folder in newest_revisions(Path(args.to) / "submissions"):
            print(f"replaying {folder.name}")
            own_suite = folder / SUITE_FILE  # a self-made suite's run keeps its suite
            check = verify_run(folder, reproduce=args.reproduce,
                               suite_file=own_suite if own_suite.is_file() else None)  # fmt: skip
            if not check.verified:
                failed.append(f"{folder.name}: {check.reasons[0]}")
    paths = build_site(Path(args.to))
    print(f"Wrote {paths['readme']} and {paths['html']}")
    for line in [*paths["skipped"], *failed]:
        print(f"not shown: {line}" if line in paths["skipped"] else f"replay failed: {line}")
    return 1 if failed else 0


def add_leaderboard_command(sub: Any) -> None:
    """Add ``leaderboard`` (``submit``, ``build``) to the ``agentgym`` subparsers ``sub``."""
    board = sub.add_parser("leaderboard", help="verify runs by replay and build the leaderboard")
    commands = board.add_subparsers(dest="leaderboard_command", required=True)
    p = commands.add_parser("submit", help="replay a run; if it verifies, add it to the board")
    p.add_argument("run_dir", help="a folder written by `agentgym bench run`")
    p.add_argument("--to", default="leaderboards", help="leaderboard folder (default leaderboards)")
    p.add_argument("--suite", default=None, metavar="FILE",
                   help="the YAML of a self-made suite the run played (never a published "
                   "suite's name; such runs go to a board of their own, not "
                   "leaderboards/)")  # fmt: skip
    p.add_argument("--reproduce", type=_reproduce, default=None, metavar="N|all",
                   help="also play N episodes (spread over the run) or all of them again with "
                   "the agent itself, for hf:MODEL and run:PATH agents with greedy decoding: "
                   "the row is then marked reproduced. random, oracle and webshop-rule are "
                   "always reproduced in full; openai: and custom agents can only be "
                   "replayed")  # fmt: skip
    p.add_argument("--tag", default="",
                   help="added to the submission id: needed when another agent's submission "
                   "(e.g. the same model with other options) already has the id")  # fmt: skip
    p.add_argument("--strict-versions", action="store_true",
                   help="refuse a run played on other env content versions than installed "
                   "here (by default the replay decides, and both versions are "
                   "recorded)")  # fmt: skip
    p.set_defaults(func=cmd_leaderboard_submit)
    p = commands.add_parser("build", help="rebuild README.md and index.html from submissions/ "
                            "(each submission checked again; one that fails is left out and "
                            "named)")  # fmt: skip
    p.add_argument("--to", default="leaderboards", help="leaderboard folder (default leaderboards)")
    p.add_argument("--replay", action="store_true",
                   help="also replay every submission in full (minutes per run; what CI does "
                   "for the committed board); exit 1 if any fails")  # fmt: skip
    p.add_argument("--reproduce", type=_reproduce, default=None, metavar="N|all",
                   help="with --replay: reproduce N (or all) episodes of hf:/run: "
                   "agents")  # fmt: skip
    p.set_defaults(func=cmd_leaderboard_build)


def cmd_inspect(args: argparse.Namespace) -> int:
    import time

    from agentgym_bench.run_folder import RUN_FILE
    from agentgym_bench.viewer import serve, write_page

    run_dir = Path(args.run_dir)
    if not (run_dir / RUN_FILE).exists():
        raise UsageError(
            f"{run_dir} has no {RUN_FILE}: pass a folder written by agentgym bench run"
        )
    page = write_page(run_dir)
    if args.no_serve:
        print(f"wrote {page} (open it in a browser; serve it to save ratings)")
        return 0
    server, url = serve(run_dir, args.port)
    print(f"reading {run_dir} at {url} (ratings go to {run_dir}/ratings.jsonl); Ctrl+C stops")
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.shutdown()
    return 0


def add_inspect_command(sub: Any) -> None:
    """Add ``inspect`` (a run's trajectory viewer with ratings) to the ``agentgym`` subparsers."""
    p = sub.add_parser("inspect", help="read a run's episodes step by step and rate them")
    p.add_argument("run_dir", help="a folder written by `agentgym bench run`")
    p.add_argument("--port", type=int, default=8765,
                   help="port on 127.0.0.1 to serve on (default 8765; 0: any free)")  # fmt: skip
    p.add_argument("--no-serve", action="store_true",
                   help="only write RUN_DIR/inspect.html (a file: no ratings)")  # fmt: skip
    p.set_defaults(func=cmd_inspect)


__all__ = [
    "add_bench_command",
    "add_inspect_command",
    "add_leaderboard_command",
    "cmd_baselines",
    "cmd_bench_run",
]
