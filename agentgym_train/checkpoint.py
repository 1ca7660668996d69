"""Checkpoints that resume exactly: trainable weights, optimizer, LR scheduler, RNG states and
the trainer's counters, one directory per update under ``RUN_DIR/checkpoints``.

``update_000012/`` holds ``trainable.pt`` (LoRA or full weights plus the value head),
``optimizer.pt``, ``scheduler.pt``, ``rng.pt`` and ``state.json``; LoRA runs also get a standard
PEFT ``adapter/`` directory for other tools. A checkpoint is written to a temporary name and
renamed, so a crash never leaves a half-written one that looks complete.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agentgym_train.sharding import shard_optimizer_state

PREFIX = "update_"
#: the LoRA adapter in a checkpoint (PEFT layout), and in an ``export.export_adapter`` folder
ADAPTER_DIR = "adapter"
COMPLETE = "state.json"


def checkpoint_dir(run_dir: str | Path) -> Path:
    return Path(run_dir) / "checkpoints"


def list_checkpoints(run_dir: str | Path) -> list[Path]:
    """Complete checkpoints, oldest first."""
    root = checkpoint_dir(run_dir)
    if not root.exists():
        return []
    found = [p for p in root.glob(f"{PREFIX}*") if (p / COMPLETE).exists() and p.is_dir()]
    return sorted(found, key=lambda p: int(p.name.removeprefix(PREFIX)))


def latest_checkpoint(run_dir: str | Path) -> Path | None:
    found = list_checkpoints(run_dir)
    return found[-1] if found else None


#: what names one of a run's checkpoints (a ``run:`` agent's checkpoint=, export's --checkpoint)
CHECKPOINT_CHOICES = "latest, best, an update number or a checkpoint folder"


def resolve_checkpoint(run: str | Path, checkpoint: str | int = "latest") -> Path:
    """The checkpoint folder ``checkpoint`` names in the run directory ``run``: "latest", "best"
    (the best evaluation so far), an update number or a folder (``CHECKPOINT_CHOICES``)."""
    run = Path(run)
    found = [p.name for p in list_checkpoints(run)]
    have = f"(it has {', '.join(found)})" if found else "(it has none yet)"
    choice = str(checkpoint)
    if choice in ("latest", "best"):
        latest = latest_checkpoint(run)
        if latest is None:
            raise ValueError(
                f"{run} has no complete checkpoint {have}: train first, or name a checkpoint "
                "folder (one holding state.json)"
            )
        if choice == "latest":
            return latest
        best = json.loads((latest / COMPLETE).read_text()).get("best_update")
        if best is None:
            raise ValueError(
                f"{run} recorded no best checkpoint (it evaluates only with "
                f"evaluation.every > 0); name latest or a checkpoint folder {have}"
            )
        path = checkpoint_dir(run) / f"{PREFIX}{int(best):06d}"
    elif choice.isdigit():
        path = checkpoint_dir(run) / f"{PREFIX}{int(choice):06d}"
    else:
        path = Path(choice)
        if not path.is_absolute() and not path.exists():
            path = checkpoint_dir(run) / choice
    if not (path / COMPLETE).exists():
        raise ValueError(
            f"{run}: checkpoint {checkpoint!r} ({path}) is not a complete checkpoint {have}; "
            f"name {CHECKPOINT_CHOICES}"
        )
    return path


def rng_state() -> dict[str, Any]:
    state = {
        "python": random.getstate(),
        "numpy": np.random.get_state(),
        "torch": torch.get_rng_state(),
    }
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def set_rng_state(state: dict[str, Any]) -> None:
    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["torch"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


def save_checkpoint(
    run_dir: str | Path,
    update: int,
    policy,
    optimizer: torch.optim.Optimizer,
    scheduler,
    state: dict[str, Any],
    keep: int = 3,
    protect: tuple[int, ...] = (),
    extra: dict[str, Any] | None = None,
    weights: dict[str, torch.Tensor] | None = None,
    optimizer_state: dict[str, Any] | None = None,
) -> Path:
    """Write the checkpoint of ``update``; prune to the newest ``keep`` plus ``protect``.

    ``extra`` maps file names to objects saved with ``torch.save`` inside the same atomic
    directory (e.g. every rank's RNG states in a data-parallel run). ``weights`` and
    ``optimizer_state`` replace the policy's trainable tensors and the optimizer's state dict
    (a sharded run passes them assembled from every rank's shard).
    """
    weights = policy.trainable_state(copy=False) if weights is None else weights
    optimizer_state = optimizer.state_dict() if optimizer_state is None else optimizer_state
    root = checkpoint_dir(run_dir)
    root.mkdir(parents=True, exist_ok=True)
    final = root / f"{PREFIX}{update:06d}"
    tmp = root / f".tmp_{PREFIX}{update:06d}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    torch.save(weights, tmp / "trainable.pt")
    torch.save(optimizer_state, tmp / "optimizer.pt")
    torch.save(scheduler.state_dict(), tmp / "scheduler.pt")
    torch.save(rng_state(), tmp / "rng.pt")
    for name, value in (extra or {}).items():
        torch.save(value, tmp / name)
    if policy.config.lora:  # from ``weights``: a sharded model's own state dict holds shards
        lm = {n.removeprefix("model."): t for n, t in weights.items() if n.startswith("model.")}
        policy.model.save_pretrained(tmp / ADAPTER_DIR, state_dict=lm)
    (tmp / COMPLETE).write_text(json.dumps({**state, "update": update}, indent=1))
    shutil.rmtree(final, ignore_errors=True)
    tmp.rename(final)
    prune(run_dir, keep, protect)
    return final


def prune(run_dir: str | Path, keep: int, protect: tuple[int, ...] = ()) -> None:
    found = list_checkpoints(run_dir)
    keep_names = {p.name for p in found[-keep:]} if keep > 0 else set()
    keep_names |= {f"{PREFIX}{u:06d}" for u in protect}
    for path in found:
        if path.name not in keep_names:
            shutil.rmtree(path, ignore_errors=True)


def upgrade_scheduler_state(state: dict[str, Any]) -> dict[str, Any]:
    """A scheduler state saved before the schedule came from transformers (December 2026: its
    own multiplier object, one step behind, the rollback scale inside it) in today's form."""
    lambdas = state.get("lr_lambdas") or [None]
    old = lambdas[0]
    if not (isinstance(old, dict) and "scale" in old):
        return state
    return {
        **state,
        "lr_lambdas": [None] * len(lambdas),
        "last_epoch": state["last_epoch"] + 1,
        "base_lrs": [base * old["scale"] for base in state["base_lrs"]],
    }


def load_checkpoint(
    path: str | Path, policy, optimizer=None, scheduler=None, restore_rng: bool = True
) -> dict[str, Any]:
    """Restore what ``save_checkpoint`` wrote; return the trainer state."""
    path = Path(path)
    if not (path / COMPLETE).exists():
        raise FileNotFoundError(f"{path} is not a complete checkpoint (no {COMPLETE})")
    device = policy.device
    policy.load_trainable_state(torch.load(path / "trainable.pt", map_location=device))
    if optimizer is not None:
        state = torch.load(path / "optimizer.pt", map_location=device)
        optimizer.load_state_dict(shard_optimizer_state(state, optimizer))
    if scheduler is not None:
        state = torch.load(path / "scheduler.pt", weights_only=False)
        scheduler.load_state_dict(upgrade_scheduler_state(state))
    if restore_rng:
        set_rng_state(torch.load(path / "rng.pt", weights_only=False))
    return json.loads((path / COMPLETE).read_text())


__all__ = [
    "checkpoint_dir",
    "latest_checkpoint",
    "list_checkpoints",
    "load_checkpoint",
    "prune",
    "save_checkpoint",
    "upgrade_scheduler_state",
]
