# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""Weights & Biases logging (optional): what MetricsLogger sends, and a real offline run."""

from __future__ import annotations

import sys
import types

import pytest

from tests.train.support import config_for, require_train_extra

require_train_extra()

from agentgym_train.config import LoggingConfig
from agentgym_train.metrics import MetricsLogger


class _FakeRun:
    def __init__(self, **kwargs):
        self.init_kwargs, self.logged, self.finished = kwargs, [], False

    def log(self, metrics, step):
        self.logged.append((step, dict(metrics)))

    def finish(self):
        self.finished = True


def test_metrics_logger_sends_config_rows_and_finishes(tmp_path, monkeypatch):
    runs = []
    fake = types.SimpleNamespace(init=lambda **kw: runs.append(_FakeRun(**kw)) or runs[-1])
    monkeypatch.setitem(sys.modules, "wandb", fake)
    config = LoggingConfig(tensorboard=False, wandb=True, wandb_project="proj")
    logger = MetricsLogger(tmp_path, config, {"algorithm": {"name": "ppo"}})
    logger.log(1, {"train/success_rate": 0.5})
    logger.log(2, {"train/success_rate": 0.75})
    logger.close()
    (run,) = runs
    assert run.init_kwargs["project"] == "proj"
    assert run.init_kwargs["config"] == {"algorithm": {"name": "ppo"}}
    assert run.logged == [(1, {"train/success_rate": 0.5}), (2, {"train/success_rate": 0.75})]
    assert run.finished


def test_wandb_missing_says_how_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "wandb", None)  # import raises ImportError
    with pytest.raises(ImportError, match="pip install wandb"):
        MetricsLogger(tmp_path, LoggingConfig(tensorboard=False, wandb=True), {})


def test_offline_wandb_run_is_written(tmp_path, tiny_dir, monkeypatch):
    pytest.importorskip("wandb", reason="needs the wandb extra: pip install -e '.[wandb]'")
    from agentgym_train.trainer import Trainer

    monkeypatch.setenv("WANDB_MODE", "offline")
    monkeypatch.setenv("WANDB_SILENT", "true")
    config = config_for(tmp_path, tiny_dir, "updates=1", "logging.wandb=true")
    Trainer(config).train()
    runs = list((tmp_path / "wandb").glob("offline-run-*"))
    assert len(runs) == 1
    (record,) = runs[0].glob("*.wandb")
    assert record.stat().st_size > 0
