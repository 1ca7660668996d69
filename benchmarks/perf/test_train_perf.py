"""Trainer throughput on CPU: rollout (scoring) tokens/s and update tokens/s of the tiny policy.

`pytest benchmarks/perf/test_train_perf.py --benchmark-enable`; the token rates are attached to
each result as ``extra_info`` (tokens processed per call / mean seconds per call).
"""

from __future__ import annotations

import random

import pytest

torch = pytest.importorskip("torch", reason="needs the train extra: pip install '.[train]'")
pytest.importorskip("peft", reason="needs the train extra: pip install '.[train]'")

SYSTEM = "Act in a text house. Answer with 'Action: <action>'. Actions: {action_help}"


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    from agentgym_train.algorithms import Learner, assign_ppo_advantages
    from agentgym_train.config import load_config
    from agentgym_train.models import base_model_path
    from agentgym_train.policy import Policy
    from agentgym_train.rollout import Job, RolloutCollector

    torch.set_num_threads(1)
    root = tmp_path_factory.mktemp("perf")
    config = load_config(
        None,
        [f"logging.run_dir={root}", f"rollout.system_template={SYSTEM}",
         "policy.tiny_pretrain_steps=0", "rollout.num_envs=16", "algorithm.ppo_epochs=1",
         "algorithm.minibatch_size=32"],
    )  # fmt: skip
    policy = Policy.load(base_model_path(config, root), config.policy, torch.device("cpu"), False)
    collector = RolloutCollector(policy, config.rollout, config.reward)
    optimizer = torch.optim.AdamW([p for p in policy.parameters() if p.requires_grad], lr=1e-3)
    learner = Learner(policy, optimizer, config.algorithm, "score", "sum")
    jobs = [Job(i) for i in range(16)]
    episodes = collector.collect(jobs, 1.0)
    assign_ppo_advantages(episodes, 1.0, 0.95)
    return collector, learner, jobs, [s for e in episodes for s in e.steps]


def test_rollout_tokens_per_second(benchmark, setup):
    from agentgym_train.rollout import new_stats

    collector, _, jobs, _ = setup

    def run():
        collector.stats = new_stats()
        collector.collect(jobs, 1.0)
        return collector.stats["gen_tokens"]

    tokens = benchmark.pedantic(run, rounds=3, iterations=1)
    benchmark.extra_info["tokens_per_call"] = tokens
    if benchmark.stats:
        benchmark.extra_info["tokens_per_s"] = tokens / benchmark.stats.stats.mean


def test_update_tokens_per_second(benchmark, setup):
    _, learner, _, steps = setup
    rng = random.Random(0)
    metrics = benchmark.pedantic(lambda: learner.update(steps, rng), rounds=3, iterations=1)
    benchmark.extra_info["tokens_per_call"] = metrics["train_tokens"]
    if benchmark.stats:
        benchmark.extra_info["tokens_per_s"] = metrics["train_tokens"] / benchmark.stats.stats.mean
