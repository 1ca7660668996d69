"""``agentgym bench``: the built-in agents on the installed envs, written up as a report.

Added to the ``agentgym`` command through the ``agentgym.commands`` entry point, so the env
package never imports the benchmark code.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from agentgym_envs.cli import UsageError
from agentgym_envs.core.splits import DIFFICULTIES, SPLITS
from agentgym_envs.registration import entry_for


def cmd_bench(args: argparse.Namespace) -> int:
    from agentgym_bench.report import write_report
    from agentgym_bench.runner import installed_env_ids, run_benchmark
    from agentgym_envs.agents import make_agent

    for agent in args.agents:  # fail now, not after the progress bar started
        make_agent(agent)
    if args.episodes < 1:
        raise UsageError(f"--episodes must be at least 1, got {args.episodes}")
    if args.envs:
        entries = [entry_for(env_id) for env_id in args.envs]
        skipped = {
            e.id: f"missing {', '.join(e.missing())} ({e.install_hint()})"
            for e in entries
            if e.missing()
        }
        env_ids = [e.id for e in entries if e.id not in skipped]
    else:
        env_ids, skipped = installed_env_ids()
    for env_id, why in skipped.items():
        print(f"skipping {env_id}: {why}")
    cells = [
        (env_id, d)
        for env_id in env_ids
        for d in args.difficulties
        if d in entry_for(env_id).difficulties
    ]
    if not cells:
        raise UsageError("nothing to run: no installed env takes the chosen --difficulties")
    results = run_benchmark(cells, args.agents, args.splits, args.episodes, seed=args.seed)
    paths = write_report(results, Path(args.out), skipped)
    print(paths["report"].read_text())
    print("Wrote " + ", ".join(str(p) for p in paths.values()))
    return 0


def add_bench_command(sub: Any) -> None:
    """Add ``bench`` to the ``agentgym`` subparsers ``sub``."""
    p = sub.add_parser("bench", help="benchmark the built-in agents and write a leaderboard report")
    p.add_argument(
        "--envs", nargs="*", default=None, help="env ids (default: one id per installed env family)"
    )
    p.add_argument(
        "--agents", nargs="+", default=["random", "oracle"], help="built-in agents (random, oracle)"
    )
    p.add_argument(
        "--difficulties",
        nargs="+",
        default=list(DIFFICULTIES),
        choices=DIFFICULTIES,
        help="difficulties to run; an id that cannot take one skips it",
    )
    p.add_argument(
        "--splits",
        nargs="+",
        default=["test", "ood", "adversarial"],
        choices=SPLITS,
        help="splits to run (default: test ood adversarial)",
    )
    p.add_argument(
        "--episodes",
        type=int,
        default=20,
        help="episodes per env/difficulty/split/agent (default: 20)",
    )
    p.add_argument("--seed", type=int, default=0, help="first episode seed (then +1 each)")
    p.add_argument(
        "--out",
        default="runs/quick-bench",
        help="folder for the report files (default: runs/quick-bench)",
    )
    p.set_defaults(func=cmd_bench)


__all__ = ["add_bench_command", "cmd_bench"]
