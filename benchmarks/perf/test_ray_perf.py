"""Ray vector env: per-step overhead against a local sync vector env, and throughput by actors.

Run: ``pytest benchmarks/perf/test_ray_perf.py --benchmark-enable``. One vector step of 8 Toy
envs (each env step is microseconds, so the figure is Ray's overhead) with the local
``SyncVectorEnv`` and with ``RayVectorEnv`` over 1, 2 and 4 actors; then env steps/s of 8
WebShop envs (milliseconds a step: where spreading envs over actors can pay).
"""

from __future__ import annotations

import time

import pytest

ray = pytest.importorskip("ray")

import gymnasium as gym  # noqa: E402

import agentgym_envs  # noqa: E402,F401

NUM_ENVS = 8


@pytest.fixture(scope="module")
def local_ray():
    ray.init(include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _make(backend: str, env_id: str, actors: int = 1, **kwargs):
    if backend == "sync":
        return gym.make_vec(env_id, num_envs=NUM_ENVS, vectorization_mode="sync", **kwargs)
    from agentgym_ray import RayVectorEnv

    return RayVectorEnv(env_id, NUM_ENVS, num_actors=actors, env_kwargs=kwargs)


@pytest.mark.parametrize(("backend", "actors"), [("sync", 1), ("ray", 1), ("ray", 2), ("ray", 4)])
def test_toy_vector_step(benchmark, local_ray, backend, actors):
    envs = _make(backend, "AgentGym/Toy-v0", actors)
    envs.reset(seed=0)
    benchmark.pedantic(lambda: envs.step(["look"] * NUM_ENVS), rounds=50, iterations=1)
    envs.close()


def _steps_per_second(envs, actions_for) -> float:
    _, infos = envs.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < 5.0:
        _, _, _, _, infos = envs.step(actions_for(infos))
        steps += NUM_ENVS
    return steps / (time.perf_counter() - start)


@pytest.mark.parametrize(("backend", "actors"), [("sync", 1), ("ray", 1), ("ray", 2), ("ray", 4)])
def test_webshop_env_steps_per_second(benchmark, local_ray, backend, actors):
    pytest.importorskip("bm25s")
    envs = _make(backend, "AgentGym/WebShop-v0", actors)
    rate = _steps_per_second(envs, lambda infos: [f"search[{g[:40]}]" for g in infos["goal"]])
    envs.close()
    benchmark.extra_info["env_steps_per_s"] = round(rate, 1)
    benchmark.pedantic(lambda: None, rounds=1, iterations=1)
    print(f"\n{backend} x{actors}: {rate:.0f} WebShop env steps/s")
    assert rate > 0


@pytest.mark.parametrize(("backend", "actors"), [("sync", 1), ("ray", 2), ("ray", 4)])
def test_miniwob_env_steps_per_second(benchmark, local_ray, backend, actors):
    """MiniWoB steps take ~30 ms (a browser round trip): the case actors are for."""
    from agentgym_envs.miniwob.browser import browser_available

    if not browser_available()[0]:
        pytest.skip("needs Chromium")
    envs = _make(backend, "AgentGym/MiniWoB-click-test-v0", actors, expert=False)
    rate = _steps_per_second(envs, lambda infos: ["click [1]"] * NUM_ENVS)
    envs.close()
    benchmark.extra_info["env_steps_per_s"] = round(rate, 1)
    benchmark.pedantic(lambda: None, rounds=1, iterations=1)
    print(f"\n{backend} x{actors}: {rate:.0f} MiniWoB click-test env steps/s")
    assert rate > 0
