"""Batched play (``--batch-size``): lock-step episodes give the records one-at-a-time play gives.

The agent is ``agents_for_tests.batch_random`` (seeded random moves with the batch protocol, no
model); the model agents' batches are tested in ``test_batched_model.py``.
"""

from __future__ import annotations

import json
from typing import Any

import gymnasium as gym
import pytest
from agentgym_bench import player as player_module
from agentgym_bench.player import EpisodePlayer
from agentgym_bench.replay import verify_run
from agentgym_bench.suite_runner import RunSettings, read_episodes, run_suite
from agentgym_bench.suites import resolve

from agentgym_envs.cli import main
from tests.bench import agents_for_tests
from tests.bench.support import BATCH_RANDOM, lockstep, same


def test_lockstep_refills_slots_and_plays_as_one_at_a_time(suite_file):
    suite = resolve(str(suite_file))
    agents_for_tests.CALLS.clear()
    batched = lockstep(suite.episodes, 4)
    calls = list(agents_for_tests.CALLS)
    player = EpisodePlayer(RunSettings(BATCH_RANDOM), {})
    single = [player.play(spec) for spec in suite.episodes]
    assert not any(agents_for_tests.CALLS[len(calls) :])  # one at a time: act, no act_batch
    assert same(batched) == same(single)  # the same moves, observations, figures, trajectories
    assert len(batched) == 6 and all(r["error"] is None for r in batched)
    assert all(r["trajectory"]["steps"] for r in batched)
    # the first turn: all four slots in one call, though they hold two lists' agents (test, ood)
    tasks = [spec.task_id for spec in suite.episodes]
    assert calls[0] == [(tasks[0], 0), (tasks[1], 1), (tasks[2], 2), (tasks[3], 3)]
    # refilled: an episode of the first four shares a later call with one started after it
    first = set(calls[0])
    assert any(first & set(call) and set(call) - first for call in calls[1:]), calls
    assert max(len(call) for call in calls) == 4


class _Flaky(gym.Wrapper):
    """Toy whose reset fails for seed 2 and whose first step fails for seed 1."""

    def reset(self, **kwargs: Any) -> Any:
        self.seed, self.steps = kwargs.get("seed"), 0
        if self.seed == 2:
            raise RuntimeError("the page did not load")
        return super().reset(**kwargs)

    def step(self, action: Any) -> Any:
        self.steps += 1
        if self.seed == 1 and self.steps == 1:
            raise RuntimeError("the page crashed")
        return super().step(action)


def test_an_env_that_raises_ends_only_its_own_episode(suite_file, monkeypatch):
    make = gym.make
    monkeypatch.setattr(player_module.gym, "make", lambda *a, **k: _Flaky(make(*a, **k)))
    suite = resolve(str(suite_file))
    batched = lockstep(suite.episodes, 4)
    player = EpisodePlayer(RunSettings(BATCH_RANDOM), {})
    single = [player.play(spec) for spec in suite.episodes]
    assert same(batched) == same(single)  # errors included, word for word
    by_seed: dict[int, list[dict]] = {}
    for record in batched:
        by_seed.setdefault(record["seed"], []).append(record)
    assert all("RuntimeError: the page did not load" in r["error"] for r in by_seed[2])
    crashed = [r for r in by_seed[1] if r["error"]]
    assert crashed and all("RuntimeError: the page crashed" in r["error"] for r in crashed)
    assert all(r["trajectory"] is None and r["score"] == 0.0 for r in crashed + by_seed[2])
    assert all(r["error"] is None and r["trajectory"]["steps"] for r in by_seed[0])


def test_an_exception_in_a_slots_place_ends_only_that_episode(suite_file):
    """``act_batch`` may answer a slot with an exception (one failed request of a batch): that
    episode is an error with its reason, as ``act`` raising it makes it, and the others play on
    in the same calls."""
    suite = resolve(str(suite_file))
    agents_for_tests.CALLS.clear()
    options = {"fail_on_seed": 0}
    batched = lockstep(suite.episodes, 4, options=options)
    player = EpisodePlayer(RunSettings(BATCH_RANDOM, options), {})
    single = [player.play(spec) for spec in suite.episodes]
    assert same(batched) == same(single)  # the reason word for word, where it was raised too
    failed = [r for r in batched if r["error"]]
    assert sorted(r["seed"] for r in failed) == [0, 0]
    assert all("RuntimeError: no second move for seed 0 (agents_for_tests.py:" in r["error"]
               and r["trajectory"] is None for r in failed)  # fmt: skip
    assert all(r["trajectory"]["steps"] for r in batched if not r["error"])
    # the call that failed the two seed-0 episodes moved its other two episodes on
    seeds = {spec.task_id: spec.seed for spec in suite.episodes}
    calls = [[seeds[task] for task, _ in call] for call in agents_for_tests.CALLS]
    assert calls == [[0, 1, 2, 0], [0, 0, 1, 2]]


def test_cli_batch_size_plays_the_same_records(suite_file, tmp_path, capsys):
    log = tmp_path / "calls.jsonl"
    runs = {}
    for size in (1, 4):
        out = tmp_path / f"batch-{size}"
        argv = ["bench", "run", "--suite", str(suite_file), "--agent", BATCH_RANDOM, "--out",
                str(out), "--agent-option", f"log={log}", "--batch-size", str(size)]  # fmt: skip
        assert main(argv) == 0
        runs[size] = read_episodes(out)
        settings = json.loads((out / "run.json").read_text())["settings"]
        assert settings.get("batch_size", 1) == size
    assert same(runs[4]) == same(runs[1])
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    assert calls and max(len(call) for call in calls) > 1  # batch 1 made no act_batch call
    assert verify_run(tmp_path / "batch-4", progress=False, suite_file=suite_file).verified
    # an agent without the batch protocol plays one episode at a time, as with batch size 1
    oracle = tmp_path / "oracle"
    argv = ["bench", "run", "--suite", str(suite_file), "--agent", "oracle", "--out", str(oracle)]
    assert main([*argv, "--batch-size", "3"]) == 0
    assert all(r["success"] for r in read_episodes(oracle))
    assert main([*argv, "--batch-size", "0"]) == 2
    assert "--batch-size must be at least 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["bench", "run", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--batch-size B" in text and "Agents without batch support" in text
    assert "openai:MODEL agents: the turn's requests sent concurrently" in text


def test_a_batched_run_resumes(suite_file, tmp_path):
    suite = resolve(str(suite_file))
    settings = RunSettings(BATCH_RANDOM, batch_size=4)
    full = tmp_path / "full"
    run_suite(suite, settings, full, progress=False)
    resumed = tmp_path / "resumed"
    resumed.mkdir()
    (resumed / "run.json").write_bytes((full / "run.json").read_bytes())
    kept = read_episodes(full)[:2]
    text = "".join(json.dumps(r) + "\n" for r in kept) + '{"key": "torn'  # killed mid-write
    (resumed / "episodes.jsonl").write_text(text)
    run_suite(suite, settings, resumed, progress=False)
    after = read_episodes(resumed)
    assert len(after) == 6 and same(after) == same(read_episodes(full))  # each once, the same
    assert [r["key"] for r in after[:2]] == [r["key"] for r in kept]  # the kept ones untouched


def test_timeouts_in_batches(suite_file, tmp_path):
    """A batch agent whose call hangs: the episodes past the limit are timed out and the run
    goes on; an agent without the batch protocol times out as one at a time does."""
    suite = resolve(str(suite_file))
    hang = RunSettings(BATCH_RANDOM, {"hang_on_seed": 0}, batch_size=2, episode_timeout=10)
    run_suite(suite, hang, tmp_path / "lockstep", progress=False)
    records = read_episodes(tmp_path / "lockstep")
    assert sorted(r["key"] for r in records) == sorted(s.key for s in suite.episodes)
    for record in records:
        if record["seed"] == 0:
            assert record["error"] == "timed out after 10 s"
        else:
            assert record["error"] in (None, "timed out after 10 s")
    assert any(r["error"] is None for r in records)
    old = RunSettings("tests.bench.agents_for_tests:hangs_on_seed_0", batch_size=3,
                      episode_timeout=10)  # fmt: skip
    run_suite(suite, old, tmp_path / "one-at-a-time", progress=False)
    for record in read_episodes(tmp_path / "one-at-a-time"):
        if record["seed"] == 0:
            assert record["error"] == "timed out after 10 s"
        else:
            assert record["error"] is None and record["length"] > 0


def test_ray_backend_plays_batches(suite_file, tmp_path):
    ray = pytest.importorskip("ray")
    suite = resolve(str(suite_file))
    run_suite(suite, RunSettings(BATCH_RANDOM, batch_size=4), tmp_path / "processes",
              progress=False)  # fmt: skip
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        for agent in (BATCH_RANDOM, "oracle"):  # lock-step, and one at a time
            settings = RunSettings(agent, workers=2, backend="ray", batch_size=4)
            run_suite(suite, settings, tmp_path / agent.split(":")[-1], progress=False)
    finally:
        ray.shutdown()
    assert same(read_episodes(tmp_path / "batch_random")) == same(
        read_episodes(tmp_path / "processes")
    )
    assert all(r["success"] for r in read_episodes(tmp_path / "oracle"))
