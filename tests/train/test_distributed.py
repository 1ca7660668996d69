# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""Data-parallel training: sharding keeps GRPO groups whole, global statistics equal the
single-process ones, and (slow) a real 2-process gloo run through ``accelerate launch`` counts
every episode once, writes from one rank only and keeps both ranks' weights bit-identical."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from datetime import timedelta
from pathlib import Path

import pytest

from tests.train.support import require_train_extra

require_train_extra()

import numpy as np
import torch

from agentgym_train.algorithms import (
    assign_grpo_advantages,
    batch_mean_std,
    normalize_advantages,
)
from agentgym_train.distributed import DataParallel, check_world_size, fingerprint
from agentgym_train.metrics import MetricsLogger, episode_metrics, light_episodes
from agentgym_train.rollout import Episode, Job, Step
from tests.train.support import SYSTEM

ROOT = Path(__file__).resolve().parents[2]


def _step(reward: float = 0.0, advantage: float = 0.0) -> Step:
    step = Step([1, 2], [3], "look", 1.0, -0.5, candidates=[[3]], choice=0, reward=reward)
    step.advantage = advantage
    return step


class ThreadRanks:
    """``sum_across`` for N ranks simulated by threads: a real all-reduce (sum) in one process."""

    def __init__(self, ranks: int) -> None:
        self.barrier = threading.Barrier(ranks)
        self.slots: list = [None] * ranks

    def sum_for(self, rank: int):
        def sum_across(values: np.ndarray) -> np.ndarray:
            self.slots[rank] = np.asarray(values, dtype=np.float64)
            self.barrier.wait()
            total = np.sum(self.slots, axis=0)
            self.barrier.wait()  # nobody overwrites a slot before everyone has read
            return total

        return sum_across

    def run(self, work) -> None:
        """``work(rank, sum_across)`` on every rank at once."""
        threads = [
            threading.Thread(target=work, args=(rank, self.sum_for(rank)))
            for rank in range(len(self.slots))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)


# ---- sharding --------------------------------------------------------------------------------
def test_shard_is_contiguous_balanced_and_covers_everything():
    items = list(range(10))
    shards = [DataParallel(rank, 3).shard(items) for rank in range(3)]
    assert shards == [[0, 1, 2], [3, 4, 5], [6, 7, 8, 9]]
    assert DataParallel().shard(items) == items  # single process: everything
    assert [DataParallel(r, 4).shard([1, 2]) for r in range(4)] == [[], [1], [], [2]]


def test_shard_groups_never_splits_a_grpo_group():
    jobs = [Job(seed, group) for group, seed in enumerate((7, 8, 9, 10)) for _ in range(3)]
    shards = [DataParallel(rank, 2).shard_groups(jobs) for rank in range(2)]
    assert [j.group for j in shards[0]] == [0, 0, 0, 1, 1, 1]
    assert [j.group for j in shards[1]] == [2, 2, 2, 3, 3, 3]
    assert shards[0] + shards[1] == jobs


def test_world_size_must_divide_episodes_and_groups():
    check_world_size(1, 7, None)  # single process: anything goes
    check_world_size(2, 16, 4)
    with pytest.raises(ValueError, match="divisible by the 3 processes"):
        check_world_size(3, 16, None)
    with pytest.raises(ValueError, match="episodes_per_update=8 or a multiple"):
        check_world_size(2, 12, 4)  # 3 groups of 4 over 2 ranks


# ---- global statistics -----------------------------------------------------------------------
def test_batch_mean_std_without_collective_is_numpy():
    values = np.array([0.3, -1.2, 4.0, 2.5])
    assert batch_mean_std(values) == (float(values.mean()), float(values.std()), 4)
    assert batch_mean_std(np.array([])) == (0.0, 0.0, 0)
    # a one-rank "all-reduce" (identity) gives the same statistics
    mean, std, count = batch_mean_std(values, lambda v: v)
    assert (mean, std, count) == pytest.approx((values.mean(), values.std(), 4), rel=1e-12)


@pytest.mark.parametrize("centre", [True, False])
def test_normalise_over_two_ranks_equals_whole_batch(centre):
    advantages = [1.0, 2.0, 3.5, -4.0, 0.25, 7.0, 0.0]
    whole = [_step(advantage=a) for a in advantages]
    normalize_advantages(whole, centre=centre)
    parts = [
        [_step(advantage=a) for a in advantages[:3]],
        [_step(advantage=a) for a in advantages[3:]],
    ]
    ThreadRanks(2).run(
        lambda rank, sum_across: normalize_advantages(parts[rank], centre, sum_across)
    )
    got = [s.advantage for part in parts for s in part]
    assert got == pytest.approx([s.advantage for s in whole], abs=1e-12)


def test_grpo_batch_scale_over_two_ranks_equals_whole_batch():
    returns = [(1.0, 0.0), (0.95, 1.0), (0.5, 0.5), (0.2, 0.9)]

    def episodes():
        return [
            Episode(seed=g, group=g, steps=[_step(r)]) for g, rs in enumerate(returns) for r in rs
        ]

    whole = episodes()
    assign_grpo_advantages(whole, scale="batch")
    mine = episodes()
    parts = [mine[:4], mine[4:]]  # two whole groups per rank
    ThreadRanks(2).run(lambda rank, total: assign_grpo_advantages(parts[rank], "batch", total))
    expected = [e.steps[0].advantage for e in whole]
    assert [e.steps[0].advantage for e in mine] == pytest.approx(expected, abs=1e-12)
    assert expected[4] == expected[5] == 0.0  # the all-equal group still carries no signal


# ---- what crosses processes ------------------------------------------------------------------
def test_light_episodes_keep_the_metrics_and_drop_the_tokens():
    episode = Episode(seed=1, group=0, steps=[_step(0.5), _step(1.0)], success=True, score=1.0)
    light = light_episodes([episode])
    assert episode_metrics(light) == episode_metrics([episode])
    assert light[0].steps[0].prompt_ids == [] and light[0].steps[0].candidates is None
    assert episode.steps[0].prompt_ids == [1, 2]  # the original is untouched


def test_inactive_metrics_logger_writes_nothing(tmp_path):
    from agentgym_train.config import LoggingConfig

    logger = MetricsLogger(tmp_path, LoggingConfig(tensorboard=True), {}, active=False)
    logger.log(1, {"x": 1.0})
    logger.event(1, "rollback", "no")
    logger.close()
    assert list(tmp_path.iterdir()) == []


def test_single_process_collectives_change_nothing():
    parallel = DataParallel()
    param = torch.nn.Parameter(torch.ones(3))
    param.grad = torch.tensor([1.0, 2.0, 3.0])
    parallel.mean_gradients([param])
    assert param.grad.tolist() == [1.0, 2.0, 3.0]
    assert parallel.gather([1, 2]) == [1, 2] and parallel.max_int(4) == 4
    assert parallel.sum_floats([1.5]).tolist() == [1.5] and parallel.broadcast_object(3) == 3
    a = {"w": torch.zeros(2)}
    assert fingerprint(a) == fingerprint({"w": torch.zeros(2)})
    assert fingerprint(a) != fingerprint({"w": torch.tensor([0.0, 1e-30])})


def test_process_group_waits_the_configured_timeout(monkeypatch):
    import accelerate

    seen = {}

    class FakeState:  # records what the process group would be created with
        def __init__(self, cpu, **kwargs):
            seen.update(cpu=cpu, **kwargs)
            self.num_processes, self.process_index, self.device = 2, 1, torch.device("cpu")

    monkeypatch.setenv("WORLD_SIZE", "2")
    monkeypatch.setattr(accelerate, "PartialState", FakeState)
    parallel = DataParallel.for_run("cpu", episodes=8, group_size=None, timeout_minutes=90)
    assert seen == {"cpu": True, "timeout": timedelta(minutes=90)}
    assert (parallel.rank, parallel.world_size) == (1, 2)


def test_fingerprint_sees_one_bit_and_not_the_chunking(monkeypatch):
    import agentgym_train.distributed as distributed

    w = torch.randn(300, 7)
    nudged = w.clone()
    nudged[123, 4] = torch.nextafter(nudged[123, 4], torch.tensor(9.0))  # one bit
    whole = fingerprint({"w": w})
    assert whole != fingerprint({"w": nudged})
    assert whole != fingerprint({"w": w.t().contiguous()}) != fingerprint({"v": w})
    assert fingerprint({"w": w.bfloat16()}) != fingerprint({"w": w.half()})
    monkeypatch.setattr(distributed, "CHECKSUM_CHUNK", 5)
    assert fingerprint({"w": w}) == whole


# ---- a real 2-process run --------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _train(run: Path, tiny_dir: str, processes: int, *overrides: str):
    """``agentgym_train.cli`` in ``processes`` gloo processes (``accelerate launch``) or one."""
    launcher = [
        sys.executable, "-m", "accelerate.commands.launch", "--multi_gpu", "--num_processes",
        str(processes), "--num_machines", "1", "--mixed_precision", "no", "--dynamo_backend",
        "no", "--main_process_port", str(_free_port()), "-m", "agentgym_train.cli",
    ] if processes > 1 else [sys.executable, "-m", "agentgym_train.cli"]  # fmt: skip
    command = [
        *launcher,
        f"logging.run_dir={run}", f"policy.model={tiny_dir}", "logging.progress=false",
        "logging.tensorboard=false", f"rollout.system_template={SYSTEM}", "device=cpu",
        "torch_threads=1", "updates=2", "checkpoint.every=1", "rollout.num_envs=4",
        "rollout.episodes_per_update=16", "rollout.max_turns=4", "algorithm.ppo_epochs=2",
        "algorithm.minibatch_size=10", "algorithm.group_size=4", *overrides,
    ]  # fmt: skip
    env = {**os.environ, "OMP_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false"}
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]
    return done


RUNS = {
    "ppo_eval": ["evaluation.every=1", "evaluation.episodes=5", "algorithm.kl_coef=0.05"],
    "grpo_batch_bc": [
        "algorithm.name=grpo",
        "algorithm.grpo_scale=batch",
        "bc.enabled=true",
        "bc.episodes=6",
        "bc.epochs=1",
        "bc.batch_size=5",
        "evaluation.episodes=3",
    ],
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RUNS))
def test_two_process_run_counts_every_episode_and_keeps_ranks_identical(name, tiny_dir, tmp_path):
    run = tmp_path / "run"
    done = _train(run, tiny_dir, 2, *RUNS[name])
    assert done.stdout.count("done: 2 updates") == 1  # only rank 0 reports

    rows = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]
    train = [r for r in rows if "train/episodes" in r]
    assert [r["update"] for r in train] == [1, 2]  # one row per update: only rank 0 writes
    assert all(r["train/episodes"] == 16 for r in train)  # both ranks' episodes, once each
    if name == "ppo_eval":
        evals = [r for r in rows if "eval/valid/episodes" in r]
        assert [r["eval/valid/episodes"] for r in evals] == [5, 5]  # 3 + 2 gathered
    else:
        assert [r for r in rows if "bc/examples" in r]

    ranks = json.loads((run / "ranks.json").read_text())
    assert ranks["world_size"] == 2 and ranks["update"] == 2
    first, second = ranks["trainable"]
    assert first == second  # bit-identical weights on both ranks
    final = run / "checkpoints" / "update_000002"
    assert fingerprint(torch.load(final / "trainable.pt")) == first
    assert len(torch.load(final / "rng_ranks.pt", weights_only=False)) == 2


@pytest.mark.slow
def test_two_processes_learn_what_one_process_learns(tiny_dir, tmp_path):
    # greedy rollouts play the same episodes however the jobs are split; one minibatch per
    # epoch (64 turns in one process = 2 x 32) makes the averaged gradient the whole batch's
    common = [
        "rollout.temperature=0", "reward.step_penalty=0.01", "algorithm.kl_coef=0.05",
        "bc.enabled=true", "bc.episodes=8", "bc.epochs=1", "bc.batch_size=7",
        "evaluation.episodes=3",
    ]  # fmt: skip
    _train(tmp_path / "one", tiny_dir, 1, *common, "algorithm.minibatch_size=64")
    _train(tmp_path / "two", tiny_dir, 2, *common, "algorithm.minibatch_size=32")
    _assert_learned_alike(tmp_path / "one", tmp_path / "two", "loss/value_loss")


def _assert_learned_alike(one_dir: Path, two_dir: Path, *keys: str) -> None:
    """The two runs' final weights (which moved) and their logged metrics agree."""
    path = Path("checkpoints") / "update_000002" / "trainable.pt"
    one, two = torch.load(one_dir / path), torch.load(two_dir / path)
    assert sorted(one) == sorted(two)
    start = torch.load(one_dir / "checkpoints" / "update_000001" / "trainable.pt")
    assert max(float((one[k] - start[k]).abs().max()) for k in one) > 1e-4  # it did learn
    for name, tensor in one.items():
        assert two[name].shape == tensor.shape, name
        torch.testing.assert_close(two[name], tensor, atol=1e-5, rtol=1e-4)
    rows = [
        [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]
        for run in (one_dir, two_dir)
    ]
    for a, b in zip(*rows, strict=True):
        for key in ("train/return", "loss/grad_norm", "bc/loss_last", *keys):
            if key in a:
                assert b[key] == pytest.approx(a[key], rel=1e-4, abs=1e-6), key


# ---- sharded weights (sharding=fsdp) ----------------------------------------------------------
SHARDED_COMMON = [
    "rollout.temperature=0", "reward.step_penalty=0.01", "algorithm.kl_coef=0.05",
    "bc.enabled=true", "bc.episodes=8", "bc.epochs=1", "bc.batch_size=7",
    "bc.micro_batch_size=2", "algorithm.micro_batch_size=7", "evaluation.episodes=3",
]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("lora", ["true", "false"])
def test_sharded_processes_learn_what_one_process_learns(lora, tiny_dir, tmp_path):
    # as above, with each rank holding half of every weight, gradient and AdamW moment (LoRA:
    # of the adapters; full fine-tune: of the whole LM and of the frozen reference for the KL)
    common = [*SHARDED_COMMON, f"policy.lora={lora}"]
    _train(tmp_path / "one", tiny_dir, 1, *common, "algorithm.minibatch_size=64")
    _train(tmp_path / "two", tiny_dir, 2, *common, "algorithm.minibatch_size=32", "sharding=fsdp")
    ranks = json.loads((tmp_path / "two" / "ranks.json").read_text())
    assert ranks["sharding"] == "fsdp" and ranks["world_size"] == 2
    # whole tensors under the single-process names, as one process learned them
    _assert_learned_alike(tmp_path / "one", tmp_path / "two", "loss/kl_ref")


@pytest.mark.slow
def test_sharded_run_resumes_exactly_from_its_checkpoint(tiny_dir, tmp_path):
    # the checkpoint holds whole tensors; resuming cuts them back into shards (weights and AdamW
    # moments) and restores every rank's RNG: update 2 is played and learned again bit for bit
    common = [*SHARDED_COMMON, "policy.lora=false", "sharding=fsdp", "rollout.temperature=1"]
    _train(tmp_path / "run", tiny_dir, 2, *common)
    checkpoints = tmp_path / "run" / "checkpoints"
    weights = torch.load(checkpoints / "update_000001" / "trainable.pt")
    moments = torch.load(checkpoints / "update_000001" / "optimizer.pt")["state"]
    for index, tensor in enumerate(weights.values()):  # whole moments, not rank 0's shard
        assert moments[index]["exp_avg"].shape == tensor.shape
    again = tmp_path / "again"
    (again / "checkpoints").mkdir(parents=True)
    shutil.copytree(checkpoints / "update_000001", again / "checkpoints" / "update_000001")
    _train(again, tiny_dir, 2, *common)
    path = Path("checkpoints") / "update_000002" / "trainable.pt"
    original, resumed = torch.load(tmp_path / "run" / path), torch.load(again / path)
    for name, tensor in original.items():
        assert torch.equal(resumed[name], tensor), name
