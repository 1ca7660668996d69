"""The ``agentgym`` command: list the envs, play one yourself, check them; installed packages
add more subcommands through an entry point (``agentgym bench`` from the benchmark package).

Every argument (env ids, agents, difficulties) is validated before any env is made or any file
written; a mistake is one line on stderr with the closest valid names, exit code 2.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import re
import sys
import time
import warnings
from collections.abc import Sequence
from typing import Any

import agentgym_envs
from agentgym_envs.core.episode import LiveEpisode
from agentgym_envs.core.splits import DIFFICULTIES, SPLITS
from agentgym_envs.registration import EnvEntry, entry_for, env_class, one_per_family

PLAY_HELP = """Type an action and press Enter. Commands start with a colon:
  :help         this text            :actions   the admissible actions and every action form
  :hint         the oracle's action  :reset     start a new episode (the next seed)
  :quit         leave (Ctrl-D too)"""
PLAY_COMMANDS = (":help", ":actions", ":hint", ":reset", ":quit", ":q")


class UsageError(ValueError):
    """A command-line mistake: printed as one line, exit code 2."""


# ---------------------------------------------------------------------------------- arguments
def ready_entry(env_id: str) -> EnvEntry:
    """The entry for ``env_id``, installed; UsageError (with close matches / install hint)."""
    entry = entry_for(env_id)
    if entry.missing():
        raise UsageError(f"{env_id} needs {', '.join(entry.missing())}: {entry.install_hint()}")
    return entry


def pick_difficulty(entry: EnvEntry, difficulty: str | None) -> str:
    """``difficulty``, or the entry's first when None; UsageError if the id cannot take it."""
    return _pick(difficulty, entry.difficulties, f"{entry.id} is made at difficulty", "difficulty")


def pick_split(entry: EnvEntry, split: str | None) -> str:
    """``split``, or the entry's default when None; UsageError if the id does not serve it."""
    return _pick(split, entry.splits, f"{entry.id} serves split", "split")


def _pick(value: str | None, allowed: Sequence[str], what: str, option: str) -> str:
    if value is None:
        return allowed[0]
    if value not in allowed:
        raise UsageError(f"{what} {' or '.join(allowed)} only; drop --{option} or pass "
                         f"--{option} {allowed[0]}")  # fmt: skip
    return value


def parse_env_kwargs(pairs: Sequence[str]) -> dict[str, Any]:
    """``["observation_mode=text_rich", "expert=False"]`` -> kwargs; values are Python literals
    when they parse as one (numbers, True/False/None, quoted strings), plain strings otherwise."""
    kwargs: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip().isidentifier():
            raise UsageError(f"--env-kwarg takes KEY=VALUE, got {pair!r}")
        try:
            kwargs[key.strip()] = ast.literal_eval(raw)
        except (ValueError, SyntaxError):
            kwargs[key.strip()] = raw
    return kwargs


def make_env(entry: EnvEntry, difficulty: str, split: str, kwargs: dict[str, Any]) -> Any:
    """``gymnasium.make`` with a wrong keyword turned into a UsageError naming the env's own."""
    import gymnasium as gym

    try:
        return gym.make(entry.id, difficulty=difficulty, split=split, **kwargs)
    except TypeError as error:
        bad = re.search(r"unexpected keyword argument '(\w+)'", str(error))
        if bad is None:
            raise
        import inspect

        names = list(inspect.signature(env_class(entry.id)).parameters)
        raise UsageError(
            f"{entry.id} has no keyword {bad.group(1)!r}; it takes {', '.join(names)}"
        ) from None


# ------------------------------------------------------------------------------------ commands
def cmd_list(args: argparse.Namespace) -> int:
    width = max(len(e.id) for e in agentgym_envs.ENTRIES)
    for entry in agentgym_envs.ENTRIES:
        missing = entry.missing()
        state = "ready" if not missing else f"needs {entry.install_hint()}"
        print(f"{entry.id:<{width}}  {state:<28}  {entry.summary}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401  (line editing and history for input())
    entry = ready_entry(args.env_id)
    difficulty = pick_difficulty(entry, args.difficulty)
    split = pick_split(entry, args.split)
    env = make_env(entry, difficulty, split, parse_env_kwargs(args.env_kwarg))
    try:
        session = PlaySession(entry, env, args.seed)
        session.reset({"task_id": args.task_id} if args.task_id else None)
        print(PLAY_HELP + "\n")
        session.show_start()
        while True:
            try:
                line = input("> ").strip()
            except EOFError:
                break
            if line in (":quit", ":q"):
                break
            if line.startswith(":"):
                session.command(line)
            elif line:
                session.act(line)
    finally:
        env.close()
    return 0


class PlaySession:
    """One terminal player: the episode so far (a ``LiveEpisode``) and what to show."""

    def __init__(self, entry: EnvEntry, env: Any, seed: int | None) -> None:
        self.entry, self.env, self.seed = entry, env, seed

    def reset(self, options: dict[str, Any] | None = None) -> None:
        self.live = LiveEpisode(self.env, self.seed, options=options)

    def show_start(self) -> None:
        info = self.live.info
        print(f"[{self.entry.id}  task {info['task_id']}  {info['difficulty']}/{info['split']}  "
              f"limit {self.entry.max_episode_steps} steps]")  # fmt: skip
        print(self.live.observation)

    def command(self, line: str) -> None:
        if line == ":help":
            print(PLAY_HELP)
        elif line == ":actions":
            print("\n".join(self.live.info["admissible_actions"]) or "(none listed)")
            if forms := getattr(self.env.unwrapped, "action_help", ""):
                print(f"action forms: {forms}")
        elif line == ":hint":
            print(self.live.info["expert_action"] or "(no hint)")
        elif line == ":reset":
            self.seed = None if self.seed is None else self.seed + 1
            self.reset()
            self.show_start()
        else:
            print(f"unknown command {line!r}; the commands are {', '.join(PLAY_COMMANDS[:-1])}")

    def act(self, action: str) -> None:
        live = self.live
        if live.done:
            print("the episode is over: :reset starts a new one, :quit leaves")
            return
        live.apply(action)
        episode, info = live.trajectory, live.info
        step = episode.steps[-1]
        print(live.observation)
        print(f"[step {episode.length}/{self.entry.max_episode_steps}  "
              f"reward {step['reward']:+.3f}  return {episode.episode_return:.3f}]")  # fmt: skip
        if live.done:
            if step["terminated"]:
                ended = "success" if info["success"] else "failure"
            else:
                ended = f"truncated: {info.get('truncated_reason', 'step limit reached')}"
            print(f"[episode over: {ended}; score {info['score']:.3f}] :reset or :quit")


def check_targets(env_ids: Sequence[str], every_id: bool) -> list[tuple[EnvEntry, str]]:
    """(entry, difficulty) pairs to check: the given ids, else one id per env family (every id
    with ``every_id``), each at every difficulty it supports."""
    if env_ids:
        entries = [entry_for(env_id) for env_id in env_ids]
    else:
        entries = agentgym_envs.ENTRIES if every_id else one_per_family()
    return [(entry, difficulty) for entry in entries for difficulty in entry.difficulties]


def check_one(entry: EnvEntry, difficulty: str) -> str:
    """Gymnasium's ``check_env``, then one oracle episode (seed 0) that must succeed; returns a
    note on what was seen, raises on any fault."""
    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env

    split = "test" if "test" in entry.splits else entry.splits[0]
    env = gym.make(entry.id, difficulty=difficulty, split=split)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(env.unwrapped, skip_render_check=True)
        live = LiveEpisode(env, seed=0)
        while not live.done:  # the oracle plays until the end or it has no move (None)
            live.apply(live.info["expert_action"])
        info, steps = live.info, live.trajectory.length
        if steps == 0:
            notes = [f"no oracle for task {info['task_id']}"]
        elif not info["success"]:
            why = info.get("truncated_reason") or f"score {info['score']:.3f}"
            raise AssertionError(f"the oracle failed task {info['task_id']} ({why})")
        else:
            notes = [f"oracle succeeded in {steps} step{'s' * (steps != 1)}"]
        notes += [f"warning: {w.message}" for w in caught]
        return "; ".join(notes)
    finally:
        env.close()


def cmd_check(args: argparse.Namespace) -> int:
    targets = check_targets(args.env_ids, args.all)
    failed = skipped = 0
    started = time.perf_counter()
    for entry, difficulty in targets:
        label = f"{entry.id} {difficulty}"
        if entry.missing():
            skipped += 1
            print(f"SKIP {label}: needs {', '.join(entry.missing())} ({entry.install_hint()})")
            continue
        began = time.perf_counter()
        try:
            note = check_one(entry, difficulty)
            print(f"PASS {label} ({time.perf_counter() - began:.1f} s; {note})", flush=True)
        except Exception as exc:  # report every env, then fail
            failed += 1
            print(
                f"FAIL {label} ({time.perf_counter() - began:.1f} s): {type(exc).__name__}: {exc}",
                flush=True,
            )
    checked = len(targets) - skipped
    print(
        f"{checked - failed} of {checked} passed, {skipped} skipped, "
        f"{time.perf_counter() - started:.0f} s"
    )
    return 1 if failed else 0


# ---------------------------------------------------------------------------------- the parser
#: entry-point group of subcommands other packages add (``agentgym bench`` comes from
#: ``agentgym_bench``): each is a callable that adds its parser to the subparsers it is given
COMMANDS_GROUP = "agentgym.commands"


def add_plugin_commands(sub: Any) -> None:
    """Subcommands installed packages declare under ``COMMANDS_GROUP``, so this package never
    imports them (the benchmark code depends on the envs, not the other way round)."""
    from importlib.metadata import entry_points

    # the same declaration seen twice (an old egg-info beside the installed metadata) adds once
    points = {(p.name, p.value): p for p in entry_points(group=COMMANDS_GROUP)}
    for point in sorted(points.values(), key=lambda p: p.name):
        try:
            point.load()(sub)
        except Exception as exc:  # a broken plugin must not take the env commands down
            print(f"agentgym: command {point.name!r} unavailable: {exc}", file=sys.stderr)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentgym", description="AgentGym: text environments for LLM agents."
    )
    parser.add_argument(
        "--version", action="version", version=f"agentgym {agentgym_envs.__version__}"
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("list", help="list the registered env ids and whether they are installed")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("play", help="play an env yourself in the terminal")
    p.add_argument("env_id", help="a registered id, e.g. AgentGym/Toy-v0 (see `agentgym list`)")
    p.add_argument(
        "--difficulty",
        default=None,
        choices=DIFFICULTIES,
        help="task difficulty (default: easy, or the tier of a one-task MiniWoB id)",
    )
    p.add_argument(
        "--split",
        default=None,
        choices=SPLITS,
        help="task split (default: train, or ood for a held-out MiniWoB task's id)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed of the first episode; :reset plays the next (default: random)",
    )
    p.add_argument("--task-id", default=None, help="play this task id instead of a random one")
    p.add_argument(
        "--env-kwarg",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="extra keyword for gymnasium.make, repeatable; VALUE is a Python literal "
        "or a plain string (e.g. --env-kwarg expert=False)",
    )
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "check",
        help="check envs: Gymnasium's check_env plus one oracle episode per id and difficulty",
    )
    p.add_argument(
        "env_ids", nargs="*", help="ids to check (default: one id per env family; see --all)"
    )
    p.add_argument(
        "--all",
        action="store_true",
        help="check every registered id (each MiniWoB task too: several minutes)",
    )
    p.set_defaults(func=cmd_check)

    add_plugin_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except ValueError as exc:  # UsageError, unknown ids/agents, bad env kwargs
        print(f"agentgym: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
