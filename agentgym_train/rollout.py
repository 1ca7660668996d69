"""Multi-turn rollouts: a list of envs stepped in lock-step, one batched policy call per turn.

Each turn is one training sample: the prompt (system + history + observation, built by the core
``PromptFormatter``) is context only; the policy's own tokens are the trained part. Two action
modes:

- ``generate``: the policy writes free text, ``parse_action`` extracts the action; an invalid
  action costs ``reward.invalid_action_penalty``.
- ``score``: the policy scores every admissible action by ``log p(" action" + EOS | prompt +
  "Action:")`` and samples from the softmax of those scores, so it can never leave the format.

Log-probs (and reference log-probs when a KL term is on) and values are recorded here, at
generation time, so that the update step can form PPO ratios against them.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import torch

from agentgym_envs.core.episode import Trajectory, new_trajectory, step_record
from agentgym_envs.wrappers.prompt import PromptFormatter, Turn, parse_action
from agentgym_train.config import RewardConfig, RolloutConfig
from agentgym_train.policy import Policy, candidate_scores, choice_logprobs

ACTION_PREFIX = "Action:"


@dataclass
class Step:
    """One turn of one episode, with everything PPO/GRPO needs about it."""

    prompt_ids: list[int]
    completion_ids: list[int]  # generated tokens, or the chosen candidate's tokens (score mode)
    action: str
    temperature: float
    old_logprob: float  # log π(action | prompt) at collection time (sum over tokens)
    token_logprobs: list[float] = field(default_factory=list)  # generate mode, per token
    candidates: list[list[int]] | None = None  # score mode: token ids of every admissible action
    choice: int = -1  # score mode: index of the chosen candidate
    ref_logprobs: list[float] | None = None  # reference: per token (generate) or per candidate
    value: float = 0.0
    reward: float = 0.0  # shaped reward of this turn
    env_reward: float = 0.0
    invalid: bool = False
    hit_token_limit: bool = False
    advantage: float = 0.0
    ret: float = 0.0


@dataclass
class Episode:
    """One finished episode."""

    seed: int
    group: int
    task_id: str = ""
    difficulty: str = ""
    steps: list[Step] = field(default_factory=list)
    success: bool = False
    score: float = 0.0
    terminated: bool = False
    history: list[Turn] = field(default_factory=list)
    #: the benchmark's record of the episode (observations, actions, rewards), when recorded
    trajectory: Trajectory | None = None

    @property
    def shaped_return(self) -> float:
        return sum(s.reward for s in self.steps)

    @property
    def env_return(self) -> float:
        return sum(s.env_reward for s in self.steps)


@dataclass
class Job:
    """An episode to play: the reset seed and the group it belongs to (GRPO)."""

    seed: int
    group: int = 0


@dataclass
class Slot:
    """One env in the lock-step: its job, episode so far, and latest observation and info."""

    env: gym.Env
    job: Job | None = None
    index: int = -1
    episode: Episode | None = None
    observation: str = ""
    info: dict[str, Any] = field(default_factory=dict)


class RolloutCollector:
    """Plays ``Job``s on ``num_envs`` envs in lock-step with the policy."""

    def __init__(
        self,
        policy: Policy,
        rollout: RolloutConfig,
        reward: RewardConfig,
        env_kwargs: dict[str, Any] | None = None,
        num_envs: int | None = None,
        record: bool = False,
    ) -> None:
        self.policy = policy
        #: keep each episode's ``Trajectory`` (what benchmark results hold): evaluation does
        self.record = record
        self.config = rollout
        self.reward = reward
        kwargs = dict(rollout.env_kwargs if env_kwargs is None else env_kwargs)
        self.envs = [
            gym.make(rollout.env_id, **kwargs) for _ in range(num_envs or rollout.num_envs)
        ]
        tok = policy.tokenizer
        help_text = getattr(self.envs[0].unwrapped, "action_help", "") or "free text"
        self.formatter = make_formatter(
            rollout,
            help_text,
            lambda text: len(tok(text, add_special_tokens=False).input_ids),
        )
        self.use_chat = policy.config.chat_template == "auto" and bool(
            getattr(tok, "chat_template", None)
        )
        self._reward_model = _load_hook(reward.reward_model)
        self.stats = {"gen_tokens": 0, "gen_seconds": 0.0}

    def close(self) -> None:
        for env in self.envs:
            env.close()

    # ---- prompts -----------------------------------------------------------------------------
    def prompt_text(self, episode: Episode, observation: str, admissible: list[str]) -> str:
        messages = self.formatter.messages(episode.history, observation, admissible)
        if self.use_chat:
            tok = self.policy.tokenizer
            return tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        return self.formatter.to_text(messages)

    @property
    def action_prefix(self) -> str:
        """What precedes the action in a completion: 'Action:' (after a space without chat)."""
        return ACTION_PREFIX if self.use_chat else " " + ACTION_PREFIX

    def encode(self, text: str) -> list[int]:
        return self.policy.tokenizer(text, add_special_tokens=False).input_ids

    def candidate_ids(self, action: str) -> list[int]:
        return [*self.encode(" " + action), self.policy.tokenizer.eos_token_id]

    # ---- the loop ----------------------------------------------------------------------------
    @torch.no_grad()
    def collect(
        self, jobs: Sequence[Job], temperature: float, update: int = 0, with_reference=False
    ) -> list[Episode]:
        """Play every job; return the episodes in job order."""
        pending = list(enumerate(jobs))
        done: dict[int, Episode] = {}
        slots = [Slot(env) for env in self.envs]
        self.policy.eval()
        while pending or any(s.job is not None for s in slots):
            for slot in slots:
                if slot.job is None and pending:
                    slot.index, job = pending.pop(0)
                    self._start(slot, job)
            active = [s for s in slots if s.job is not None]
            self.act(active, temperature, update, with_reference)
            for slot in active:
                if self._finished(slot):
                    episode = slot.episode
                    assert episode is not None
                    self._finish(episode)
                    done[slot.index] = episode
                    slot.job, slot.episode = None, None
        return [done[i] for i in range(len(jobs))]

    def _start(self, slot: Slot, job: Job) -> None:
        slot.job = job
        slot.observation, slot.info = slot.env.reset(seed=job.seed)
        slot.episode = Episode(
            seed=job.seed,
            group=job.group,
            task_id=str(slot.info.get("task_id", "")),
            difficulty=str(slot.info.get("difficulty", "")),
        )
        if self.record:
            slot.episode.trajectory = new_trajectory(
                slot.env, job.seed, slot.observation, slot.info
            )

    def _finished(self, slot: Slot) -> bool:
        episode = slot.episode
        assert episode is not None
        return (
            episode.terminated
            or len(episode.steps) >= self.config.max_turns
            or (bool(slot.info.get("_truncated")))
        )

    def prompt_ids(self, slot: Slot) -> list[int]:
        """The token ids of ``slot``'s prompt this turn (ending in the action prefix in score
        mode)."""
        assert slot.episode is not None
        admissible = list(slot.info.get("admissible_actions") or [])
        text = self.prompt_text(slot.episode, slot.observation, admissible)
        if self.config.action_mode == "score":
            text += self.action_prefix
        return self.encode(text)

    def act(
        self,
        slots: list[Slot],
        temperature: float,
        update: int,
        with_ref: bool,
        prompts: list[list[int]] | None = None,
    ) -> None:
        """One policy turn for every slot: prompt, choose or generate, record the step and send
        its action to the slot's env (the benchmark's trained agent drives it for one env, or
        for a batch). ``prompts``: each slot's ``prompt_ids`` when built elsewhere (the
        benchmark's batched agents build each with its own env's formatter)."""
        started = time.perf_counter()
        if prompts is None:
            prompts = [self.prompt_ids(slot) for slot in slots]
        if self.config.action_mode == "score":
            steps = self._score_actions(slots, prompts, temperature, with_ref)
        else:
            steps = self._generate_actions(prompts, temperature, with_ref)
        self.stats["gen_seconds"] += time.perf_counter() - started
        for slot, step in zip(slots, steps, strict=True):
            self._env_step(slot, step, update)

    def _score_actions(self, slots, prompts, temperature, with_ref) -> list[Step]:
        groups = []
        for slot in slots:
            actions = list(slot.info.get("admissible_actions") or []) or ["look"]
            groups.append([self.candidate_ids(a) for a in actions])
        stats = self.policy.score_candidates(prompts, groups, values=True)
        scores = candidate_scores(stats.sums(), stats.lengths, self.config.score_reduction)
        ref_scores = None
        if with_ref:
            with self.policy.reference() as ref_lm:
                ref = self.policy.score_candidates(prompts, groups, values=False, lm=ref_lm)
            ref_scores = candidate_scores(ref.sums(), ref.lengths, self.config.score_reduction)
        self.stats["gen_tokens"] += sum(len(p) for p in prompts) + sum(stats.lengths)
        steps, row = [], 0
        for i, slot in enumerate(slots):
            count = len(groups[i])
            logp = choice_logprobs(scores[row : row + count], temperature)
            if temperature > 0:
                choice = int(torch.multinomial(logp.exp(), 1))
            else:
                choice = int(torch.argmax(logp))
            actions = list(slot.info.get("admissible_actions") or []) or ["look"]
            ref_logp = None
            if ref_scores is not None:
                ref_logp = choice_logprobs(ref_scores[row : row + count], temperature).tolist()
            steps.append(
                Step(
                    prompt_ids=prompts[i],
                    completion_ids=groups[i][choice],
                    action=actions[choice],
                    temperature=temperature,
                    old_logprob=float(logp[choice]),
                    candidates=groups[i],
                    choice=choice,
                    ref_logprobs=ref_logp,
                    value=float(stats.values[i]),
                )
            )
            row += count
        return steps

    def _generate_actions(self, prompts, temperature, with_ref) -> list[Step]:
        cfg = self.config
        completions = self.policy.generate(prompts, cfg.max_new_tokens, temperature, cfg.top_p)
        # an empty completion (EOS first) still needs a token to train on
        completions = [c or [self.policy.tokenizer.eos_token_id] for c in completions]
        stats = self.policy.evaluate(prompts, completions, temperature=temperature or 1.0)
        token_logprobs = torch.split(stats.token_logprobs, stats.lengths)
        ref_logprobs = None
        if with_ref:
            with self.policy.reference() as ref_lm:
                ref = self.policy.evaluate(
                    prompts, completions, temperature or 1.0, values=False, lm=ref_lm
                )
            ref_logprobs = torch.split(ref.token_logprobs, ref.lengths)
        self.stats["gen_tokens"] += sum(len(c) for c in completions)
        eos = self.policy.eos_token_ids
        steps = []
        for i, (prompt, completion) in enumerate(zip(prompts, completions, strict=True)):
            text = self.policy.tokenizer.decode(completion, skip_special_tokens=True)
            steps.append(
                Step(
                    prompt_ids=prompt,
                    completion_ids=completion,
                    action=text,
                    temperature=temperature or 1.0,
                    old_logprob=float(token_logprobs[i].sum()),
                    token_logprobs=token_logprobs[i].tolist(),
                    ref_logprobs=None if ref_logprobs is None else ref_logprobs[i].tolist(),
                    value=float(stats.values[i]),
                    hit_token_limit=completion[-1] not in eos
                    and len(completion) >= cfg.max_new_tokens,
                )
            )
        return steps

    def _env_step(self, slot: Slot, step: Step, update: int) -> None:
        episode = slot.episode
        assert episode is not None
        if self.config.action_mode == "score":
            action, response = step.action, f"{ACTION_PREFIX} {step.action}"
        else:
            response = step.action.strip()
            action = parse_action(response) or response or "(empty)"
            step.action = action
        observation, reward, terminated, truncated, info = slot.env.step(action)
        step.env_reward = float(reward)
        step.invalid = info.get("action_error") is not None
        r = self.reward
        step.reward = (
            r.env_weight.at(update) * step.env_reward
            - r.step_penalty.at(update)
            - r.invalid_action_penalty.at(update) * step.invalid
            - r.long_action_penalty.at(update) * step.hit_token_limit
        )
        episode.history.append(Turn(slot.observation, response))
        episode.steps.append(step)
        episode.terminated = bool(terminated)
        episode.success = bool(info.get("success", False))
        episode.score = float(info.get("score", 0.0))
        if episode.trajectory is not None:
            record = step_record(
                action, observation, reward, terminated, truncated, info, slot.info
            )
            episode.trajectory.steps.append(record)
            episode.trajectory.score, episode.trajectory.success = episode.score, episode.success
            episode.trajectory.complete = bool(terminated or truncated)
        slot.observation, slot.info = observation, dict(info)
        slot.info["_truncated"] = bool(truncated)

    def _finish(self, episode: Episode) -> None:
        if self._reward_model is not None and episode.steps:
            bonus = float(self._reward_model(episode))
            episode.steps[-1].reward += self.reward.reward_model_weight * bonus


def make_formatter(
    rollout: RolloutConfig, action_help: str, count_tokens: Callable[[str], int] | None = None
) -> PromptFormatter:
    """The core prompt formatter configured by ``rollout`` (one place, so BC, RL, evaluation
    and the tiny model's pre-training all see identical prompts)."""
    extra: dict[str, Any] = {} if count_tokens is None else {"count_tokens": count_tokens}
    return PromptFormatter(
        action_help=action_help,
        max_history_tokens=rollout.max_history_tokens,
        show_admissible=rollout.show_admissible,
        reasoning=rollout.reasoning and rollout.action_mode == "generate",
        system_template=rollout.system_template,
        **extra,
    )


def _load_hook(spec: str | None) -> Callable[[Episode], float] | None:
    if not spec:
        return None
    module, sep, name = spec.partition(":")
    if not sep:
        raise ValueError(f"reward.reward_model={spec!r} must look like 'package.module:function'")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "ACTION_PREFIX",
    "Episode",
    "Job",
    "RolloutCollector",
    "Step",
    "make_formatter",
]
