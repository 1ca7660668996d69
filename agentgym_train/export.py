"""Export a run as a plain Hugging Face model directory (LoRA merged, value head dropped) that
vLLM, TGI or ``from_pretrained`` can load without peft or this package."""

from __future__ import annotations

from pathlib import Path

import torch


def export_run(run_dir: str | Path, out_dir: str | Path, checkpoint: str | None = None) -> Path:
    from agentgym_train.checkpoint import latest_checkpoint, load_checkpoint
    from agentgym_train.config import load_config
    from agentgym_train.policy import Policy
    from agentgym_train.trainer import base_model_path

    run = Path(run_dir)
    config_path = run / "config.yaml"
    if not config_path.exists():
        raise FileNotFoundError(f"{config_path} not found: is {run} a training run directory?")
    config = load_config(config_path)
    path = Path(checkpoint) if checkpoint else latest_checkpoint(run)
    if path is None:
        raise FileNotFoundError(f"{run} has no checkpoint to export yet")
    config.policy.load_in_bits = 0  # merge into full-precision weights
    policy = Policy.load(base_model_path(config, run), config.policy, torch.device("cpu"), False)
    load_checkpoint(path, policy, restore_rng=False)
    model = policy.model.merge_and_unload() if config.policy.lora else policy.model
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    policy.tokenizer.save_pretrained(out)
    return out
