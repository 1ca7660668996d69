"""Multi-turn rollouts: a vector env's slots played in lock-step, one batched policy call per turn.

Each turn is one training sample: the prompt (system + history + observation, built by the core
``PromptFormatter``) is context only; the policy's own tokens are the trained part. Two action
modes:

- ``generate``: the policy writes free text, ``parse_action`` extracts the action; an invalid
  action costs ``reward.invalid_action_penalty``.
- ``score``: the policy scores every admissible action by ``log p(" action" + EOS | prompt +
  "Action:")`` and samples from the softmax of those scores, so it can never leave the format.

Log-probs (and reference log-probs when a KL term is on) and values are recorded here, at
generation time, so that the update step can form PPO ratios against them.

``PolicyTurns`` is the policy's half of a turn (prompt, choice, the turn kept in the episode's
history); benchmark play of a trained policy uses it alone. ``RolloutCollector`` adds the envs:
one Gymnasium ``VectorEnv`` (``rollout.backend``: sync, async processes, the id's own vector env
such as MiniWoB's pages on one browser, or Ray actors), stepped once per turn for every slot, so
env steps of different slots overlap where the backend runs them concurrently. Episodes end at
different turns: a slot without an episode is stepped with ``IDLE_ACTION`` and its result
discarded (the next-step autoreset turns the step after an episode's end into a reset), and a
slot that takes the next job is reset alone with the job's seed (``reset_mask``).
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np
import torch

import agentgym_envs
from agentgym_envs.core import unbatch_info
from agentgym_envs.core.episode import Trajectory, new_trajectory, step_record
from agentgym_envs.wrappers.prompt import PromptFormatter, Turn, parse_action
from agentgym_train.config import RewardConfig, RolloutConfig
from agentgym_train.context import TokenContext, chat_renderer
from agentgym_train.policy import Policy, candidate_scores, choice_logprobs

ACTION_PREFIX = "Action:"
#: what a slot without an episode sends in a vector step (its result is discarded)
IDLE_ACTION = "(idle)"


@dataclass
class Step:
    """One turn of one episode, with everything PPO/GRPO needs about it."""

    prompt_ids: list[int]
    completion_ids: list[int]  # generated tokens, or the chosen candidate's tokens (score mode)
    action: str  # sent to the env: the chosen candidate, or the action parsed from the text
    temperature: float
    old_logprob: float  # log π(action | prompt) at collection time (sum over tokens)
    response: str = ""  # the policy's turn as the history shows it ("Action: ..." or its text)
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
    """One place in the lock-step: its env (index in the vector env), job, episode so far,
    and latest observation and info."""

    env_index: int = -1
    job: Job | None = None
    index: int = -1  # the job's place in ``collect``'s list
    episode: Episode | None = None
    observation: str = ""
    info: dict[str, Any] = field(default_factory=dict)
    truncated: bool = False  # the env truncated the episode at the last step


class PolicyTurns:
    """The policy's half of a turn for a batch of slots: each slot's prompt, one batched
    choice (score mode) or generation, and the turn kept in its episode (``remember``)."""

    def __init__(self, policy: Policy, rollout: RolloutConfig, action_help: str) -> None:
        self.policy = policy
        self.config = rollout
        tok = policy.tokenizer
        self.formatter = make_formatter(
            rollout,
            action_help or "free text",
            lambda text: len(tok(text, add_special_tokens=False).input_ids),
        )
        self.use_chat = policy.config.chat_template == "auto" and bool(
            getattr(tok, "chat_template", None)
        )
        self.context = TokenContext(
            self.formatter,
            self.encode,
            chat_renderer(tok) if self.use_chat else None,
            self.action_prefix if rollout.action_mode == "score" else "",
        )
        self.stats = new_stats()

    # ---- prompts -----------------------------------------------------------------------------
    @property
    def action_prefix(self) -> str:
        """What precedes the action in a completion: 'Action:' (after a space without chat)."""
        return ACTION_PREFIX if self.use_chat else " " + ACTION_PREFIX

    def encode(self, text: str) -> list[int]:
        return self.policy.tokenizer(text, add_special_tokens=False).input_ids

    def candidate_ids(self, action: str) -> list[int]:
        return [*self.encode(" " + action), self.policy.tokenizer.eos_token_id]

    def prompt_ids(self, slot: Slot) -> list[int]:
        """The token ids of ``slot``'s prompt this turn (ending in the action prefix in score
        mode): the last turn's prompt and reply ids as they were, then this observation
        (``TokenContext``)."""
        episode = slot.episode
        assert episode is not None
        admissible = list(slot.info.get("admissible_actions") or [])
        if not episode.steps:
            return self.context.first(episode.history, slot.observation, admissible)
        last = episode.steps[-1]
        return self.context.follow(last.prompt_ids, last.completion_ids, episode.history,
                                   slot.observation, admissible)  # fmt: skip

    def decide(
        self,
        slots: Sequence[Slot],
        temperature: float,
        with_ref: bool = False,
        prompts: list[list[int]] | None = None,
        learn: bool = True,
    ) -> list[Step]:
        """One policy turn for every slot: prompt, then choose or generate; each ``Step``
        carries the action to send to the slot's env. ``prompts``: each slot's ``prompt_ids``
        when built elsewhere (the benchmark's batched agents build each with its own env's
        formatter). ``learn=False`` (play only, as benchmarks do): generated steps carry no
        log-probs or values, which saves generate mode a forward pass over every completion."""
        started = time.perf_counter()
        if prompts is None:
            prompts = [self.prompt_ids(slot) for slot in slots]
        if self.config.action_mode == "score":
            steps = self._score_actions(slots, prompts, temperature, with_ref)
        else:
            steps = self._generate_actions(prompts, temperature, with_ref, learn)
        self.stats["gen_seconds"] += time.perf_counter() - started
        return steps

    @staticmethod
    def remember(slot: Slot, step: Step) -> None:
        """Keep ``step`` in the slot's episode: its steps, and the turn its next prompts show."""
        episode = slot.episode
        assert episode is not None
        episode.history.append(Turn(slot.observation, step.response))
        episode.steps.append(step)

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
                    response=f"{ACTION_PREFIX} {actions[choice]}",
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

    def _generate_actions(self, prompts, temperature, with_ref, learn=True) -> list[Step]:
        cfg = self.config
        completions = self.policy.generate(prompts, cfg.max_new_tokens, temperature, cfg.top_p)
        # an empty completion (EOS first) still needs a token to train on
        completions = [c or [self.policy.tokenizer.eos_token_id] for c in completions]
        token_logprobs: Sequence[torch.Tensor] = [torch.zeros(0)] * len(completions)
        values = [0.0] * len(completions)
        if learn:
            stats = self.policy.sequence_stats(prompts, completions, temperature=temperature or 1.0)
            token_logprobs = torch.split(stats.token_logprobs, stats.lengths)
            values = stats.values.tolist()
        ref_logprobs = None
        if with_ref:
            with self.policy.reference() as ref_lm:
                ref = self.policy.sequence_stats(
                    prompts, completions, temperature or 1.0, values=False, lm=ref_lm
                )
            ref_logprobs = torch.split(ref.token_logprobs, ref.lengths)
        self.stats["gen_tokens"] += sum(len(c) for c in completions)
        eos = self.policy.eos_token_ids
        steps = []
        for i, (prompt, completion) in enumerate(zip(prompts, completions, strict=True)):
            response = self.policy.tokenizer.decode(completion, skip_special_tokens=True).strip()
            steps.append(
                Step(
                    prompt_ids=prompt,
                    completion_ids=completion,
                    action=parse_action(response) or response or "(empty)",
                    response=response,
                    temperature=temperature or 1.0,
                    old_logprob=float(token_logprobs[i].sum()),
                    token_logprobs=token_logprobs[i].tolist(),
                    ref_logprobs=None if ref_logprobs is None else ref_logprobs[i].tolist(),
                    value=float(values[i]),
                    hit_token_limit=completion[-1] not in eos
                    and len(completion) >= cfg.max_new_tokens,
                )
            )
        return steps


class RolloutCollector:
    """Plays ``Job``s on a vector env of ``num_envs`` envs in lock-step with the policy, whose
    half of each turn is its ``PolicyTurns`` (``turns``)."""

    def __init__(
        self,
        policy: Policy,
        rollout: RolloutConfig,
        reward: RewardConfig,
        env_kwargs: dict[str, Any] | None = None,
        num_envs: int | None = None,
        record: bool = False,
    ) -> None:
        #: what each env is made with (behaviour cloning plays its oracle on one such env)
        self.env_kwargs = dict(rollout.env_kwargs if env_kwargs is None else env_kwargs)
        self.envs = make_rollout_envs(rollout, self.env_kwargs, num_envs or rollout.num_envs)
        try:  # every backend has get_attr (Gymnasium's VectorEnv base class does not declare it)
            action_help = self.envs.get_attr("action_help")[0]  # type: ignore[attr-defined]
        except AttributeError:  # an env without action help: the prompt says "free text"
            action_help = ""
        self.policy, self.config = policy, rollout
        self.turns = PolicyTurns(policy, rollout, action_help)  # bc builds its examples with it
        self.reward = reward
        #: keep each episode's ``Trajectory`` (what benchmark results hold): evaluation does
        self.record = record
        self._reward_model = _load_hook(reward.reward_model)
        self._ready = np.zeros(self.envs.num_envs, dtype=bool)  # reset at least once

    @property
    def stats(self) -> dict[str, float]:
        """``new_stats``' counters: the turns count the model's, the collector the env's."""
        return self.turns.stats

    @stats.setter
    def stats(self, stats: dict[str, float]) -> None:
        self.turns.stats = stats

    def close(self) -> None:
        self.envs.close()

    @torch.no_grad()
    def collect(
        self,
        jobs: Sequence[Job],
        temperature: float,
        update: int = 0,
        with_reference=False,
        on_episode: Callable[[], object] | None = None,
    ) -> list[Episode]:
        """Play every job; return the episodes in job order. ``on_episode`` is called as each
        one ends (a progress bar's ``update``)."""
        pending = list(enumerate(jobs))
        done: dict[int, Episode] = {}
        slots = [Slot(i) for i in range(self.envs.num_envs)]
        self.policy.eval()
        # not LiveEpisode: one VectorEnv steps every slot in lock-step (records: step_record)
        while pending or any(s.job is not None for s in slots):
            starting = []
            for slot in slots:
                if slot.job is None and pending:
                    slot.index, slot.job = pending.pop(0)
                    starting.append(slot)
            if starting or not self._ready.all():
                self._start(starting)
            active = [s for s in slots if s.job is not None]
            steps = self.turns.decide(active, temperature, with_reference)
            self._step(active, steps, update)
            for slot in active:
                if self._finished(slot):
                    episode = slot.episode
                    assert episode is not None
                    self._finish(episode)
                    done[slot.index] = episode
                    slot.job, slot.episode = None, None
                    if on_episode is not None:
                        on_episode()
        return [done[i] for i in range(len(jobs))]

    def _start(self, starting: list[Slot]) -> None:
        """Reset the starting slots' envs with their jobs' seeds (and, once, any env not reset
        yet, so every env can be stepped)."""
        seeds: list[int | None] = [None] * self.envs.num_envs
        mask = ~self._ready
        for slot in starting:
            assert slot.job is not None
            seeds[slot.env_index], mask[slot.env_index] = slot.job.seed, True
        observations, infos = self.envs.reset(
            seed=seeds,  # type: ignore[arg-type]  # one per env: every backend takes a list
            options={"reset_mask": mask},
        )
        self._ready[mask] = True
        for slot in starting:
            assert slot.job is not None
            slot.observation = observations[slot.env_index]
            slot.info = unbatch_info(infos, slot.env_index)
            slot.truncated = False
            slot.episode = Episode(
                seed=slot.job.seed,
                group=slot.job.group,
                task_id=str(slot.info.get("task_id", "")),
                difficulty=str(slot.info.get("difficulty", "")),
            )
            if self.record:
                slot.episode.trajectory = new_trajectory(
                    self.config.env_id, slot.job.seed, slot.observation, slot.info
                )

    def _step(self, active: list[Slot], steps: list[Step], update: int) -> None:
        """One vector step: each active slot's action, ``IDLE_ACTION`` for the other envs."""
        actions = [IDLE_ACTION] * self.envs.num_envs
        for slot, step in zip(active, steps, strict=True):
            actions[slot.env_index] = step.action
        started = time.perf_counter()
        observations, rewards, terminated, truncated, infos = self.envs.step(actions)
        self.stats["env_seconds"] += time.perf_counter() - started
        for slot, step in zip(active, steps, strict=True):
            i = slot.env_index
            result = (observations[i], float(rewards[i]), bool(terminated[i]),
                      bool(truncated[i]), unbatch_info(infos, i))  # fmt: skip
            self._record(slot, step, result, update)

    def _finished(self, slot: Slot) -> bool:
        episode = slot.episode
        assert episode is not None
        return episode.terminated or slot.truncated or len(episode.steps) >= self.config.max_turns

    def _record(self, slot: Slot, step: Step, result: tuple, update: int) -> None:
        """The env's answer to ``step``: the shaped reward, the turn, the trajectory's step."""
        observation, reward, terminated, truncated, info = result
        episode = slot.episode
        assert episode is not None
        step.env_reward = reward
        step.invalid = info.get("action_error") is not None
        r = self.reward
        step.reward = (
            r.env_weight.at(update) * step.env_reward
            - r.step_penalty.at(update)
            - r.invalid_action_penalty.at(update) * step.invalid
            - r.long_action_penalty.at(update) * step.hit_token_limit
        )
        self.turns.remember(slot, step)
        episode.terminated = terminated
        episode.success = bool(info.get("success", False))
        episode.score = float(info.get("score", 0.0))
        if episode.trajectory is not None:
            record = step_record(
                step.action, observation, reward, terminated, truncated, info, slot.info
            )
            episode.trajectory.steps.append(record)
            episode.trajectory.score, episode.trajectory.success = episode.score, episode.success
            episode.trajectory.complete = terminated or truncated
        slot.observation, slot.info, slot.truncated = observation, info, truncated

    def _finish(self, episode: Episode) -> None:
        if self._reward_model is not None and episode.steps:
            bonus = float(self._reward_model(episode))
            episode.steps[-1].reward += self.reward.reward_model_weight * bonus


def resolve_backend(backend: str, env_id: str) -> str:
    """``rollout.backend`` made concrete: ``auto`` is the id's own vector env where it has one
    (MiniWoB's), else ``sync``; ``vector_entry_point`` on an id without one is refused."""
    own = gym.spec(env_id).vector_entry_point is not None
    if backend == "auto":
        return "vector_entry_point" if own else "sync"
    if backend == "vector_entry_point" and not own:
        raise ValueError(f"rollout.backend=vector_entry_point: {env_id} has no vector env of "
                         "its own; use sync, async, ray or auto")  # fmt: skip
    return backend


def make_rollout_envs(
    rollout: RolloutConfig, env_kwargs: dict[str, Any], num_envs: int
) -> gym.vector.VectorEnv:
    """The ``num_envs`` envs of ``rollout.env_id`` as one ``VectorEnv`` on ``rollout.backend``."""
    backend = resolve_backend(rollout.backend, rollout.env_id)
    if rollout.env_url is not None:
        return _remote_envs(rollout, env_kwargs, num_envs, backend)
    if backend == "ray":
        try:
            import ray  # noqa: F401  (RayVectorEnv imports it only when made)
        except ImportError as error:
            raise ImportError("rollout.backend=ray needs the ray extra: "
                              "pip install -e '.[ray]'") from error  # fmt: skip
        from agentgym_envs.core.ray_vector import RayVectorEnv

        return RayVectorEnv(
            rollout.env_id, num_envs, num_actors=rollout.ray_actors or None,
            env_kwargs=env_kwargs, ray_address=rollout.ray_address,
        )  # fmt: skip
    return agentgym_envs.make_vec(
        rollout.env_id, num_envs, vectorization_mode=backend, **env_kwargs
    )


def _remote_envs(rollout: RolloutConfig, env_kwargs: dict[str, Any], num_envs: int,
                 backend: str) -> gym.vector.VectorEnv:  # fmt: skip
    """``num_envs`` sessions on the ``rollout.env_url`` server, stepped here (sync) or from a
    process each (async); the server applies the id's step limit."""
    import dataclasses

    mode = "async" if backend == "async" else "sync"
    remote = dataclasses.replace(
        gym.spec(rollout.env_id), entry_point="agentgym_envs.core.remote:RemoteTextEnv",
        max_episode_steps=None,
        kwargs={"url": rollout.env_url, "env_id": rollout.env_id},
        disable_env_checker=True, vector_entry_point=None,
    )  # fmt: skip
    return agentgym_envs.make_vec(remote, num_envs, vectorization_mode=mode, **env_kwargs)


def new_stats() -> dict[str, float]:
    """A collector's counters: tokens generated or scored, and seconds in the model and in env
    steps (rollout time the two do not cover is prompt building and resets)."""
    return {"gen_tokens": 0, "gen_seconds": 0.0, "env_seconds": 0.0}


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
    "IDLE_ACTION",
    "Episode",
    "Job",
    "PolicyTurns",
    "RolloutCollector",
    "Slot",
    "Step",
    "make_formatter",
    "make_rollout_envs",
    "new_stats",
    "resolve_backend",
]
