"""Hostile agent text never breaks an env (the full 10^4-action runs: agentgym_bench.fuzz)."""

from __future__ import annotations

import random

import pytest
from agentgym_bench.fuzz import KINDS, fuzz, hostile_action

from tests.support import CONTRACT_IDS


@pytest.mark.parametrize("env_id", CONTRACT_IDS)
def test_hostile_actions_never_raise_or_leave_the_space(env_id):
    report = fuzz(env_id, actions=150, seed=1, progress=False)
    assert report.ok(), report.summary()
    assert report.steps == 150 and len(report.kinds) >= 6


def test_every_kind_of_hostile_action_is_drawn():
    rng = random.Random(0)
    drawn = {kind: hostile_action(kind, rng, ["click [3]"]) for kind in KINDS}
    assert len(drawn["huge"]) == 100_000
    assert not isinstance(drawn["non_string"], str)
    assert any(0xD800 <= ord(c) < 0xE000 for c in drawn["surrogate"])
    assert drawn["long_type"].startswith('type [1] "x')
