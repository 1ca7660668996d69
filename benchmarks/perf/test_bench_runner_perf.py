"""Benchmark runner speed: a 60-episode Toy suite played by the oracle with 1 and 2 workers.

The oracle is instant, so the figure is the runner's own cost per episode (worker start-up,
queues, the JSONL writes, summary) plus Toy's steps; divide 60 by the time for episodes/s.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from agentgym_bench.suite_runner import RunSettings, run_suite
from agentgym_bench.suites import resolve

SUITE = """\
name: perf
version: 1
envs:
  AgentGym/Toy-v0:
    difficulties: [easy, medium, hard]
    splits: [test, ood]
    episodes: 10
"""


@pytest.mark.parametrize("workers", [1, 2])
def test_suite_run(benchmark, tmp_path: Path, workers: int):
    (tmp_path / "perf.yaml").write_text(SUITE)
    suite = resolve(str(tmp_path / "perf.yaml"))
    assert len(suite.episodes) == 60

    def run() -> None:
        shutil.rmtree(tmp_path / "run", ignore_errors=True)
        run_suite(suite, RunSettings("oracle", workers=workers), tmp_path / "run", progress=False)

    benchmark.pedantic(run, rounds=3, iterations=1)
