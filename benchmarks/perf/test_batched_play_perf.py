"""Batched play (``agentgym bench run --batch-size``): agent steps per second of an ``hf:`` agent
in generate mode, one episode at a time (batch 1) vs 8 in lock-step (one left-padded
``generate`` per turn), on one CPU thread as a runner worker uses it.

``tiny``: the tests' randomly initialised tiny Llama (64 wide, 2 layers; 24 Toy episodes of at
most 4 steps); ``smollm2``: SmolLM2-135M-Instruct when it has been converted into the cache
(``agentgym_train.smollm``; skipped otherwise; 8 episodes of at most 3 steps). Both play
in-process through the worker's own loops (``EpisodePlayer.play``, ``player.serve``), so the
figure is the agent and env time, without worker start-up. ``extra_info["steps_per_s"]`` holds
the rate (steps played / mean seconds per round).

`pytest benchmarks/perf/test_batched_play_perf.py --benchmark-enable`
"""

from __future__ import annotations

import queue
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="needs the train extra: pip install '.[train]'")
pytest.importorskip("peft", reason="needs the train extra: pip install '.[train]'")

from agentgym_bench import player as worker
from agentgym_bench import suite_runner
from agentgym_bench.suites import resolve

SUITES = {
    "tiny": """\
name: perf-batched
version: 1
envs:
  AgentGym/Toy-v0:
    difficulties: [easy, medium, hard]
    splits: [test]
    episodes: 8
    max_steps: 4
""",
    "smollm2": """\
name: perf-batched-smollm2
version: 1
envs:
  AgentGym/Toy-v0:
    difficulties: [easy, medium]
    splits: [test]
    episodes: 4
    max_steps: 3
""",
}
GENERATE = ["rollout.action_mode=generate", "rollout.max_new_tokens=24"]


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> dict[str, Path | None]:
    from agentgym_train.smollm import SmolLM2Unavailable, cache_home, is_complete, smollm2_path
    from agentgym_train.tiny import build_tiny_model

    smollm2 = None
    if is_complete(cache_home() / "models" / "smollm2-135m-instruct"):
        try:
            smollm2 = smollm2_path()
        except SmolLM2Unavailable:
            smollm2 = None
    tiny = build_tiny_model(tmp_path_factory.mktemp("perf") / "tiny", episodes=40)
    return {"tiny": tiny, "smollm2": smollm2}


@pytest.mark.parametrize("batch", [1, 8])
@pytest.mark.parametrize("model", ["tiny", "smollm2"])
def test_hf_agent_steps_per_second(benchmark, models, tmp_path, model: str, batch: int):
    path = models[model]
    if path is None:
        pytest.skip("SmolLM2-135M-Instruct is not converted into the cache")
    (tmp_path / "suite.yaml").write_text(SUITES[model])
    specs = resolve(str(tmp_path / "suite.yaml")).episodes
    options = {"overrides": GENERATE, "threads": 1}
    settings = suite_runner.RunSettings(f"hf:{path}", options, batch_size=batch)

    def play() -> int:
        player = worker.EpisodePlayer(settings, {})
        if batch == 1:
            records = [player.play(spec) for spec in specs]
        else:
            tasks: queue.Queue = queue.Queue()
            results: queue.Queue = queue.Queue()
            for spec in [*specs, None]:
                tasks.put(spec)
            worker.serve(player, batch, tasks, results, 0)
            records = [p for kind, _, _, p in list(results.queue) if kind == "done"]
        player.close()
        assert len(records) == len(specs) and not any(r["error"] for r in records)
        return sum(r["length"] for r in records)

    play()  # loads the model once (kept per process), untimed
    steps = benchmark.pedantic(play, rounds=1 if model == "smollm2" else 3, iterations=1)
    benchmark.extra_info["steps"] = steps
    if benchmark.stats:
        benchmark.extra_info["steps_per_s"] = steps / benchmark.stats.stats.mean
