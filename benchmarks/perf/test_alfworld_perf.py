"""ALFWorld speed: step and reset latency of the cached engine on a 25-receptacle house.

Targets (issue 4): median step < 10 ms, reset < 50 ms. Stock TextWorld PddlEnv is measured on
the same house for comparison.
Run: ``pytest benchmarks/perf/test_alfworld_perf.py --benchmark-enable``.
"""

from __future__ import annotations

import importlib.util
import itertools
import random

import pytest

pytestmark = pytest.mark.skipif(
    not all(importlib.util.find_spec(m) for m in ("textworld", "fast_downward", "alfworld")),
    reason="ALFWorld stack not installed (run scripts/install_alfworld.sh)",
)

TASK_ID = "alfworld-hard-test-00000"


@pytest.fixture(scope="module")
def env():
    from agentgym_envs.alfworld.env import ALFWorldEnv

    env = ALFWorldEnv("hard", "test", expert=False)
    env.reset(options={"task_id": TASK_ID})
    assert env.task.built.meta["num_receptacles"] >= 25
    yield env
    env.close()


def _stepper(env):
    """One step of a fixed walk: the walkthrough, then seeded random admissible commands."""
    rng = random.Random(0)
    plan: list[str] = []

    def restart() -> None:
        env.reset(options={"task_id": TASK_ID})
        plan[:] = env.task.built.walkthrough[:-1] + [""] * 30

    def step() -> None:
        if not plan:
            restart()
        command = plan.pop(0) or rng.choice(env.task.admissible_actions())
        if env.step(command)[2]:
            restart()

    restart()
    return step


def test_step_latency(benchmark, env) -> None:
    benchmark.extra_info["receptacles"] = env.task.built.meta["num_receptacles"]
    benchmark.pedantic(_stepper(env), rounds=300, iterations=1, warmup_rounds=10)


def test_step_latency_with_expert(benchmark) -> None:
    from agentgym_envs.alfworld.env import ALFWorldEnv

    env = ALFWorldEnv("hard", "test", expert=True)
    try:
        benchmark.pedantic(_stepper(env), rounds=300, iterations=1, warmup_rounds=10)
    finally:
        env.close()


def test_reset_latency_switching_games(benchmark, env) -> None:
    """Resets that alternate between four 25+ receptacle games (all recently loaded)."""
    ids = itertools.cycle(env.task_ids()[:4])
    benchmark.pedantic(
        lambda: env.reset(options={"task_id": next(ids)}), rounds=40, iterations=1, warmup_rounds=4
    )


def test_first_reset_of_a_cached_game(benchmark) -> None:
    """A new env's first reset: game and translation read from the disk cache, state built."""
    from agentgym_envs.alfworld import games
    from agentgym_envs.alfworld.env import ALFWorldEnv

    def first_reset() -> None:
        games._RECENT.clear()
        fresh = ALFWorldEnv("hard", "test", expert=False)
        fresh.reset(options={"task_id": TASK_ID})
        fresh.close()

    benchmark.pedantic(first_reset, rounds=10, iterations=1, warmup_rounds=1)


def test_reset_latency(benchmark, env) -> None:
    benchmark.pedantic(
        lambda: env.reset(options={"task_id": TASK_ID}), rounds=50, iterations=1, warmup_rounds=2
    )


def test_stock_pddl_env_step_latency(benchmark, env) -> None:
    import textworld
    from alfworld.agents.environment.alfred_tw_env import AlfredDemangler
    from textworld.envs.pddl import PddlEnv

    from agentgym_envs.alfworld.engine import isolated

    game = env.task.built.game
    with isolated():
        stock = AlfredDemangler(PddlEnv(textworld.EnvInfos(admissible_commands=True, won=True)))
        stock.load(game)
        state = stock.reset()
    rng = random.Random(0)

    def step():
        nonlocal state
        with isolated():
            state, _, _ = stock.step(rng.choice(state["admissible_commands"]))

    benchmark.pedantic(step, rounds=20, iterations=1)


def test_stock_pddl_env_reset_latency(benchmark, env) -> None:
    import textworld
    from alfworld.agents.environment.alfred_tw_env import AlfredDemangler
    from textworld.envs.pddl import PddlEnv

    from agentgym_envs.alfworld.engine import isolated

    game = env.task.built.game

    def load_and_reset():
        with isolated():
            stock = AlfredDemangler(PddlEnv(textworld.EnvInfos(admissible_commands=True, won=True)))
            stock.load(game)
            stock.reset()

    benchmark.pedantic(load_and_reset, rounds=3, iterations=1)
