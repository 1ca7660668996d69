# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""The learning-rate schedule: warm-up and cosine values by hand, and checkpoints written before
the schedule came from transformers resuming at the same learning rate."""

from __future__ import annotations

from tests.train.support import require_train_extra

require_train_extra()

import pytest
import torch

from agentgym_train.algorithms import warmup_cosine
from agentgym_train.checkpoint import upgrade_scheduler_state


def _optimizer(lr: float = 1.0) -> torch.optim.Optimizer:
    return torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=lr)


def _lrs(optimizer, scheduler, updates: int) -> list[float]:
    seen = []
    for _ in range(updates):
        seen.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    return seen


def test_warmup_then_cosine_to_the_floor_by_hand():
    # warm-up 2, 6 updates, floor 0.1: (u + 1) / 3 for u < 2, then 0.1 + 0.45 (1 + cos(pi p))
    # with p = (u - 2) / 4
    optimizer = _optimizer()
    lrs = _lrs(optimizer, warmup_cosine(optimizer, 2, 6, 0.1), 6)
    assert lrs == pytest.approx([1 / 3, 2 / 3, 1.0, 0.8681981, 0.55, 0.2318019])


def test_no_warmup_starts_at_the_peak():
    optimizer = _optimizer(0.5)
    assert _lrs(optimizer, warmup_cosine(optimizer, 0, 4, 0.0), 1) == [0.5]


def test_old_scheduler_state_resumes_at_the_same_learning_rate():
    # A state as the schedule before transformers saved it after 3 updates (warm-up 2 of 6,
    # floor 0.1), after one rollback had halved the learning rate.
    old = {
        "base_lrs": [1.0],
        "last_epoch": 3,
        "_step_count": 4,
        "_last_lr": [0.5 * 0.8681981],
        "lr_lambdas": [{"warmup": 2, "total": 6, "floor": 0.1, "scale": 0.5}],
    }
    optimizer = _optimizer()
    scheduler = warmup_cosine(optimizer, 2, 6, 0.1)
    scheduler.load_state_dict(upgrade_scheduler_state(old))
    scheduler.step()  # update 3 ends; update 4 learns at 0.5 x the schedule's 0.55
    assert optimizer.param_groups[0]["lr"] == pytest.approx(0.5 * 0.55)


def test_todays_scheduler_state_is_left_as_it_is():
    optimizer = _optimizer()
    state = warmup_cosine(optimizer, 2, 6, 0.1).state_dict()
    assert upgrade_scheduler_state(state) is state
