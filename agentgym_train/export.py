"""Export a run: as a plain Hugging Face model directory (LoRA merged, value head dropped) that
vLLM, TGI or ``from_pretrained`` can load without peft or this package (``export_run``), or as
its LoRA adapter alone with the run's config (``export_adapter``): a few MB, small enough to
commit, which the benchmark's ``run:`` agent plays on the base model the config names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch

from agentgym_train.checkpoint import ADAPTER_DIR, COMPLETE, load_checkpoint, resolve_checkpoint


def export_run(
    run_dir: str | Path, out_dir: str | Path, checkpoint: str | int = "latest", dtype: str = "auto"
) -> Path:
    """Merge the run's checkpoint ``checkpoint`` (``resolve_checkpoint``: latest, best, an
    update number or a folder) into its base model and save it to ``out_dir``, in ``dtype``:
    'auto' is the run's ``policy.dtype`` when it names one, else the base model's own dtype (a
    bf16 checkpoint stays bf16, not a 2x larger fp32 copy). Runs trained on a 4-bit or 8-bit
    base merge into the full-precision base."""
    from agentgym_train.models import base_model_path
    from agentgym_train.policy import Policy

    run, config = _run_config(run_dir)
    path = resolve_checkpoint(run, checkpoint)
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


#: what ``export_adapter`` writes beside ``config.yaml`` and its ``ADAPTER_DIR`` (``run:`` agents
#: know the folder by it)
ADAPTER_MANIFEST = "agentgym_adapter.json"


def export_adapter(
    run_dir: str | Path,
    out_dir: str | Path,
    checkpoint: str | int = "latest",
    dtype: str = "bfloat16",
) -> Path:
    """Write the LoRA adapter of the run's checkpoint ``checkpoint`` (as in ``export_run``) to
    ``out_dir/adapter`` (PEFT's layout, weights cast to ``dtype``), the run's ``config.yaml``
    beside it, and ``agentgym_adapter.json`` naming the checkpoint it came from and its update.
    The value head is dropped (nothing needs it to act); a ``tiny`` run's base model (built per
    run) is copied along. A run trained without LoRA is refused: its weights are the whole
    model; use ``export_run``."""
    import json
    import shutil

    from safetensors.torch import load_file, save_file

    from agentgym_train.policy import DTYPES

    run, config = _run_config(run_dir)
    config_path = run / "config.yaml"
    if not config.policy.lora:
        raise ValueError(
            f"{run} trained the whole model (policy.lora=false): it has no adapter to export; "
            "use `agentgym-train export RUN --to DIR` for a merged model"
        )
    if dtype not in DTYPES:
        raise ValueError(f"dtype {dtype!r} is not one of {', '.join(DTYPES)}")
    path = resolve_checkpoint(run, checkpoint)
    source = path / ADAPTER_DIR
    if not (source / "adapter_config.json").exists():
        raise FileNotFoundError(f"{source} holds no PEFT adapter (adapter_config.json)")
    out = Path(out_dir)
    target = out / ADAPTER_DIR
    target.mkdir(parents=True, exist_ok=True)
    weights = load_file(source / "adapter_model.safetensors")  # PEFT's names, as trained
    cast = {name: tensor.to(DTYPES[dtype]).contiguous() for name, tensor in weights.items()}
    save_file(cast, target / "adapter_model.safetensors", metadata={"format": "pt"})
    shutil.copyfile(source / "adapter_config.json", target / "adapter_config.json")
    shutil.copyfile(config_path, out / "config.yaml")
    if config.policy.model == "tiny":  # built per run (RUN_DIR/base_model): it travels along
        shutil.copytree(run / "base_model", out / "base_model", dirs_exist_ok=True)
    state = json.loads((path / COMPLETE).read_text())
    manifest = {
        "checkpoint": path.name,
        "update": state.get("update"),
        "dtype": dtype,
        "base_model": config.policy.model,
        "lora_r": config.policy.lora_r,
        "best_eval": state.get("best_eval"),
        "best_update": state.get("best_update"),
    }
    (out / ADAPTER_MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    return out


def load_adapter(policy, adapter_dir: str | Path) -> None:
    """Load an exported adapter's weights into ``policy``'s LoRA layers (made with the same
    ``policy.*`` settings); a mismatch is a ValueError naming the first names that differ."""
    from peft import set_peft_model_state_dict
    from peft.utils import load_peft_weights

    weights = load_peft_weights(str(adapter_dir), device=str(policy.device))
    result: Any = set_peft_model_state_dict(policy.model, weights)  # (missing, unexpected)
    expected = {n for n, p in policy.model.named_parameters() if p.requires_grad}
    missing = sorted(n for n in result.missing_keys if n in expected)
    unexpected = sorted(result.unexpected_keys)
    if missing or unexpected:
        raise ValueError(
            f"{adapter_dir} does not match this policy (missing {missing[:3]}, unexpected "
            f"{unexpected[:3]}); was it exported from a run with the same policy.* settings?"
        )


def start_from_adapter(policy, folder: str | Path) -> None:
    """Load the adapter exported to ``folder`` (or a PEFT adapter folder itself) into a fresh
    ``policy`` to train on from there; an export made on another base model than the policy's
    is a ValueError, since its LoRA weights would load without error and mean nothing."""
    from agentgym_train.config import load_config

    folder = Path(folder)
    adapter_dir = folder / ADAPTER_DIR if (folder / ADAPTER_DIR).is_dir() else folder
    if not (adapter_dir / "adapter_config.json").exists():
        raise FileNotFoundError(
            f"policy.init_adapter={str(folder)!r} holds no adapter (adapter_config.json, or "
            f"{ADAPTER_DIR}/adapter_config.json): give a folder `agentgym-train export RUN "
            "--adapter --to DIR` wrote"
        )
    if (folder / "config.yaml").exists():
        trained_on = load_config(folder / "config.yaml").policy.model
        if trained_on not in (policy.config.model, "tiny"):  # (tiny: the export holds its base)
            raise ValueError(
                f"policy.init_adapter={str(folder)!r} was trained on {trained_on!r}, not on "
                f"policy.model={policy.config.model!r}: set policy.model to its base model"
            )
    load_adapter(policy, adapter_dir)


def _run_config(run_dir: str | Path) -> tuple[Path, Any]:
    """The run folder and its training config."""
    from agentgym_train.config import load_config

    run = Path(run_dir)
    config_path = run / "config.yaml"
    if not config_path.exists():
        raise FileNotFoundError(f"{config_path} not found: is {run} a training run directory?")
    return run, load_config(config_path)


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
