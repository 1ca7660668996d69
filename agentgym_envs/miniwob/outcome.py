"""A finished MiniWoB episode's score and success, from the page's raw reward in [-1, 1]
(one rule for the env and the vector env).

Success follows Farama's binary reward by default: the task fully done, raw == 1 exactly
(``miniwob/reward.py`` ``get_binary_reward`` in the miniwob 1.1.0 package); click-checkboxes
with one wrong tick (raw 0.33-0.67) or a drawn tic-tac-toe game (raw -0.5) is not a success.
``success_rule="browsergym"`` counts any positive raw reward instead (BrowserGym's
``MiniWoBTask.validate``: ``RAW_REWARD_GLOBAL > 0``). The score keeps partial credit (raw
itself, in (0, 1]) and a failure (raw <= 0) scores 0.
"""

from __future__ import annotations

SUCCESS_RULES = ("farama", "browsergym")


def episode_outcome(raw: float, done: bool, rule: str = "farama") -> tuple[float, bool]:
    """``(score, success)``: (0, False) until the episode is done."""
    if not done:
        return 0.0, False
    success = raw == 1.0 if rule == "farama" else raw > 0
    return min(1.0, max(0.0, raw)), success


def end_note(raw: float, done: bool, rule: str = "farama") -> str:
    """The line the observation ends with once the episode is over ("" before)."""
    if not done:
        return ""
    outcome = "success" if episode_outcome(raw, done, rule)[1] else "failure"
    return f"Episode over ({outcome}, raw reward {raw:g})."


__all__ = ["SUCCESS_RULES", "end_note", "episode_outcome"]
