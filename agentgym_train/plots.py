"""Learning-curve PNGs from a run's ``metrics.jsonl`` (``agentgym-train plot RUN_DIR``), or one
metric of several runs side by side (``agentgym-train plot RUN_DIR RUN_DIR ... --out DIR``)."""

from __future__ import annotations

from pathlib import Path

#: (file name, title, metric keys) of each figure; missing keys are skipped.
FIGURES = (
    ("success.png", "Success rate", ("train/success_rate", "eval/valid/success_rate",
                                      "eval/ood/success_rate", "bc/success_before",
                                      "bc/success_after")),
    ("score.png", "Mean score (env score at episode end)", ("train/score", "eval/valid/score",
                                                           "eval/ood/score")),
    ("return.png", "Return", ("train/return", "train/return_min", "train/return_max")),
    ("episode.png", "Episode", ("train/episode_length", "train/invalid_action_rate",
                                "train/action_diversity")),
    ("losses.png", "Losses", ("loss/policy_loss", "loss/value_loss", "loss/entropy",
                              "loss/kl_ref", "loss/clip_fraction")),
    ("throughput.png", "Tokens per second", ("perf/gen_tokens_per_s",
                                             "perf/train_tokens_per_s")),
)  # fmt: skip


#: what ``compare_runs`` draws by default: the curves a comparison of algorithms is read by
COMPARED = ("eval/valid/success_rate", "train/success_rate", "train/episode_length")


def _figure(path: Path, title: str, curves: list[tuple[str, list[dict], str]]) -> bool:
    """One PNG at ``path``: a line per ``(label, metrics rows, key)`` over the updates that
    logged ``key``; nothing is written (False) when no curve has a point."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    drawn = False
    for label, rows, key in curves:
        points = [(r["update"], r[key]) for r in rows if key in r]
        if points:
            xs, ys = zip(*points, strict=True)
            ax.plot(xs, ys, marker="o" if len(xs) < 30 else None, ms=3, label=label)
            drawn = True
    if drawn:
        ax.set_title(title)
        ax.set_xlabel("update")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(path, dpi=100)
    plt.close(fig)
    return drawn


def plot_run(run_dir: str | Path, out_dir: str | Path | None = None) -> list[Path]:
    """Write one PNG per figure with data; return their paths."""
    from agentgym_train.trainer import read_metrics

    rows = read_metrics(run_dir)
    out = Path(out_dir) if out_dir else Path(run_dir) / "plots"
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, title, keys in FIGURES:
        if _figure(out / name, title, [(key, rows, key) for key in keys]):
            written.append(out / name)
    return written


def compare_runs(
    run_dirs: list[str | Path],
    out_dir: str | Path,
    metrics: tuple[str, ...] = COMPARED,
    labels: list[str] | None = None,
) -> list[Path]:
    """One PNG per metric (``compare_<metric>.png``), a line per run (labelled by ``labels`` or
    the run folder's name); metrics no run logged are skipped. Returns the paths written."""
    from agentgym_train.trainer import read_metrics

    names = labels or [Path(d).name for d in run_dirs]
    if len(names) != len(run_dirs):
        raise ValueError(f"{len(names)} labels for {len(run_dirs)} runs")
    runs = [read_metrics(d) for d in run_dirs]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for metric in metrics:
        path = out / f"compare_{metric.replace('/', '_')}.png"
        curves = [(name, rows, metric) for name, rows in zip(names, runs, strict=True)]
        if _figure(path, metric, curves):
            written.append(path)
    return written
