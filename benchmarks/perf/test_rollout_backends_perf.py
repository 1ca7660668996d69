"""Trainer rollouts by env backend (``rollout.backend``): the wall time of one ``collect`` and
the part of it spent in vector env steps, with the tiny LoRA policy in score mode on one torch
thread (4 envs, 8 episodes of at most 4 turns).

Run: ``pytest benchmarks/perf/test_rollout_backends_perf.py --benchmark-enable``. WebShop steps
take about a millisecond, so its backends show their overhead; MiniWoB steps take ~55 ms in the
browser, where stepping the slots concurrently (the id's own vector env, or processes) pays.
Start-up (processes, catalog, browser) is left out: a warm-up ``collect`` runs first.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="needs the train extra: pip install '.[train]'")
pytest.importorskip("peft", reason="needs the train extra: pip install '.[train]'")

NUM_ENVS = 4
CASES = [
    ("AgentGym/WebShop-v0", "{difficulty: easy}", "sync"),
    ("AgentGym/WebShop-v0", "{difficulty: easy}", "async"),
    ("AgentGym/WebShop-v0", "{difficulty: easy}", "ray"),
    ("AgentGym/MiniWoB-v0", "{task: click-checkboxes, difficulty: medium}", "sync"),
    ("AgentGym/MiniWoB-v0", "{task: click-checkboxes, difficulty: medium}", "vector_entry_point"),
    ("AgentGym/MiniWoB-v0", "{task: click-checkboxes, difficulty: medium}", "async"),
]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from agentgym_train.config import load_config
    from agentgym_train.models import base_model_path

    torch.set_num_threads(1)
    root = tmp_path_factory.mktemp("rollout-perf")
    config = load_config(None, [f"logging.run_dir={root}", "policy.tiny_pretrain_steps=0"])
    return root, str(base_model_path(config, root))


@pytest.mark.parametrize(("env_id", "kwargs", "backend"), CASES,
                         ids=[f"{c[0].split('/')[1]}-{c[2]}" for c in CASES])  # fmt: skip
def test_collect_by_backend(benchmark, tiny, env_id, kwargs, backend):
    from agentgym_train.config import load_config
    from agentgym_train.policy import Policy
    from agentgym_train.rollout import Job, RolloutCollector, new_stats

    if backend == "ray":
        ray = pytest.importorskip("ray")
        if not ray.is_initialized():
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    root, model = tiny
    config = load_config(None, [
        f"logging.run_dir={root}", f"policy.model={model}", f"rollout.env_id={env_id}",
        f"rollout.env_kwargs={kwargs}", f"rollout.backend={backend}", "rollout.max_turns=4",
        "rollout.ray_actors=2", "rollout.max_history_tokens=256",
    ])  # fmt: skip
    policy = Policy.load(model, config.policy, torch.device("cpu"), reference=False)
    collector = RolloutCollector(policy, config.rollout, config.reward, num_envs=NUM_ENVS)
    collector.collect([Job(seed) for seed in range(NUM_ENVS)], 1.0)  # warm-up
    seconds = []

    def collect():
        collector.stats = new_stats()
        collector.collect([Job(100 + seed) for seed in range(2 * NUM_ENVS)], 1.0)
        seconds.append(collector.stats["env_seconds"])

    try:
        benchmark.pedantic(collect, rounds=3, iterations=1)
    finally:
        collector.close()
    benchmark.extra_info["env_seconds"] = round(sum(seconds) / len(seconds), 3)
    print(f"\n{env_id} {backend}: env steps {sum(seconds) / len(seconds):.3f} s a collect")
