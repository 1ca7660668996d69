# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""Advantage estimators and the clipped objective against hand-computed values."""

from __future__ import annotations

import pytest

from tests.train.support import require_train_extra

require_train_extra()

import numpy as np
import torch

from agentgym_envs.wrappers.prompt import Turn
from agentgym_train.algorithms import (
    GRPO,
    PPO,
    GiGPO,
    assign_gigpo_advantages,
    assign_grpo_advantages,
    centre_in_groups,
    clipped_objective,
    discounted_returns,
    gae,
    make_algorithm,
    normalize_advantages,
)
from agentgym_train.config import AlgorithmConfig
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


def test_normalize_advantages():
    steps = [_step() for _ in range(4)]
    for step, adv in zip(steps, (1.0, 2.0, 3.0, 4.0), strict=True):
        step.advantage = adv
    normalize_advantages(steps)
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


def test_grpo_batch_scale_divides_centred_returns_by_their_batch_std():
    # group 0 returns (1, 0): centred (0.5, -0.5); group 1 (0.95, 1.0): (-0.025, 0.025)
    # batch std of (0.5, -0.5, -0.025, 0.025) = sqrt((0.25 * 2 + 0.000625 * 2) / 4) = 0.35399...
    episodes = [
        Episode(seed=g, group=g, steps=[_step(r)])
        for g, returns in enumerate([(1.0, 0.0), (0.95, 1.0)])
        for r in returns
    ]
    assign_grpo_advantages(episodes, scale="batch")
    std = ((0.25 * 2 + 0.000625 * 2) / 4) ** 0.5
    got = [e.steps[0].advantage for e in episodes]
    assert got == pytest.approx([0.5 / std, -0.5 / std, -0.025 / std, 0.025 / std])
    # per-group std would have made the one-step-penalty gap as large as success vs failure:
    assign_grpo_advantages(episodes, scale="group")
    assert [e.steps[0].advantage for e in episodes] == pytest.approx([1, -1, -1, 1], abs=1e-4)
    assign_grpo_advantages(episodes, scale="none")
    assert [e.steps[0].advantage for e in episodes] == pytest.approx([0.5, -0.5, -0.025, 0.025])
    with pytest.raises(ValueError, match="group, batch or none"):
        assign_grpo_advantages(episodes, scale="rank")


def test_normalise_without_centring_keeps_zero_advantages_zero():
    steps = [_step() for _ in range(4)]
    for step, adv in zip(steps, (0.0, 0.0, 2.0, -1.0), strict=True):
        step.advantage = adv
    normalize_advantages(steps, centre=False)
    std = float(torch.tensor([0.0, 0.0, 2.0, -1.0]).std(unbiased=False))
    assert [s.advantage for s in steps] == pytest.approx([0.0, 0.0, 2.0 / std, -1.0 / std])


def test_algorithms_choose_their_episodes_and_critic_by_name():
    seeds = np.random.default_rng([7, 3]).integers(0, 2**31 - 1, size=12).tolist()
    ppo = make_algorithm(AlgorithmConfig(name="ppo"))
    assert isinstance(ppo, PPO) and ppo.critic and ppo.group_size is None
    jobs = ppo.jobs(np.random.default_rng([7, 3]), 12)
    assert [(j.seed, j.group) for j in jobs] == list(zip(seeds, range(12), strict=True))

    grpo = make_algorithm(AlgorithmConfig(name="grpo", group_size=4))
    assert isinstance(grpo, GRPO) and not grpo.critic and grpo.group_size == 4
    jobs = grpo.jobs(np.random.default_rng([7, 3]), 12)  # 3 tasks, 4 plays each
    assert [j.group for j in jobs] == [0] * 4 + [1] * 4 + [2] * 4
    assert [j.seed for j in jobs] == [seed for seed in seeds[:3] for _ in range(4)]


def test_ppo_advantages_are_centred_grpo_advantages_are_not():
    def played():
        pairs = [(0, 1.0), (0, 0.0), (1, 1.0), (1, 1.0)]  # (group, return)
        return [Episode(seed=g, group=g, steps=[_step(reward=r)]) for g, r in pairs]

    grpo_episodes = played()
    make_algorithm(AlgorithmConfig(name="grpo", group_size=2)).assign_advantages(grpo_episodes)
    grpo = [e.steps[0].advantage for e in grpo_episodes]
    assert grpo[2:] == [0.0, 0.0]  # an all-equal group stays at 0 (no centring by the batch)
    assert grpo[0] > 0 > grpo[1]

    ppo_episodes = played()
    make_algorithm(AlgorithmConfig(name="ppo")).assign_advantages(ppo_episodes)
    ppo = np.array([e.steps[0].advantage for e in ppo_episodes])
    assert abs(ppo.mean()) < 1e-6 and ppo.std() == pytest.approx(1.0, abs=1e-6)


def _visit(group, observations, rewards):
    """An episode of ``group`` that saw ``observations`` and was paid ``rewards``, turn by turn."""
    steps = [_step(reward=r) for r in rewards]
    history = [Turn(o, "Action: a") for o in observations]
    return Episode(seed=group, group=group, steps=steps, history=history)


def test_discounted_returns_hand_computed():
    assert discounted_returns([0.0, 0.0, 1.0], 0.5) == pytest.approx([0.25, 0.5, 1.0])
    assert discounted_returns([1.0, -0.5], 1.0) == pytest.approx([0.5, -0.5])


def test_gigpo_adds_step_advantages_within_shared_states_hand_computed():
    episodes = [
        _visit(0, ["s0", "s1"], [0.0, 1.0]),  # A: return 1
        _visit(0, ["s0", "s2"], [0.0, 0.0]),  # B: return 0
        _visit(0, ["s0", "s1", "s1"], [0.0, 0.0, 1.0]),  # C: return 1, s1 twice
        _visit(1, ["s0"], [1.0]),  # another task: its s0 is not group 0's s0
        _visit(1, ["s0"], [0.0]),
    ]
    assign_gigpo_advantages(episodes, scale="none", step_weight=1.0, gamma=0.5)
    # episode level, group 0: returns (1, 0, 1), mean 2/3 -> (1/3, -2/3, 1/3); group 1: (.5, -.5)
    # step returns (gamma 0.5): A (0.5, 1), B (0, 0), C (0.25, 0.5, 1); group 1: (1), (0)
    # group 0's s0: (0.5, 0, 0.25), mean 0.25 -> (+0.25, -0.25, 0)
    # group 0's s1: A's 1, C's 0.5 and 1, mean 5/6 -> (+1/6, -1/3, +1/6); s2 alone -> 0
    # group 1's s0: (1, 0), mean 0.5 -> (+0.5, -0.5)
    got = [[s.advantage for s in e.steps] for e in episodes]
    third, sixth = 1 / 3, 1 / 6
    assert got[0] == pytest.approx([third + 0.25, third + sixth])
    assert got[1] == pytest.approx([-2 * third - 0.25, -2 * third])
    assert got[2] == pytest.approx([third, 0.0, third + sixth])
    assert got[3] == pytest.approx([1.0]) and got[4] == pytest.approx([-1.0])
    assert [s.ret for s in episodes[2].steps] == [1.0, 1.0, 1.0]  # the episode's return

    assign_gigpo_advantages(episodes, scale="none", step_weight=0.0, gamma=0.5)
    assert [s.advantage for s in episodes[0].steps] == pytest.approx([third, third])  # GRPO


def test_centre_in_groups_batch_std_leaves_out_states_seen_once():
    # keys a: (1, 0) -> (0.5, -0.5); b: (3) alone -> 0; the batch std is that of (0.5, -0.5)
    got = centre_in_groups(["a", "a", "b"], [1.0, 0.0, 3.0], scale="batch")
    assert got == pytest.approx([1.0, -1.0, 0.0])
    assert centre_in_groups(["a", "b"], [1.0, 0.0], scale="batch") == [0.0, 0.0]
    with pytest.raises(ValueError, match="group, batch or none"):
        centre_in_groups(["a"], [1.0], scale="rank")


def test_gigpo_is_grpo_with_step_groups_by_name():
    config = AlgorithmConfig(name="gigpo", group_size=2, grpo_scale="none",
                             gigpo_gamma=1.0, normalize_advantages=False)  # fmt: skip
    gigpo = make_algorithm(config)
    assert isinstance(gigpo, GiGPO) and not gigpo.critic and gigpo.group_size == 2
    # same first state, then different ones: the step groups add to the first turn only
    episodes = [_visit(0, ["s0", "x"], [0.0, 1.0]), _visit(0, ["s0", "y"], [0.0, 0.0])]
    gigpo.assign_advantages(episodes)
    assert [[s.advantage for s in e.steps] for e in episodes] == [[1.0, 0.5], [-1.0, -0.5]]
    with pytest.raises(ValueError, match="observation"):
        gigpo.assign_advantages([Episode(seed=0, group=0, steps=[_step(1.0)])])
