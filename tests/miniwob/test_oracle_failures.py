"""An oracle that cannot read the page says so (task and seed in a warning) instead of going
quiet; with AGENTGYM_ORACLE_DEBUG=1 the error itself surfaces. No browser needed."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from agentgym_envs.miniwob.oracles import expert_action


class _LostPage:
    def evaluate(self, script, arg=None):
        raise RuntimeError("the page is gone")


def _task(task_id: str = "click-test"):
    return SimpleNamespace(
        task_id=task_id, page_seed=4242, goal="Click the button.", history=[], memory={},
        utterance="Click the button.", fields={}, nodes=[], page=_LostPage(),
    )  # fmt: skip


def test_a_failing_oracle_is_logged_with_its_task_and_seed(caplog, monkeypatch):
    monkeypatch.delenv("AGENTGYM_ORACLE_DEBUG", raising=False)
    with caplog.at_level(logging.WARNING, logger="agentgym_envs.miniwob"):
        assert expert_action(_task()) is None
    assert "click-test" in caplog.text and "4242" in caplog.text
    assert "the page is gone" in caplog.text


def test_debug_mode_raises_the_oracle_error(monkeypatch):
    monkeypatch.setenv("AGENTGYM_ORACLE_DEBUG", "1")
    with pytest.raises(RuntimeError, match="the page is gone"):
        expert_action(_task())


def test_a_task_without_oracle_has_no_move_and_no_warning(caplog):
    with caplog.at_level(logging.WARNING):
        assert expert_action(_task("no-such-task")) is None
    assert not caplog.text
