# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""Advantage estimators and the clipped objective against hand-computed values."""

from __future__ import annotations

import pytest

from tests.train.conftest import require_train_extra

require_train_extra()

import torch

from agentgym_train.algorithms import (
    assign_grpo_advantages,
    clipped_objective,
    gae,
    normalise_advantages,
)
from agentgym_train.rollout import Episode, Step


def _step(reward=0.0, value=0.0):
    return Step([1], [2], "a", 1.0, 0.0, reward=reward, value=value)


def test_gae_hand_computed():
    # rewards (0, 1), values (0.5, 0.8), gamma 0.9, lambda 0.5
    # delta1 = 1 - 0.8 = 0.2 ; delta0 = 0 + 0.9*0.8 - 0.5 = 0.22
    # A1 = 0.2 ; A0 = 0.22 + 0.9*0.5*0.2 = 0.31
    advantages, returns = gae([0.0, 1.0], [0.5, 0.8], gamma=0.9, lam=0.5)
    assert advantages == pytest.approx([0.31, 0.2])
    assert returns == pytest.approx([0.81, 1.0])


def test_gae_lambda_one_is_monte_carlo():
    advantages, returns = gae([0.0, 0.0, 1.0], [0.2, 0.3, 0.4], gamma=1.0, lam=1.0)
    assert returns == pytest.approx([1.0, 1.0, 1.0])
    assert advantages == pytest.approx([0.8, 0.7, 0.6])


def test_grpo_group_normalisation():
    episodes = []
    for group, returns in enumerate([(1.0, 0.0, 0.0, 1.0), (1.0, 1.0, 1.0, 1.0)]):
        for r in returns:
            episodes.append(Episode(seed=group, group=group, steps=[_step(0.0), _step(r)]))
    assign_grpo_advantages(episodes)
    first = [e.steps[0].advantage for e in episodes[:4]]
    assert first == pytest.approx([1.0, -1.0, -1.0, 1.0], abs=1e-5)
    assert all(s.advantage == 0.0 for e in episodes[4:] for s in e.steps)  # no signal, no push


def test_normalise_advantages():
    steps = [_step() for _ in range(4)]
    for step, adv in zip(steps, (1.0, 2.0, 3.0, 4.0), strict=True):
        step.advantage = adv
    normalise_advantages(steps)
    values = torch.tensor([s.advantage for s in steps])
    assert float(values.mean()) == pytest.approx(0.0, abs=1e-6)
    assert float(values.std(unbiased=False)) == pytest.approx(1.0, abs=1e-4)


def test_clipped_objective():
    ratio = torch.tensor([1.5, 0.5, 1.1, 1.5])
    adv = torch.tensor([1.0, 1.0, -1.0, -1.0])
    loss, clipped = clipped_objective(ratio, adv, 0.2)
    # positive advantage: gain capped at 1.2; negative advantage: the larger ratio counts
    assert loss.tolist() == pytest.approx([-1.2, -0.5, 1.1, 1.5])
    assert clipped.tolist() == [True, True, False, True]
