"""scripts/gpu_check.sh's code path (benchmarks/perf/gpu_check.py), run on the CPU at a small
shape in bf16 (the real-shaped run needs CUDA)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.train.support import require_train_extra

require_train_extra()

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--device", "cpu", "--shape", "small", "--batch", "2", "--prompt-tokens", "48",
         "--candidates", "3", "--candidate-tokens", "4", "--new-tokens", "6",
         "--repeats", "1"]  # fmt: skip


def gpu_check():
    path = ROOT / "benchmarks" / "perf" / "gpu_check.py"
    spec = importlib.util.spec_from_file_location("gpu_check", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["gpu_check"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_dry_run_measures_every_phase_and_updates(tmp_path):
    assert gpu_check().main([*SMALL, "--updates", "1", "--run-dir", str(tmp_path)]) == 0
    result = json.loads((tmp_path / "gpu_check.json").read_text())
    phases = {row["phase"]: row for row in result["phases"]}
    assert list(phases) == ["prefill", "decode", "generate (plain)", "score", "score+backward"]
    assert phases["prefill"]["tokens"] == 2 * 48
    assert phases["score"]["tokens"] == phases["score+backward"]["tokens"] == 2 * (48 + 3 * 4)
    assert all(row["tokens_per_s"] > 0 and row["peak_gib"] > 0 for row in phases.values())
    assert [(r["mode"], r["update"]) for r in result["updates"]] == [("score", 1), ("generate", 1)]
    config = json.loads((tmp_path / "base_model" / "config.json").read_text())
    assert config["model_type"] == "qwen2" and config["num_key_value_heads"] == 2


def test_model_dir_and_policy_overrides(tmp_path):
    module = gpu_check()
    module.build_random_model(tmp_path / "model", "small")
    args = [*SMALL, "--model", str(tmp_path / "model"), "--updates", "0", "--run-dir",
            str(tmp_path / "run"), "--phases", "score,score+backward", "--micro-batch", "1",
            "--policy", "policy.score_chunk_size=2",
            "policy.gradient_checkpointing=true"]  # fmt: skip
    assert module.main(args) == 0
    result = json.loads((tmp_path / "run" / "gpu_check.json").read_text())
    assert result["model"] == str(tmp_path / "model") and "updates" not in result
    assert [row["phase"] for row in result["phases"]] == ["score", "score+backward"]
    assert result["settings"]["micro_batch"] == 1
    assert module.main([*SMALL, "--model", str(tmp_path / "nowhere")]) == 2
    assert module.main([*SMALL, "--phases", "prefil"]) == 2
    assert module.main([*SMALL, "--repeats", "0"]) == 2


def test_without_cuda_says_what_to_do():
    import torch

    if torch.cuda.is_available():
        pytest.skip("CUDA is available here: the script would run the real check")
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "gpu_check.sh"), "--updates", "1"],
        capture_output=True, text=True, env={"PYTHON": sys.executable, "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 2
    assert "--device cpu --shape small" in done.stdout
