"""Core speed: how long registering costs and how fast the Toy env steps."""

from __future__ import annotations

import subprocess
import sys

import gymnasium as gym

import agentgym_envs  # noqa: F401


def test_import_time(benchmark):
    """A fresh interpreter importing agentgym_envs (gymnasium included), minus bare start-up."""

    def run(code: str) -> None:
        subprocess.run([sys.executable, "-c", code], check=True)

    benchmark.pedantic(run, args=("import agentgym_envs",), rounds=5, iterations=1)


def test_toy_step(benchmark):
    env = gym.make("AgentGym/Toy-v0", difficulty="hard", expert=False)
    env.reset(seed=0)

    def step() -> None:
        _, _, terminated, truncated, _ = env.step("look")
        if terminated or truncated:
            env.reset()

    benchmark(step)


def test_toy_reset(benchmark):
    env = gym.make("AgentGym/Toy-v0", difficulty="hard")
    benchmark(env.reset)
