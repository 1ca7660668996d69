"""MiniWoB episodes replay exactly: the same seed and actions give the same observations.

The random agent plays the first 20 tasks of every difficulty's test list (where, before each
action waited for jQuery UI widgets, 7 of 20 hard episodes diverged between two runs); the
leaderboard's replay check then replays every recorded action in fresh processes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("playwright")

from agentgym_bench.replay import verify_run
from agentgym_bench.suite_runner import RunSettings, read_episodes, run_suite
from agentgym_bench.suites import resolve

SUITE = """\
name: miniwob-replay
version: 1
envs:
  AgentGym/MiniWoB-v0:
    difficulties: [easy, medium, hard]
    splits: [test]
    episodes: 20
"""


@pytest.mark.slow
def test_random_episodes_replay_exactly(tmp_path: Path):
    (tmp_path / "suite.yaml").write_text(SUITE)
    suite = resolve(str(tmp_path / "suite.yaml"))
    run_suite(suite, RunSettings("random", workers=2), tmp_path / "run", progress=False)
    records = read_episodes(tmp_path / "run")
    assert len(records) == len(suite.episodes) >= 50
    assert all(r["error"] is None for r in records), [r["error"] for r in records if r["error"]]
    check = verify_run(tmp_path / "run", progress=False)
    assert check.verified, check.reasons
    assert check.replayed_episodes == len(records)
    assert sum(len(r["trajectory"]["steps"]) for r in records) == check.replayed_steps
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert {row["difficulty"] for row in summary["rows"]} == {"easy", "medium", "hard"}
