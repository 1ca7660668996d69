"""Export a run as a plain Hugging Face model directory (LoRA merged, value head dropped) that
vLLM, TGI or ``from_pretrained`` can load without peft or this package."""

from __future__ import annotations

from pathlib import Path

import torch


def export_run(
    run_dir: str | Path, out_dir: str | Path, checkpoint: str | None = None, dtype: str = "auto"
) -> Path:
    """Merge the run's latest (or given) checkpoint into its base model and save it to
    ``out_dir``, in ``dtype``: 'auto' is the run's ``policy.dtype`` when it names one, else the
    base model's own dtype (a bf16 checkpoint stays bf16, not a 2x larger fp32 copy). Runs
    trained on a 4-bit or 8-bit base merge into the full-precision base."""
    from agentgym_train.checkpoint import latest_checkpoint, load_checkpoint
    from agentgym_train.config import load_config
    from agentgym_train.models import base_model_path
    from agentgym_train.policy import Policy

    run = Path(run_dir)
    config_path = run / "config.yaml"
    if not config_path.exists():
        raise FileNotFoundError(f"{config_path} not found: is {run} a training run directory?")
    config = load_config(config_path)
    path = Path(checkpoint) if checkpoint else latest_checkpoint(run)
    if path is None:
        raise FileNotFoundError(f"{run} has no checkpoint to export yet")
    base = base_model_path(config, run)
    target = export_dtype(dtype, config.policy.dtype, base)
    config.policy.load_in_bits = 0  # merge into full-precision weights
    config.policy.dtype = "float32"  # merge in fp32, then cast once
    policy = Policy.load(base, config.policy, torch.device("cpu"), False)
    load_checkpoint(path, policy, restore_rng=False)
    model = policy.model.merge_and_unload() if config.policy.lora else policy.model
    model = model.to(target)
    model.config.dtype = target
    if getattr(model.config, "quantization_config", None) is not None:
        del model.config.quantization_config  # the weights were dequantised (GGUF or k-bit)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    policy.tokenizer.save_pretrained(out)
    return out


def export_dtype(requested: str, trained: str, base: Path) -> torch.dtype:
    """See ``export_run``: an explicit request, else the run's dtype, else the base's."""
    import json

    from agentgym_train.policy import DTYPES

    for name in (requested, trained):
        if name in DTYPES:
            return DTYPES[name]
        if name != "auto":
            raise ValueError(f"dtype {name!r} is not one of auto, {', '.join(DTYPES)}")
    stored = json.loads((Path(base) / "config.json").read_text())
    stored = stored.get("dtype") or stored.get("torch_dtype") or "float32"
    return DTYPES.get(stored, torch.float32)
