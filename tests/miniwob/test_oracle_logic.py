"""The oracles' own reasoning, without a page: reading a scroll-list instruction, and the
tic-tac-toe policy against a model of the page's opponent. No browser needed."""

from __future__ import annotations

import functools

from agentgym_envs.miniwob.oracles.widgets import (
    _best_move,
    _opponent_moves,
    _play,
    _winner,
    wanted_items,
)

#: click-scroll-list page 2008115 (an item holds " and ")
PAGE_2008115 = [
    "Taiwan", "American Samoa", "Puerto Rico", "Uruguay", "Norway", "Bahamas",
    "Marshall Islands", "Sao Tome and Principe", "United States", "Niue",
]  # fmt: skip


def test_scroll_list_items_are_read_as_whole_labels():
    wanted = "Marshall Islands, Sao Tome and Principe"
    assert wanted_items(wanted, PAGE_2008115) == ["Marshall Islands", "Sao Tome and Principe"]
    assert wanted_items("Sao Tome and Principe", PAGE_2008115) == ["Sao Tome and Principe"]
    # the longest label first, unless the rest then fails to parse
    labels = ["Guinea", "Guinea-Bissau", "Bosnia and Herzegovina"]
    assert wanted_items("Guinea-Bissau, Guinea", labels) == ["Guinea-Bissau", "Guinea"]
    assert wanted_items("Bosnia and Herzegovina", labels) == ["Bosnia and Herzegovina"]
    # a label the list lacks: the plain split, so the env reports the missing option
    assert wanted_items("Chad, Peru", ["Chad"]) == ["Chad", "Peru"]


@functools.cache
def _outcome(board: tuple[int, ...], to_move: int) -> tuple[float, float, float]:
    """(win, draw, loss) chances of the oracle (X) against the page's opponent model."""
    winner = _winner(board)
    if winner or all(board):
        return (float(winner == 1), float(not winner), float(winner == -1))
    if to_move == 1:
        return _outcome(_play(board, _best_move(board), 1), -1)
    chances = [0.0, 0.0, 0.0]
    for cell, p in _opponent_moves(board):
        for k, q in enumerate(_outcome(_play(board, cell, -1), 1)):
            chances[k] += p * q
    return (chances[0], chances[1], chances[2])


def test_tic_tac_toe_oracle_never_loses_and_mostly_wins():
    empty = (0,) * 9
    first = _outcome(empty, 1)  # X opens
    second = _outcome(empty, -1)  # the page opens (with a random cell)
    assert first[2] == second[2] == 0.0
    assert first[0] > 0.96 and second[0] > 0.63
    # the page opens 49% of its games (core.randi(0, 100) > 50)
    assert 0.51 * first[0] + 0.49 * second[0] > 0.81


def test_tic_tac_toe_oracle_takes_a_win_and_blocks():
    o, x = -1, 1
    assert _best_move((x, x, 0, o, o, 0, 0, 0, 0)) == 2  # its own line before blocking
    assert _best_move((o, o, 0, x, 0, 0, 0, 0, x)) == 2  # blocks the page's line
