"""MiniWoB's score and success from the page's raw reward (no browser needed)."""

from __future__ import annotations

import pytest

from agentgym_envs.miniwob.outcome import end_note, episode_outcome


@pytest.mark.parametrize(
    ("raw", "farama", "browsergym", "score"),
    [
        (1.0, True, True, 1.0),
        (0.9999999999999999, False, True, 0.9999999999999999),  # Farama: exactly 1 only
        (2 / 3, False, True, 2 / 3),  # click-checkboxes with one wrong tick
        (0.2, False, True, 0.2),  # ascending-numbers: one right click, one wrong
        (0.0, False, False, 0.0),
        (-0.5, False, False, 0.0),  # a drawn tic-tac-toe game
        (-1.0, False, False, 0.0),
    ],
)
def test_success_needs_the_task_fully_done_and_partial_credit_scores(
    raw, farama, browsergym, score
):
    assert episode_outcome(raw, True) == (pytest.approx(score), farama)
    assert episode_outcome(raw, True, "browsergym") == (pytest.approx(score), browsergym)
    assert episode_outcome(raw, False) == (0.0, False)  # nothing before the end


def test_the_end_note_names_the_outcome_under_the_rule():
    assert end_note(1.0, True) == "Episode over (success, raw reward 1)."
    assert end_note(2 / 3, True) == "Episode over (failure, raw reward 0.666667)."
    assert end_note(2 / 3, True, "browsergym").startswith("Episode over (success")
    assert end_note(-1.0, False) == ""
