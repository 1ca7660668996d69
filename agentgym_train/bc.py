"""Behaviour cloning warm start: oracle (or recorded) trajectories → prompt/completion pairs →
supervised fine-tuning on the completion tokens only.

Examples are rendered with the trainer's own prompt builder, so the cloned policy sees exactly the
prompts RL will show it. Trajectories may come from the env's oracle (``info["expert_action"]``)
or from any JSONL file written by ``agentgym_envs.wrappers.TrajectoryRecorder``.
A small loop of our own is used rather than TRL's ``SFTTrainer``: the policy already computes
masked completion log-probs, and this keeps LoRA, value head and prompts identical to RL.

Data-parallel runs: every rank builds the same examples (the oracle is cheap and deterministic)
and the same shuffled batches; each rank computes the loss on its share of every batch, weighted
by its share of the batch's tokens, and gradients are averaged, so each step is the single-process
step up to float summation order, with 1/N of the compute per rank.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import gymnasium as gym
import torch

from agentgym_envs.core.episode import play_episode
from agentgym_envs.wrappers.prompt import Turn
from agentgym_train.config import BCConfig
from agentgym_train.distributed import DataParallel
from agentgym_train.rollout import ACTION_PREFIX, RolloutCollector

Example = tuple[list[int], list[int]]


def _completion(collector: RolloutCollector, action: str) -> list[int]:
    """The reply ids the policy would give for ``action``: the candidate's (score mode) or the
    action line and EOS (generate mode)."""
    turns = collector.turns
    if turns.config.action_mode == "score":
        return turns.candidate_ids(action)
    return [*turns.encode(f"{turns.action_prefix} {action}"), turns.policy.tokenizer.eos_token_id]


def oracle_trajectories(
    collector: RolloutCollector,
    episodes: int,
    seed: int = 0,
    env_kwargs: dict[str, Any] | None = None,
) -> list[dict]:
    """The env's oracle played for ``episodes`` seeds (on the collector's envs, or made with
    ``env_kwargs``): ``TrajectoryRecorder`` records with each step's admissible actions (what
    cloning learns to choose from)."""
    kwargs = collector.env_kwargs if env_kwargs is None else env_kwargs
    env = gym.make(collector.config.env_id, **kwargs)
    try:
        return [
            play_episode(env, _Oracle(), seed + episode, collector.config.max_turns,
                         admissible=True).to_record()
            for episode in range(episodes)
        ]  # fmt: skip
    finally:
        env.close()


class _Oracle:
    """The env's oracle, stopping where it has no move (so cloning never learns a filler)."""

    def act(self, observation: str, info: dict[str, Any]) -> str | None:
        return info.get("expert_action")


def read_trajectories(path: str | Path) -> list[dict]:
    """Trajectories from a TrajectoryRecorder JSONL file (record it with ``admissible=True``)."""
    file = Path(path)
    if not file.exists():
        raise FileNotFoundError(f"bc.dataset {file} does not exist")
    return [json.loads(line) for line in file.read_text().splitlines() if line.strip()]


def examples_from(collector: RolloutCollector, trajectories: list[dict]) -> list[Example]:
    """One (prompt ids, completion ids) pair per step, each prompt built as the rollout builds
    it (``TokenContext``: the earlier prompts and replies, then the observation)."""
    context = collector.turns.context
    examples: list[Example] = []
    for record in trajectories:
        history: list[Turn] = []
        observation = record["observation"]
        for step in record["steps"]:
            admissible = step.get("admissible_actions") or []
            if examples and history:
                prompt = context.follow(*examples[-1], history, observation, admissible)
            else:
                prompt = context.first(history, observation, admissible)
            examples.append((prompt, _completion(collector, step["action"])))
            history.append(Turn(observation, f"{ACTION_PREFIX} {step['action']}"))
            observation = step["observation"]
    return examples


def fine_tune(
    policy,
    examples: list[Example],
    config: BCConfig,
    seed: int = 0,
    parallel: DataParallel | None = None,
    progress: bool = False,
) -> dict:
    """Minimise the completion tokens' negative log-likelihood; returns first/last losses."""
    from tqdm.auto import tqdm

    parallel = parallel or DataParallel()
    params = [p for p in policy.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=config.lr)
    rng = random.Random(seed)
    losses = []
    policy.train()
    batches = config.epochs * math.ceil(len(examples) / config.batch_size)
    bar = tqdm(total=batches, desc="behaviour cloning", unit="batch", disable=not progress)
    for _ in range(config.epochs):
        order = list(range(len(examples)))
        rng.shuffle(order)
        for start in range(0, len(order), config.batch_size):
            batch = [examples[i] for i in order[start : start + config.batch_size]]
            mine = parallel.shard(batch)
            tokens = sum(len(b[1]) for b in batch)  # every rank's: the loss is the batch's mean
            optimizer.zero_grad(set_to_none=True)
            nll = 0.0
            step = config.micro_batch_size or max(len(mine), 1)
            with parallel.synced_gradients(params):
                for at in range(0, len(mine), step):  # gradient accumulation over micro-batches
                    micro = mine[at : at + step]
                    prompts, completions = [b[0] for b in micro], [b[1] for b in micro]
                    stats = policy.sequence_stats(prompts, completions, values=False)
                    micro_nll = -stats.token_logprobs.sum()
                    # x world size: the batch's token mean once the ranks' gradients are averaged
                    (micro_nll * parallel.world_size / tokens).backward()
                    nll += float(micro_nll.detach())
            parallel.clip_gradients(params, 1.0)
            optimizer.step()
            if parallel.is_distributed:
                nll = float(parallel.sum_floats([nll])[0])
            losses.append(nll / tokens)
            bar.update()
            bar.set_postfix(loss=f"{losses[-1]:.3f}")
    bar.close()
    policy.eval()
    return {
        "bc/examples": float(len(examples)),
        "bc/loss_first": losses[0] if losses else 0.0,
        "bc/loss_last": losses[-1] if losses else 0.0,
    }


def behaviour_clone(
    policy,
    collector: RolloutCollector,
    config: BCConfig,
    seed: int = 0,
    parallel: DataParallel | None = None,
    progress: bool = False,
    stages: list[dict[str, Any]] | None = None,
) -> dict:
    """The warm start the trainer runs when ``bc.enabled`` (every rank the same examples);
    without a dataset, ``bc.episodes`` oracle episodes of each of ``stages`` (env kwargs; the
    collector's own by default), made with ``bc.env_kwargs`` added."""
    if config.dataset:
        trajectories = read_trajectories(config.dataset)
    else:
        trajectories = [
            record
            for kwargs in stages or [collector.env_kwargs]
            for record in oracle_trajectories(
                collector, config.episodes, seed + 5_000_000, {**kwargs, **config.env_kwargs}
            )
        ]
    examples = examples_from(collector, trajectories)
    if not examples:
        raise ValueError("behaviour cloning found no steps to learn from (empty dataset?)")
    return fine_tune(policy, examples, config, seed, parallel, progress)


__all__ = [
    "behaviour_clone",
    "examples_from",
    "fine_tune",
    "oracle_trajectories",
    "read_trajectories",
]
