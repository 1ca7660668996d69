"""Per-update metrics: what the episodes say (success, score, length, rewards, actions) and
where they go (``metrics.jsonl`` always, TensorBoard by default, Weights & Biases optionally)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agentgym_train.config import LoggingConfig


def episode_metrics(episodes: Sequence, prefix: str = "") -> dict[str, float]:
    """Success rate, mean score, length, returns, invalid-action rate and action diversity."""
    if not episodes:
        return {}
    actions = [s.action for e in episodes for s in e.steps]
    returns = np.array([e.shaped_return for e in episodes])
    out = {
        "success_rate": float(np.mean([e.success for e in episodes])),
        "score": float(np.mean([e.score for e in episodes])),
        "episode_length": float(np.mean([len(e.steps) for e in episodes])),
        "return": float(returns.mean()),
        "return_std": float(returns.std()),
        "return_min": float(returns.min()),
        "return_max": float(returns.max()),
        "env_return": float(np.mean([e.env_return for e in episodes])),
        "invalid_action_rate": float(np.mean([s.invalid for e in episodes for s in e.steps]))
        if actions
        else 0.0,
        "action_diversity": len(set(actions)) / len(actions) if actions else 0.0,
        "episodes": float(len(episodes)),
    }
    return {prefix + k: v for k, v in out.items()}


def light_episodes(episodes: Sequence) -> list:
    """Copies of episodes with only what ``episode_metrics`` reads (no token ids, no history):
    cheap to send between processes."""
    out = []
    for episode in episodes:
        empty: dict[str, list] = {"prompt_ids": [], "completion_ids": [], "token_logprobs": []}
        steps = [
            dataclasses.replace(s, candidates=None, ref_logprobs=None, **empty)
            for s in episode.steps
        ]
        out.append(dataclasses.replace(episode, steps=steps, history=[]))
    return out


class MetricsLogger:
    """Writes one JSON line per ``log`` call and mirrors scalars to TensorBoard / W&B.

    ``active=False`` (every rank but the main one of a data-parallel run) makes it write nothing.
    """

    def __init__(
        self, run_dir: Path, config: LoggingConfig, hparams: dict[str, Any], active: bool = True
    ) -> None:
        self.path = Path(run_dir) / "metrics.jsonl"
        self.events = Path(run_dir) / "events.jsonl"
        self.active = active
        self.writer = None
        self.wandb = None
        if not active:
            return
        if config.tensorboard:
            from torch.utils.tensorboard import SummaryWriter

            self.writer = SummaryWriter(str(Path(run_dir) / "tensorboard"))
        if config.wandb:
            try:
                import wandb
            except ImportError as exc:
                raise ImportError("logging.wandb=true needs `pip install wandb`") from exc
            self.wandb = wandb.init(project=config.wandb_project, config=hparams, dir=run_dir)

    def log(self, update: int, metrics: dict[str, float], returns: Sequence[float] = ()) -> None:
        if not self.active:
            return
        row = {"update": update, **{k: float(v) for k, v in metrics.items()}}
        with self.path.open("a", encoding="utf-8") as file:
            file.write(json.dumps(row) + "\n")
        if self.writer is not None:
            for key, value in metrics.items():
                self.writer.add_scalar(key, value, update)
            if len(returns):
                self.writer.add_histogram("train/return_distribution", np.asarray(returns), update)
            self.writer.flush()
        if self.wandb is not None:
            self.wandb.log(metrics, step=update)

    def event(self, update: int, kind: str, message: str) -> None:
        if not self.active:
            return
        with self.events.open("a", encoding="utf-8") as file:
            file.write(json.dumps({"update": update, "kind": kind, "message": message}) + "\n")
        if self.writer is not None:
            self.writer.add_text(kind, message, update)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
        if self.wandb is not None:
            self.wandb.finish()
            self.wandb = None
