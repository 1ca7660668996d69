"""Summaries of benchmark results: a Markdown leaderboard, JSON, and a bar plot."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from agentgym_bench.runner import EpisodeResult
from agentgym_envs.core.splits import DIFFICULTIES, SPLITS


def summarise(results: Sequence[EpisodeResult]) -> list[dict]:
    """One row per (env, difficulty, split, agent): episodes, mean score, success rate, length."""
    groups: dict[tuple, list[EpisodeResult]] = defaultdict(list)
    for r in results:
        groups[(r.env_id, r.difficulty, r.split, r.agent)].append(r)
    rows = []
    for (env_id, difficulty, split, agent), group in groups.items():
        n = len(group)
        steps = sum(r.length for r in group)
        rows.append(
            {
                "env_id": env_id,
                "difficulty": difficulty,
                "split": split,
                "agent": agent,
                "episodes": n,
                "score": sum(r.score for r in group) / n,
                "success_rate": sum(r.success for r in group) / n,
                "mean_length": steps / n,
                "invalid_rate": sum(r.invalid_actions for r in group) / max(steps, 1),
            }
        )
    return rows


def markdown(rows: Sequence[dict], skipped: dict[str, str] | None = None) -> str:
    lines = [
        "# AgentGym quick benchmark",
        "",
        "| env | difficulty | split | agent | episodes | score | success | mean length | invalid |",
        "|---|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['env_id']} | {r['difficulty']} | {r['split']} | {r['agent']} | {r['episodes']} "
            f"| {r['score']:.3f} | {r['success_rate']:.1%} | {r['mean_length']:.1f} "
            f"| {r['invalid_rate']:.1%} |"
        )
    if skipped:
        lines += ["", "Not run (dependencies missing):", ""]
        lines += [f"- {env_id}: {why}" for env_id, why in skipped.items()]
    return "\n".join(lines) + "\n"


def plot(rows: Sequence[dict], path: Path) -> Path | None:
    """A bar chart of success rate per cell and agent; None when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    cells = sorted({(r["env_id"], r["difficulty"], r["split"]) for r in rows}, key=_cell_order)
    agents = sorted({r["agent"] for r in rows})
    value = {
        (r["env_id"], r["difficulty"], r["split"], r["agent"]): r["success_rate"] for r in rows
    }
    width = 0.8 / max(len(agents), 1)
    fig, ax = plt.subplots(figsize=(max(6, 0.5 * len(cells) * len(agents)), 4))
    for i, agent in enumerate(agents):
        xs = [j + i * width for j in range(len(cells))]
        ax.bar(xs, [value.get((*c, agent), 0.0) for c in cells], width, label=agent)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(cells))])
    ax.set_xticklabels(
        [f"{e.split('/')[-1]}\n{d}/{s}" for e, d, s in cells], fontsize=7, rotation=30, ha="right"
    )
    ax.set_ylabel("success rate")
    ax.set_ylim(0, 1.05)
    ax.set_title("Success rate per env, difficulty/split and agent")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _cell_order(cell: tuple[str, str, str]) -> tuple:
    env_id, difficulty, split = cell
    return (env_id, DIFFICULTIES.index(difficulty), SPLITS.index(split))


def write_report(
    results: Sequence[EpisodeResult], out_dir: Path, skipped: dict[str, str] | None = None
) -> dict[str, Path]:
    """Write results.jsonl, summary.json, report.md and success.png into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = summarise(results)
    paths = {
        "results": out_dir / "results.jsonl",
        "summary": out_dir / "summary.json",
        "report": out_dir / "report.md",
    }
    paths["results"].write_text("".join(json.dumps(r.to_dict()) + "\n" for r in results))
    paths["summary"].write_text(json.dumps({"rows": rows, "skipped": skipped or {}}, indent=2))
    paths["report"].write_text(markdown(rows, skipped))
    image = plot(rows, out_dir / "success.png")
    if image is not None:
        paths["plot"] = image
    return paths
