"""Per-cell figures of a benchmark run, with 95% confidence intervals.

Success rates get Wilson score intervals (sound at 0%, 100% and small n, where the normal
approximation is not); mean scores a normal interval (mean +- 1.96 standard errors, clipped to
[0, 1]). An episode that errored counts as a failure with score 0 and is also counted apart.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable
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


def summarize(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (env id, difficulty, split), in first-seen order."""
    cells: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        cells[(record["env_id"], record["difficulty"], record["split"])].append(record)
    rows = []
    for (env_id, difficulty, split), group in cells.items():
        scores = [0.0 if r["error"] else float(r["score"]) for r in group]
        wins = sum(bool(r["success"]) and not r["error"] for r in group)
        ok = [r for r in group if not r["error"]]
        rows.append({
            "env_id": env_id, "difficulty": difficulty, "split": split,
            "episodes": len(group), "errors": len(group) - len(ok),
            "success_rate": wins / len(group),
            "success_ci": list(wilson_interval(wins, len(group))),
            "mean_score": statistics.fmean(scores), "score_ci": list(mean_interval(scores)),
            "mean_steps": statistics.fmean(r["length"] for r in ok) if ok else 0.0,
        })  # fmt: skip
    return rows


__all__ = ["mean_interval", "summarize", "wilson_interval"]
