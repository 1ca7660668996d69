"""scripts/gpu_check.sh's code path, run on the CPU at a small size (the 0.5B run needs CUDA)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.train.conftest import require_train_extra

require_train_extra()

ROOT = Path(__file__).resolve().parents[2]


def test_gpu_check_dry_run_on_cpu(tmp_path):
    from agentgym_train.gpu_check import run

    rows = run("cpu", "small", 1, ["score", "generate"], tmp_path)
    assert [(r["mode"], r["update"]) for r in rows] == [("score", 1), ("generate", 1)]
    for row in rows:
        assert row["perf/gen_tokens_per_s"] > 0 and row["perf/train_tokens_per_s"] > 0
    assert (tmp_path / "base_model" / "config.json").exists()


def test_gpu_check_without_cuda_says_what_to_do():
    import torch

    if torch.cuda.is_available():
        pytest.skip("CUDA is available here: the script would run the real check")
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "gpu_check.sh"), "--updates", "1"],
        capture_output=True, text=True, env={"PYTHON": sys.executable, "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 2
    assert "--device cpu --size small" in done.stdout
