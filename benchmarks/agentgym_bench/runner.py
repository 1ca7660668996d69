"""Run agents on envs and collect one result per episode."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import gymnasium as gym
from tqdm.auto import tqdm

import agentgym_envs
from agentgym_envs.agents import make_agent
from agentgym_envs.core.episode import play_episode
from agentgym_envs.registration import entry_for, one_per_family


@dataclass(frozen=True)
class EpisodeResult:
    """What one episode of one agent on one task came to."""

    env_id: str
    agent: str
    difficulty: str
    split: str
    task_id: str
    seed: int
    score: float
    success: bool
    length: int
    invalid_actions: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def installed_env_ids(quick: bool = True) -> tuple[list[str], dict[str, str]]:
    """The registered ids whose dependencies are installed, and why the others are skipped."""
    ready, skipped = [], {}
    for entry in one_per_family() if quick else agentgym_envs.ENTRIES:
        missing = entry.missing()
        if missing:
            skipped[entry.id] = f"missing {', '.join(missing)} ({entry.install_hint()})"
        else:
            ready.append(entry.id)
    return ready, skipped


def run_episode(env: gym.Env, agent_name: str, seed: int) -> EpisodeResult:
    """Play one seeded episode to its end (termination or the registered step limit)."""
    played = play_episode(env, make_agent(agent_name), seed)
    return EpisodeResult(
        env_id=played.env_id,
        agent=agent_name,
        difficulty=played.difficulty,
        split=played.split,
        task_id=played.task_id,
        seed=seed,
        score=played.score,
        success=played.success,
        length=played.length,
        invalid_actions=played.invalid_actions,
    )


def run_benchmark(
    env_difficulties: Sequence[tuple[str, str]],
    agents: Sequence[str],
    splits: Sequence[str],
    episodes: int,
    seed: int = 0,
    progress: bool = True,
) -> list[EpisodeResult]:
    """Every (env, difficulty) pair x split x agent for ``episodes`` seeds ``seed, seed+1, ...``
    (pairs, not a product: one MiniWoB task id has one difficulty).

    All agents see the same seeds, hence the same tasks, so their figures compare directly.
    """
    cells = [(e, d, s) for e, d in env_difficulties for s in splits if s in entry_for(e).splits]
    results: list[EpisodeResult] = []
    bar = tqdm(total=len(cells) * len(agents) * episodes, disable=not progress, unit="ep")
    for env_id, difficulty, split in cells:
        env = gym.make(env_id, difficulty=difficulty, split=split)
        try:
            for agent_name in agents:
                bar.set_description(f"{env_id} {difficulty}/{split} {agent_name}")
                for episode_seed in _seeds(seed, episodes):
                    results.append(run_episode(env, agent_name, episode_seed))
                    bar.update()
        finally:
            env.close()
    bar.close()
    return results


def _seeds(first: int, count: int) -> Iterable[int]:
    return range(first, first + count)
