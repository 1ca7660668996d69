"""The ``agentgym`` command: list the envs, play one yourself, check them all, run the benchmark."""

from __future__ import annotations

import argparse
import contextlib
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

import agentgym_envs
from agentgym_envs.core.splits import DIFFICULTIES, SPLITS
from agentgym_envs.registration import entry_for

PLAY_HELP = """Type an action and press Enter. Special commands:
  :help         this text            :actions   the admissible actions
  :hint         the oracle's action  :reset     start a new episode
  :quit         leave (Ctrl-D too)"""


def cmd_list(args: argparse.Namespace) -> int:
    width = max(len(e.id) for e in agentgym_envs.ENTRIES)
    for entry in agentgym_envs.ENTRIES:
        missing = entry.missing()
        state = "ready" if not missing else f"needs {entry.install_hint()}"
        print(f"{entry.id:<{width}}  {state:<28}  {entry.summary}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    import gymnasium as gym

    with contextlib.suppress(ImportError):
        import readline  # noqa: F401  (line editing and history for input())
    entry = entry_for(args.env_id)
    if entry.missing():
        print(f"{entry.id} needs {', '.join(entry.missing())}: {entry.install_hint()}")
        return 2
    env = gym.make(args.env_id, difficulty=args.difficulty, split=args.split)
    options = {"task_id": args.task_id} if args.task_id else None
    seed = args.seed
    observation, info = env.reset(seed=seed, options=options)
    print(PLAY_HELP + "\n")
    print(observation)
    total = 0.0
    try:
        while True:
            try:
                line = input("> ").strip()
            except EOFError:
                break
            if line in (":quit", ":q"):
                break
            if line == ":help":
                print(PLAY_HELP)
            elif line == ":actions":
                print("\n".join(info["admissible_actions"]) or "(none)")
            elif line == ":hint":
                print(info["expert_action"] or "(no hint)")
            elif line == ":reset":
                seed = None if seed is None else seed + 1
                observation, info = env.reset(seed=seed)
                total = 0.0
                print(observation)
            elif line:
                observation, reward, terminated, truncated, info = env.step(line)
                total += reward
                print(observation)
                if terminated or truncated:
                    outcome = "success" if info["success"] else "failure"
                    ended = "truncated (step limit)" if truncated else outcome
                    print(f"\n[episode over: {ended}, score {info['score']:.3f}] :reset or :quit")
    finally:
        env.close()
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env

    ids = args.env_ids or [e.id for e in agentgym_envs.ENTRIES]
    failed = 0
    for env_id in ids:
        entry = entry_for(env_id)
        if entry.missing():
            print(f"SKIP {env_id}: needs {', '.join(entry.missing())} ({entry.install_hint()})")
            continue
        env = gym.make(env_id)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                check_env(env.unwrapped, skip_render_check=True)
            notes = [str(w.message) for w in caught]
            print(f"PASS {env_id}" + (f" ({len(notes)} warning(s))" if notes else ""))
            for note in notes:
                print(f"     warning: {note}")
        except Exception as exc:  # report every env, then fail
            failed += 1
            print(f"FAIL {env_id}: {type(exc).__name__}: {exc}")
        finally:
            env.close()
    return 1 if failed else 0


def cmd_bench(args: argparse.Namespace) -> int:
    from agentgym_bench.report import write_report
    from agentgym_bench.runner import installed_env_ids, run_benchmark

    env_ids, skipped = installed_env_ids()
    if args.envs:
        env_ids = [e for e in args.envs if e not in skipped]
        skipped = {e: why for e, why in skipped.items() if e in args.envs}
    for env_id, why in skipped.items():
        print(f"skipping {env_id}: {why}")
    results = run_benchmark(
        env_ids, args.agents, args.difficulties, args.splits, args.episodes, seed=args.seed
    )
    paths = write_report(results, Path(args.out), skipped)
    print(paths["report"].read_text())
    print("Wrote " + ", ".join(str(p) for p in paths.values()))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentgym", description="AgentGym: text environments for LLM agents."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("list", help="list the registered env ids and whether they are installed")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("play", help="play an env yourself in the terminal")
    p.add_argument("env_id", help="a registered id, e.g. AgentGym/Toy-v0 (see `agentgym list`)")
    p.add_argument("--difficulty", default="easy", choices=DIFFICULTIES, help="task difficulty")
    p.add_argument("--split", default="train", choices=SPLITS, help="task split")
    p.add_argument("--seed", type=int, default=None, help="seed of the first episode")
    p.add_argument("--task-id", default=None, help="play this task id instead of a random one")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("check", help="run Gymnasium's check_env over the registered envs")
    p.add_argument("env_ids", nargs="*", help="ids to check (default: all registered)")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("bench", help="benchmark the built-in agents and write a leaderboard report")
    p.add_argument("--envs", nargs="*", default=None, help="env ids (default: every installed env)")
    p.add_argument("--agents", nargs="+", default=["random", "oracle"], help="built-in agents")
    p.add_argument("--difficulties", nargs="+", default=list(DIFFICULTIES), choices=DIFFICULTIES)
    p.add_argument("--splits", nargs="+", default=["test", "ood", "adversarial"], choices=SPLITS)
    p.add_argument(
        "--episodes", type=int, default=20, help="episodes per env/difficulty/split/agent"
    )
    p.add_argument("--seed", type=int, default=0, help="first episode seed (then +1 each)")
    p.add_argument("--out", default="runs/quick-bench", help="folder for the report files")
    p.set_defaults(func=cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except ValueError as exc:
        print(f"agentgym: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
