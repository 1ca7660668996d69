"""``agentgym serve`` speed: the per-step overhead of a served env against the same env in
process (median and p90, per family), and sessions/s (open, reset, close) with 1, 8 and 32
concurrent clients on Toy.

Run: ``pytest benchmarks/perf/test_serve_perf.py --benchmark-enable -s`` (prints the tables).
Step latency: both paths play the same seeded episodes with the same seeded random admissible
actions, resetting (untimed) when an episode ends; only the steps are timed, after 10 untimed
warm-up steps. In process is ``gym.make(id, expert=False)`` (the server makes its envs so);
served is one OpenEnv sync client (``GenericEnvClient(...).sync()``) on a uvicorn server in a
thread of this process, as tests/adapters/test_serve.py runs it, so the overhead is the whole
round trip: the client's JSON and frames, its loop thread, the server's, and the hop to the
session's thread. The benchmark's own timing is the served step; the in-process figures and the
overhead are in ``extra_info``. Sessions/s: an ``agentgym serve`` process of its own (its GIL
apart from the clients'), clients as raw ``websockets`` connections in one asyncio loop, each
looping open -> reset -> close for 5 s.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import statistics
import time
from collections.abc import Callable

import pytest

pytest.importorskip("uvicorn", reason="needs the serve extra: pip install 'agentgym-suite[serve]'")
pytest.importorskip("websockets", reason="needs the serve extra")
pytest.importorskip("openenv.core", reason="openenv-core is in the test extra")

import gymnasium as gym
import websockets
from agentgym_serve.local import ProcessServer, ThreadServer
from agentgym_serve.sessions import ServerSettings
from openenv.core import GenericEnvClient

from agentgym_envs.registration import entry_for

FAMILIES = [  # (id, make keywords, timed steps)
    pytest.param("AgentGym/Toy-v0", {}, 500, id="Toy"),
    pytest.param("AgentGym/WebShop-v0", {"difficulty": "easy"}, 300, id="WebShop"),
    pytest.param("AgentGym/ALFWorld-v0", {"difficulty": "easy"}, 300, id="ALFWorld"),
    pytest.param("AgentGym/MiniWoB-click-test-2-v0", {}, 200, id="MiniWoB"),
]
WARMUP_STEPS = 10
CLIENTS = (1, 8, 32)
SESSION_SECONDS = 5.0


def _ms(seconds: list[float]) -> dict[str, float]:
    """Median and p90 of step times, in ms."""
    ordered = sorted(seconds)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return {"median": 1000 * statistics.median(ordered), "p90": 1000 * p90}


class Episodes:
    """Seeded episodes of seeded random admissible actions: ``action()`` (untimed: resets when
    the last episode ended) gives the next action, ``stepped(info, done)`` records a step."""

    def __init__(self, reset: Callable[[int], dict]) -> None:
        self.reset, self.rng, self.seeds = reset, random.Random(0), itertools.count()
        self.info: dict = {}
        self.done = True
        self.actions: list[str] = []  # every action given, warm-up included

    def action(self) -> str:
        if self.done:
            self.info, self.done = self.reset(next(self.seeds)), False
        self.actions.append(self.rng.choice(self.info["admissible_actions"]))
        return self.actions[-1]

    def stepped(self, info: dict, done: bool) -> None:
        self.info, self.done = info, done


def _in_process(env_id: str, kwargs: dict, steps: int) -> tuple[list[float], list[str]]:
    """Step times (s) of ``steps`` steps in process, and every action taken."""
    env = gym.make(env_id, expert=False, **kwargs)
    episodes = Episodes(lambda seed: env.reset(seed=seed)[1])
    times: list[float] = []
    for _ in range(WARMUP_STEPS + steps):
        action = episodes.action()
        start = time.perf_counter()
        _, _, terminated, truncated, info = env.step(action)
        times.append(time.perf_counter() - start)
        episodes.stepped(info, terminated or truncated)
    env.close()
    return times[WARMUP_STEPS:], episodes.actions


@pytest.fixture(scope="module")
def table():
    """Rows of the step-overhead table, printed at the end of the module."""
    rows: list[str] = []
    yield rows
    if rows:
        print(
            "\nper-step latency, ms (median / p90): in process, served, overhead (served minus"
            " in process), paired overhead (each step's own difference)"
        )
        print("\n".join(rows))


@pytest.mark.parametrize(("env_id", "kwargs", "steps"), FAMILIES)
def test_step_overhead(benchmark, table, env_id, kwargs, steps):
    entry = entry_for(env_id)
    if entry.missing():
        pytest.skip(f"{env_id} needs {entry.install_hint()}")
    local_times, local_actions = _in_process(env_id, kwargs, steps)
    local = _ms(local_times)
    server = ThreadServer(ServerSettings((env_id,)))
    times: list[float] = []
    try:
        with GenericEnvClient(base_url=server.url).sync() as client:

            def reset(seed: int) -> dict:
                return client.reset(seed=seed, **kwargs).observation["info"]

            episodes = Episodes(reset)

            def setup() -> tuple[tuple, dict]:
                return (episodes.action(),), {}

            def step(action: str) -> None:
                start = time.perf_counter()
                result = client.step({"action": action})
                times.append(time.perf_counter() - start)
                episodes.stepped(result.observation["info"], result.done)

            for _ in range(WARMUP_STEPS):
                step(episodes.action())
            times.clear()
            benchmark.pedantic(step, setup=setup, rounds=steps, iterations=1)
    finally:
        server.stop()
    served = _ms(times)
    overhead = {key: served[key] - local[key] for key in ("median", "p90")}
    # the same actions on both paths (seeded, deterministic envs): each step's own difference
    # too, which a mix of fast and slow actions (MiniWoB's) does not blur
    same = episodes.actions == local_actions and len(times) == len(local_times)
    paired = _ms([a - b for a, b in zip(times, local_times, strict=True)]) if same else None
    if paired:
        overhead.update({f"paired_{key}": value for key, value in paired.items()})
    for name, figures in (("in_process", local), ("served", served), ("overhead", overhead)):
        for key, value in figures.items():
            benchmark.extra_info[f"{name}_{key}_ms"] = round(value, 3)
    benchmark.extra_info["steps"] = len(times)
    benchmark.extra_info["same_actions"] = same
    table.append(
        f"  {env_id:34} {local['median']:7.2f} / {local['p90']:7.2f}   "
        f"{served['median']:7.2f} / {served['p90']:7.2f}   "
        f"{overhead['median']:+7.2f} / {overhead['p90']:+7.2f}   "
        + (
            f"{paired['median']:+7.2f} / {paired['p90']:+7.2f}"
            if paired
            else "   (not the same actions)"
        )
    )


# ----------------------------------------------------------------------------------- sessions/s
async def _sessions_per_second(ws_url: str, clients: int, seconds: float) -> float:
    """Sessions (open, reset, close) completed per second by ``clients`` concurrent clients."""
    done = [0]
    deadline = time.perf_counter() + seconds

    async def client(index: int) -> None:
        seed = index * 100_000
        while time.perf_counter() < deadline:
            async with websockets.connect(ws_url, open_timeout=60) as ws:
                await ws.send(json.dumps({"type": "reset", "data": {"seed": seed}}))
                reply = json.loads(await ws.recv())
                assert reply["type"] == "observation", reply
                await ws.send(json.dumps({"type": "close"}))
            done[0] += 1
            seed += 1

    start = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(clients)))
    return done[0] / (time.perf_counter() - start)


def test_sessions_per_second(benchmark):
    """Sessions/s on Toy with 1, 8 and 32 concurrent clients (after a 1 s warm-up)."""
    server = ProcessServer(("AgentGym/Toy-v0",), "--max-sessions", "64")
    ws_url = f"ws://127.0.0.1:{server.port}/ws"
    figures: dict[str, float] = {}
    try:
        asyncio.run(_sessions_per_second(ws_url, 8, 1.0))  # warm-up
        for clients in CLIENTS:
            rate = asyncio.run(_sessions_per_second(ws_url, clients, SESSION_SECONDS))
            figures[f"sessions_per_s_{clients}_clients"] = round(rate, 1)
        benchmark.extra_info.update(figures)
        benchmark.pedantic(lambda: None, rounds=1, iterations=1)
    finally:
        server.stop()
    print("\nsessions/s (open, reset, close) on Toy:", figures)
    assert all(rate > 0 for rate in figures.values())
