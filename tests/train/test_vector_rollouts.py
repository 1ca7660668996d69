# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""Rollouts on a vector env (``rollout.backend``): every backend plays the same episodes as the
plain sync one, slots idle at a batch's tail and restart with their job's seed."""

from __future__ import annotations

from functools import partial

import pytest

from tests.train.support import require_train_extra

require_train_extra()

import json

import torch

from agentgym_train.policy import Policy
from agentgym_train.rollout import Job, PolicyTurns, RolloutCollector, resolve_backend
from agentgym_train.trainer import Trainer
from tests.train.support import config_for

JOBS = [Job(seed, seed // 2) for seed in range(9)]  # 9 jobs on 3 envs: the tail idles


@pytest.fixture(scope="module")
def policy(tiny_dir, tmp_path_factory):
    config = config_for(tmp_path_factory.mktemp("run"), tiny_dir)
    return Policy.load(tiny_dir, config.policy, torch.device("cpu"), reference=False)


@pytest.fixture
def oracle_on_most_turns(monkeypatch):
    """The policy's choice, replaced by the oracle's move on two turns of three, so episodes
    succeed and end at different turns (the tiny model alone rarely ends one)."""
    score = PolicyTurns._score_actions

    def biased(self, slots, prompts, temperature, with_ref):
        steps = score(self, slots, prompts, temperature, with_ref)
        for slot, step in zip(slots, steps, strict=True):
            expert = slot.info.get("expert_action")
            if expert and (slot.job.seed + len(slot.episode.steps)) % 3:
                step.action, step.response = expert, f"Action: {expert}"
        return steps

    monkeypatch.setattr(PolicyTurns, "_score_actions", biased)


def _play(policy, tmp_path, tiny_dir, *overrides: str, jobs=JOBS, num_envs: int | None = 3):
    config = config_for(tmp_path, tiny_dir, "rollout.max_turns=6",
                        "rollout.env_kwargs={difficulty: medium}", *overrides)  # fmt: skip
    collector = RolloutCollector(policy, config.rollout, config.reward, num_envs=num_envs,
                                 record=True)  # fmt: skip
    try:
        torch.manual_seed(1)
        episodes = collector.collect(jobs, temperature=1.0)
    finally:
        collector.close()
    return [json.dumps(e.trajectory.to_record(), sort_keys=True) for e in episodes], episodes


def test_backends_are_resolved_per_id():
    assert resolve_backend("auto", "AgentGym/Toy-v0") == "sync"
    assert resolve_backend("auto", "AgentGym/MiniWoB-v0") == "vector_entry_point"
    assert resolve_backend("async", "AgentGym/MiniWoB-v0") == "async"
    with pytest.raises(ValueError, match="has no vector env of its own; use sync, async"):
        resolve_backend("vector_entry_point", "AgentGym/Toy-v0")


def test_async_plays_the_sync_episodes(policy, tiny_dir, tmp_path, oracle_on_most_turns):
    sync, episodes = _play(policy, tmp_path, tiny_dir, "rollout.backend=sync")
    lengths = {len(e.steps) for e in episodes}
    assert len(lengths) > 1 and any(e.success for e in episodes)  # ends at different turns
    assert any(not e.terminated and len(e.steps) == 6 for e in episodes)  # cut at max_turns
    assert [e.seed for e in episodes] == [job.seed for job in JOBS]
    assert _play(policy, tmp_path, tiny_dir, "rollout.backend=async")[0] == sync


def test_the_number_of_envs_changes_no_greedy_episode(policy, tiny_dir, tmp_path):
    """Greedy play: 1, 3 or more envs than jobs (idle from the start) play the same records;
    ``on_episode`` (the evaluation's progress bar) hears of each episode once."""
    config = config_for(tmp_path, tiny_dir, "rollout.max_turns=5")
    records = []
    for num_envs in (1, 3, 12):
        collector = RolloutCollector(policy, config.rollout, config.reward, num_envs=num_envs,
                                     record=True)  # fmt: skip
        ended: list[int] = []
        played = collector.collect(JOBS, temperature=0.0, on_episode=partial(ended.append, 1))
        collector.close()
        records.append([e.trajectory.to_record() for e in played])
        assert len(ended) == len(JOBS)
    assert records[0] == records[1] == records[2]


def test_miniwob_on_its_own_vector_env_plays_the_sync_episodes(
    policy, tiny_dir, tmp_path, oracle_on_most_turns
):
    kwargs = "rollout.env_kwargs={task: click-checkboxes, difficulty: medium}"
    jobs = JOBS[:5]
    own, episodes = _play(policy, tmp_path, tiny_dir, "rollout.env_id=AgentGym/MiniWoB-v0",
                          kwargs, "rollout.backend=auto", jobs=jobs)  # fmt: skip
    assert any(e.success for e in episodes) and len({len(e.steps) for e in episodes}) > 1
    sync, _ = _play(policy, tmp_path, tiny_dir, "rollout.env_id=AgentGym/MiniWoB-v0", kwargs,
                    "rollout.backend=sync", jobs=jobs)  # fmt: skip
    assert own == sync


def test_ray_plays_the_sync_episodes(policy, tiny_dir, tmp_path, oracle_on_most_turns):
    ray = pytest.importorskip("ray", reason="needs the ray extra: pip install -e '.[ray]'")
    sync, _ = _play(policy, tmp_path, tiny_dir, "rollout.backend=sync")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        assert _play(policy, tmp_path, tiny_dir, "rollout.backend=ray",
                     "rollout.ray_actors=2")[0] == sync  # fmt: skip
    finally:
        if started:
            ray.shutdown()


def test_a_training_update_on_async_envs(tiny_dir, tmp_path):
    config = config_for(tmp_path, tiny_dir, "rollout.backend=async", "rollout.num_envs=4",
                        "rollout.episodes_per_update=8", "updates=1")  # fmt: skip
    trainer = Trainer(config)
    try:
        metrics = trainer.step()
    finally:
        trainer.close()
    assert metrics["perf/env_seconds"] > 0 and 1 <= metrics["train/episode_length"] <= 4
