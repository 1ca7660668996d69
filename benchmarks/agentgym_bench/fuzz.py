"""Fuzz an env's ``step`` with hostile text: ``python -m agentgym_bench.fuzz AgentGym/Toy-v0``.

The contract says ``step`` never raises on agent text and every observation stays in its space.
This plays seeded episodes and feeds, instead of sensible actions, a mix of: unicode and emoji,
lone surrogates, control characters, 100k-character strings, JSON, non-strings (None, numbers,
bytes, lists), and admissible actions mutated (cut, doubled, case-flipped, ids changed), plus,
where the env has a ``type`` action, ``type [id] "<long text>"``. It reports how many steps
raised, left the observation space or missed an info key, and the slowest step.
"""

from __future__ import annotations

import argparse
import json
import random
import string
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

import agentgym_envs  # noqa: F401 - registers the ids
from agentgym_envs.core import INFO_KEYS

KINDS = ("unicode", "surrogate", "control", "huge", "json", "non_string", "mutated", "long_type")


def hostile_action(kind: str, rng: random.Random, admissible: list[str]) -> Any:
    """One action of ``kind`` (see the module docstring)."""
    if kind == "unicode":
        return "".join(rng.choice("ünïcødé 💥 漢字 עברית ــ \u200b\u202e") for _ in range(40))
    if kind == "surrogate":
        return "click [" + chr(rng.randrange(0xD800, 0xE000)) + "]"
    if kind == "control":
        return "".join(chr(rng.randrange(0, 32)) for _ in range(30)) + "look"
    if kind == "huge":
        return rng.choice(string.ascii_letters) * 100_000
    if kind == "json":
        return json.dumps({"action": rng.choice(admissible or ["noop"]), "args": [1, None]})
    if kind == "non_string":
        return rng.choice([None, 123, 4.5, b"\xff\xfebytes", ["a", "list"], {"a": 1}, True])
    if kind == "long_type":
        return 'type [1] "' + "x" * rng.choice([1_000, 10_000, 100_000]) + '"'
    action = rng.choice(admissible) if admissible else "look"
    mutation = rng.randrange(5)
    if mutation == 0:
        return action[: rng.randrange(len(action) + 1)]
    if mutation == 1:
        return action + " " + action
    if mutation == 2:
        return action.swapcase()
    if mutation == 3:
        return "".join(str(rng.randrange(10_000)) if c.isdigit() else c for c in action)
    return action.replace("[", "(", 1)


@dataclass
class FuzzReport:
    env_id: str
    steps: int = 0
    raised: Counter = field(default_factory=Counter)
    outside_space: int = 0
    missing_info: int = 0
    slowest_s: float = 0.0
    slowest_kind: str = ""
    seconds: float = 0.0
    kinds: Counter = field(default_factory=Counter)

    def ok(self) -> bool:
        return not self.raised and not self.outside_space and not self.missing_info

    def summary(self) -> str:
        faults = ", ".join(f"{k}: {v}" for k, v in self.raised.items()) or "none"
        return (
            f"{self.env_id}: {self.steps} hostile actions in {self.seconds:.0f} s; raised: "
            f"{faults}; outside the observation space: {self.outside_space}; missing info "
            f"keys: {self.missing_info}; slowest step {self.slowest_s:.2f} s ({self.slowest_kind})"
        )


def fuzz(env_id: str, actions: int, seed: int = 0, progress: bool = True) -> FuzzReport:
    """Feed ``actions`` hostile actions to ``env_id`` (resetting whenever an episode ends)."""
    from tqdm.auto import tqdm

    rng = random.Random(seed)
    env = gym.make(env_id)
    grammar = getattr(env.unwrapped, "action_help", "")
    kinds = [k for k in KINDS if k != "long_type" or "type [" in grammar]
    report = FuzzReport(env_id)
    started = time.perf_counter()
    try:
        _, info = env.reset(seed=seed)
        episode = 0
        for _ in tqdm(range(actions), desc=f"fuzz {env_id}", disable=not progress):
            kind = rng.choice(kinds)
            action = hostile_action(kind, rng, list(info.get("admissible_actions", [])))
            report.kinds[kind] += 1
            began = time.perf_counter()
            try:  # its own loop, not LiveEpisode's: a step that raises is the finding to count
                observation, _, terminated, truncated, info = env.step(action)
            except Exception as error:  # the finding: step must not raise on agent text
                report.raised[f"{type(error).__name__} on {kind}"] += 1
                terminated, truncated = True, False
            else:
                report.outside_space += not env.observation_space.contains(observation)
                report.missing_info += any(key not in info for key in INFO_KEYS)
            elapsed = time.perf_counter() - began
            if elapsed > report.slowest_s:
                report.slowest_s, report.slowest_kind = elapsed, kind
            report.steps += 1
            if terminated or truncated:
                episode += 1
                _, info = env.reset(seed=seed + episode)
    finally:
        env.close()
    report.seconds = time.perf_counter() - started
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agentgym_bench.fuzz", description=__doc__)
    parser.add_argument("env_ids", nargs="+", help="registered ids, e.g. AgentGym/Toy-v0")
    parser.add_argument("--actions", type=int, default=10_000, help="hostile actions per env")
    parser.add_argument("--seed", type=int, default=0, help="seed of the actions and episodes")
    args = parser.parse_args(argv)
    failed = 0
    for env_id in args.env_ids:
        report = fuzz(env_id, args.actions, args.seed)
        failed += not report.ok()
        print(("PASS " if report.ok() else "FAIL ") + report.summary(), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
