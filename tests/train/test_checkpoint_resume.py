# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""Checkpoints resume exactly: optimizer, scheduler, RNG and counters; the run continues as the
uninterrupted one does."""

from __future__ import annotations

import json

from tests.train.support import require_train_extra

require_train_extra()

import torch

from agentgym_train.checkpoint import list_checkpoints
from agentgym_train.trainer import Trainer
from tests.train.support import config_for


def _optimizer_tensors(optimizer) -> dict:
    out = {}
    for index, state in optimizer.state_dict()["state"].items():
        for key, value in state.items():
            out[(index, key)] = value.clone() if torch.is_tensor(value) else value
    return out


def test_resume_restores_optimizer_and_continues_identically(tiny_dir, tmp_path):
    # run A: two updates straight through (checkpoint after each)
    straight = Trainer(config_for(tmp_path / "a", tiny_dir, "checkpoint.keep=5"))
    straight.train()
    final_a = straight.policy.trainable_state()
    assert [p.name for p in list_checkpoints(tmp_path / "a")] == [
        "update_000001",
        "update_000002",
    ]

    # run B: one update, then a fresh process-like Trainer resumes from the checkpoint
    first = Trainer(config_for(tmp_path / "b", tiny_dir, "updates=1"))
    first.train()
    saved_optimizer = _optimizer_tensors(first.learner.optimizer)
    resumed = Trainer(config_for(tmp_path / "b", tiny_dir, "updates=2"))
    assert resumed.state["update"] == 1
    restored = _optimizer_tensors(resumed.learner.optimizer)
    assert restored.keys() == saved_optimizer.keys() and restored
    for key, value in saved_optimizer.items():
        if torch.is_tensor(value):
            assert torch.equal(restored[key], value), key
    # the schedule's step is the next update's index + 1 (its step 0 is the lr-0 warm-up start)
    assert resumed.learner.scheduler.last_epoch == first.learner.scheduler.last_epoch == 2
    resumed.train()

    final_b = resumed.policy.trainable_state()
    assert final_a.keys() == final_b.keys()
    for name, tensor in final_a.items():
        assert torch.equal(tensor, final_b[name]), name
    rows = [json.loads(x) for x in (tmp_path / "b" / "metrics.jsonl").read_text().splitlines()]
    assert [r["update"] for r in rows] == [1, 2]


def test_keep_prunes_old_checkpoints(tiny_dir, tmp_path):
    trainer = Trainer(config_for(tmp_path, tiny_dir, "updates=3", "checkpoint.keep=1"))
    trainer.train()
    assert [p.name for p in list_checkpoints(tmp_path)] == ["update_000003"]


def test_lora_checkpoint_adapter_loads_in_peft_with_the_trained_weights(tiny_dir, tmp_path):
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    trainer = Trainer(config_for(tmp_path, tiny_dir, "updates=1", "policy.lora=true"))
    trainer.train()
    checkpoint = list_checkpoints(tmp_path)[-1]
    trained = torch.load(checkpoint / "trainable.pt")
    lora = {name: t for name, t in trained.items() if "lora_" in name}
    assert lora
    base = AutoModelForCausalLM.from_pretrained(tiny_dir)
    loaded = PeftModel.from_pretrained(base, checkpoint / "adapter")
    params = dict(loaded.named_parameters())
    for name, tensor in lora.items():  # Policy names are "model." + the PeftModel's names
        assert torch.equal(params[name.removeprefix("model.")], tensor), name
