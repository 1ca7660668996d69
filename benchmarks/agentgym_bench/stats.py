"""Per-cell figures of a benchmark run, with 95% confidence intervals.

Success rates get Wilson score intervals (sound at 0%, 100% and small n, where the normal
approximation is not); mean scores a normal interval (mean +- 1.96 standard errors, clipped to
[0, 1]). An episode that errored counts as a failure with score 0 that broke every rule of its
env, and is also counted apart (``errors``).
"""

from __future__ import annotations

import json
import math
import statistics
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

Z95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: list[float], z: float = Z95) -> tuple[float, float]:
    """mean +- z standard errors, clipped to [0, 1] (one value: the whole range)."""
    if len(values) < 2:
        return (0.0, 1.0)
    mean = statistics.fmean(values)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return (max(0.0, mean - half), min(1.0, mean + half))


def action_rates(records: list[dict[str, Any]]) -> dict[str, float | None]:
    """Over every step of ``records``: the share of actions the env refused (an action error),
    and the share that were in the env's admissible list at that step (steps where the env
    lists none, and records from before steps said, do not count; open-ended actions such as
    typed text or a free search are not listed, so they count as outside)."""
    steps = [s for r in records for s in (r.get("trajectory") or {}).get("steps", [])]
    listed = [s["admissible"] for s in steps if s.get("admissible") is not None]
    return {
        "invalid_action_rate": (sum(s["action_error"] is not None for s in steps) / len(steps)
                                if steps else None),
        "admissible_rate": sum(listed) / len(listed) if listed else None,
    }  # fmt: skip


def rule_rates(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Over the ``records`` checked against their env's rules (``rule_violations``: rule name ->
    broken?): how many, the share that broke any rule, and each rule's share. An errored
    episode of an env with rules counts as having broken every rule (an error must never hide
    a violation). Empty when none was checked (an env without rules, runs from before the
    checks)."""
    from agentgym_bench.rules import rules_for

    checked = [r["rule_violations"] if not r.get("error")
               else dict.fromkeys(rules_for(r["env_id"]), True)
               for r in records if r.get("rule_violations") is not None
               or (r.get("error") and rules_for(r["env_id"]))]  # fmt: skip
    if not checked:
        return {}
    names = sorted({name for flags in checked for name in flags})
    return {
        "rule_episodes": len(checked),
        "rule_violation_rate": sum(any(flags.values()) for flags in checked) / len(checked),
        "rule_violation_rates": {
            name: sum(bool(flags.get(name)) for flags in checked) / len(checked) for name in names
        },
    }


def summarize(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (env id, difficulty, split) and, in a suite with variants, per variant (the
    row's ``variant``), in first-seen order."""
    cells: dict[tuple[str, str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        cell = (record["env_id"], record["difficulty"], record["split"], record.get("variant", ""))
        cells[cell].append(record)
    rows = []
    for (env_id, difficulty, split, variant), group in cells.items():
        scores = [0.0 if r["error"] else float(r["score"]) for r in group]
        wins = sum(bool(r["success"]) and not r["error"] for r in group)
        ok = [r for r in group if not r["error"]]
        rows.append({
            "env_id": env_id, "difficulty": difficulty, "split": split,
            **({"variant": variant} if variant else {}),
            "episodes": len(group), "errors": len(group) - len(ok),
            "success_rate": wins / len(group),
            "success_ci": list(wilson_interval(wins, len(group))),
            "mean_score": statistics.fmean(scores), "score_ci": list(mean_interval(scores)),
            "mean_steps": statistics.fmean(r["length"] for r in ok) if ok else 0.0,
            **action_rates(ok),
            **rule_rates(group),
        })  # fmt: skip
    return rows


#: Where ``agentgym inspect`` saves people's ratings of a run's episodes, and what they rate.
RATINGS_FILE = "ratings.jsonl"
DIMENSIONS = ("completion", "efficiency", "naturalness", "safety")


def read_ratings(run_dir: Path) -> dict[str, dict[str, Any]]:
    """Episode key -> its newest rating."""
    path = run_dir / RATINGS_FILE
    ratings: dict[str, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rating = json.loads(line)
                ratings[rating["key"]] = rating
    return ratings


def ratings_summary(run_dir: Path) -> dict[str, Any] | None:
    """Rated episodes and the mean of each dimension (None without ratings)."""
    ratings = list(read_ratings(run_dir).values())
    if not ratings:
        return None
    means = {d: sum(r[d] for r in ratings) / len(ratings) for d in DIMENSIONS}
    return {"rated_episodes": len(ratings), **means}


__all__ = [
    "DIMENSIONS",
    "RATINGS_FILE",
    "mean_interval",
    "ratings_summary",
    "read_ratings",
    "rule_rates",
    "summarize",
    "wilson_interval",
]
