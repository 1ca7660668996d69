"""MiniWoB episodes replay exactly: the same seed and actions give the same observations.

The random agent and the oracle play every registered task once (the test list of each tier
holds every iid task, the ood list every held-out task and the iid tasks with a test mode), in
worker processes; the leaderboard's replay check then replays every recorded action in this
process and compares each observation, reward, end flag and action error. Pages run on virtual
time, so the tasks that follow the clock by design (button-delay, stock-market, drag-cube) replay
too: ``REAL_TIME_TASKS`` is empty and nothing is skipped. Before each action waited for jQuery UI
widgets, 7 of 20 hard episodes diverged between two runs; before observations waited for
pictures, email-inbox-delete once lost its star icons.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("playwright")

from agentgym_bench.replay import verify_run
from agentgym_bench.suite_runner import RunSettings, read_episodes, run_suite
from agentgym_bench.suites import resolve

from agentgym_envs.miniwob.tasks import NO_ORACLE, PIXEL_SCORED, REAL_TIME_TASKS, TEXT_TASKS

SUITE = """\
name: miniwob-replay
version: 1
envs:
  AgentGym/MiniWoB-v0:
    difficulties: [easy, medium, hard]
    splits: [test, ood]
    episodes: all
    max_steps: {max_steps}
"""
#: Random episodes are cut at 15 steps (enough to open every widget; the test stays minutes
#: long); the oracle plays each task to its end.
MAX_STEPS = {"random": 15, "oracle": 40}


@pytest.mark.slow
@pytest.mark.parametrize("agent", ["random", "oracle"])
def test_every_task_replays_exactly(tmp_path: Path, agent: str):
    (tmp_path / "suite.yaml").write_text(SUITE.format(max_steps=MAX_STEPS[agent]))
    suite = resolve(str(tmp_path / "suite.yaml"))
    assert {episode.task_id for episode in suite.episodes} == set(TEXT_TASKS)
    run_suite(suite, RunSettings(agent, workers=2), tmp_path / "run", progress=False)
    records = read_episodes(tmp_path / "run")
    assert len(records) == len(suite.episodes)
    assert all(r["error"] is None for r in records), [r["error"] for r in records if r["error"]]
    if agent == "oracle":
        # tasks without an oracle, and pixel-scored ones (raw just below 1), do not succeed
        exempt = set(NO_ORACLE) | set(PIXEL_SCORED)
        failed = [r["key"] for r in records if not r["success"] and r["task_id"] not in exempt]
        assert not failed, failed
    check = verify_run(tmp_path / "run", progress=False, suite_file=tmp_path / "suite.yaml")
    assert check.verified, check.reasons
    assert not REAL_TIME_TASKS and not check.skipped_real_time
    assert check.replayed_episodes == len(records)
    assert sum(len(r["trajectory"]["steps"]) for r in records) == check.replayed_steps
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert {row["difficulty"] for row in summary["rows"]} == {"easy", "medium", "hard"}
