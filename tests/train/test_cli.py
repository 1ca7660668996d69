# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""The agentgym-train command: train, plot, export, config; bad input gives a clear message."""

from __future__ import annotations

import pytest

from tests.train.support import require_train_extra

require_train_extra()

import torch

from agentgym_train.cli import main
from tests.train.support import SYSTEM


def test_train_plot_export(tiny_dir, tmp_path, capsys):
    run = tmp_path / "run"
    code = main([
        f"logging.run_dir={run}", f"policy.model={tiny_dir}", "logging.progress=false",
        "updates=1", "rollout.num_envs=4", "rollout.episodes_per_update=8",
        "rollout.max_turns=3", "algorithm.ppo_epochs=1", f"rollout.system_template={SYSTEM}",
        "evaluation.every=1", "evaluation.episodes=4", "algorithm.kl_coef=0.05",
    ])  # fmt: skip
    assert code == 0
    assert "done: 1 updates" in capsys.readouterr().out
    assert list((run / "tensorboard").iterdir())
    row = (run / "metrics.jsonl").read_text().splitlines()[0]
    for key in ("train/success_rate", "loss/kl_ref", "perf/gen_tokens_per_s", "loss/entropy"):
        assert key in row

    assert main(["plot", str(run)]) == 0
    assert (run / "plots" / "success.png").stat().st_size > 1000
    assert (run / "plots" / "score.png").stat().st_size > 1000
    compared = tmp_path / "compared"  # several runs: a line per run (the same run twice here)
    assert main(["plot", str(run), str(run), "--out", str(compared), "--labels", "a", "b"]) == 0
    assert (compared / "compare_train_success_rate.png").stat().st_size > 1000
    assert (compared / "compare_eval_valid_success_rate.png").stat().st_size > 1000
    with pytest.raises(SystemExit):  # several runs without --out: a usage error
        main(["plot", str(run), str(run)])
    assert "several runs need --out" in capsys.readouterr().err

    out = tmp_path / "exported"
    assert main(["export", str(run), "--to", str(out)]) == 0
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(out)  # plain HF: no peft, no value head
    assert not any("lora" in name for name, _ in model.named_parameters())
    assert isinstance(model(torch.tensor([[5, 6]])).logits, torch.Tensor)
    assert next(model.parameters()).dtype == torch.float32  # auto: the tiny base's own dtype

    half = tmp_path / "exported-bf16"
    assert main(["export", str(run), "--to", str(half), "--dtype", "bfloat16"]) == 0
    model16 = AutoModelForCausalLM.from_pretrained(half, dtype="auto")
    assert next(model16.parameters()).dtype == torch.bfloat16
    size = lambda folder: sum(f.stat().st_size for f in folder.glob("*.safetensors"))  # noqa: E731
    assert size(half) < 0.6 * size(out)
    for name, weight in model16.state_dict().items():  # the same merged weights, rounded
        assert torch.allclose(weight.float(), model.state_dict()[name], atol=1e-2, rtol=1e-2)


def test_config_listing_and_bad_override(capsys):
    assert main(["config"]) == 0
    assert "algorithm.clip_range" in capsys.readouterr().out
    assert main(["algorithm.zzzz=1"]) == 2
    assert "valid keys under algorithm" in capsys.readouterr().err


def test_bad_env_id_fails_before_anything_is_written(tmp_path, capsys):
    run_dir = tmp_path / "run"
    assert main(["rollout.env_id=AgentGym/Nope-v0", f"logging.run_dir={run_dir}"]) == 2
    assert "is not a registered Gymnasium id" in capsys.readouterr().err
    assert not run_dir.exists()
