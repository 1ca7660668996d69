"""PPO, GRPO and GiGPO over turns: advantages, the clipped losses, and the minibatch update.

A turn is the unit of decision. PPO runs GAE over the turns of each episode with the value head's
estimates (the env pays at episode end; shaping terms may pay every turn) and bootstraps with 0
after the last recorded turn, truncated or not. GRPO plays several episodes per task (same reset
seed), scores each by its return, and normalises returns within the group; it has no critic.
GiGPO adds to GRPO's episode-level advantage a step-level one: within a group, the turns taken
from the same observation are compared by their discounted returns.

In generate mode the ratio is per token, with the turn's advantage on every token of the turn; in
score mode the action is one categorical choice among the admissible actions, and the ratio,
entropy and KL are those of that categorical distribution.
"""

from __future__ import annotations

import logging
import math
import random
from collections import defaultdict
from collections.abc import Callable, Sequence

import numpy as np
import torch
from transformers import get_cosine_with_min_lr_schedule_with_warmup

from agentgym_train.config import AlgorithmConfig, TrainConfig
from agentgym_train.distributed import DataParallel
from agentgym_train.policy import Policy, candidate_scores, choice_logprobs
from agentgym_train.rollout import Episode, Job, Step

log = logging.getLogger("agentgym_train")
#: Before the first optimizer step the update must score the sampled actions as the rollout did;
#: more KL than this between the two means they differ (gradient checkpointing dropping the
#: KV cache, another dtype or sampling settings). Dropout or bf16 rounding stay well below it.
PRESTEP_KL_WARN = 0.01


def gae(rewards: Sequence[float], values: Sequence[float], gamma: float, lam: float):
    """Advantages and returns of one episode (value after the last turn taken as 0)."""
    advantages = [0.0] * len(rewards)
    running = 0.0
    for t in reversed(range(len(rewards))):
        next_value = values[t + 1] if t + 1 < len(values) else 0.0
        delta = rewards[t] + gamma * next_value - values[t]
        running = delta + gamma * lam * running
        advantages[t] = running
    returns = [a + v for a, v in zip(advantages, values, strict=True)]
    return advantages, returns


def assign_ppo_advantages(episodes: Sequence[Episode], gamma: float, lam: float) -> None:
    for episode in episodes:
        rewards = [s.reward for s in episode.steps]
        values = [s.value for s in episode.steps]
        advantages, returns = gae(rewards, values, gamma, lam)
        for step, adv, ret in zip(episode.steps, advantages, returns, strict=True):
            step.advantage, step.ret = adv, ret


#: element-wise sum of a float vector over all processes (``DataParallel.sum_floats``)
SumAcross = Callable[[np.ndarray], np.ndarray]


def batch_mean_std(values: np.ndarray, sum_across: SumAcross | None = None):
    """Mean, population std and count of ``values`` over the whole batch.

    Without ``sum_across`` this is numpy's ``mean``/``std`` of the local values (the
    single-process numbers). With it, the batch is spread over processes: two all-reduces (sum and
    count, then squared deviations from the global mean) give every rank the statistics of the
    concatenated batch.
    """
    values = np.asarray(values, dtype=np.float64)
    if sum_across is None:
        if len(values) == 0:
            return 0.0, 0.0, 0
        return float(values.mean()), float(values.std()), len(values)
    total, count = sum_across(np.array([values.sum(), len(values)], dtype=np.float64))
    if count == 0:
        return 0.0, 0.0, 0
    mean = float(total / count)
    (squares,) = sum_across(np.array([((values - mean) ** 2).sum()], dtype=np.float64))
    return mean, math.sqrt(float(squares) / count), int(count)


def centre_in_groups(
    keys: Sequence[object],
    values: Sequence[float],
    scale: str = "group",
    sum_across: SumAcross | None = None,
) -> list[float]:
    """Each value minus the mean of the values sharing its key, divided by a scale.

    ``scale``: ``group`` divides by the key's std (GRPO as published), ``batch`` by the std of
    the centred values of every key with two or more members (Dr. GRPO's observation: a
    per-group std turns tiny differences, e.g. one step penalty, into ±1), ``none`` keeps the
    raw difference. A key whose values are all equal (a single member included) gets 0 under
    every scale: no signal, no push. ``sum_across`` makes the ``batch`` std global when the
    values are spread over processes (the members of a key stay on one process).
    """
    if scale not in ("group", "batch", "none"):
        raise ValueError(f"unknown group advantage scale {scale!r}; use group, batch or none")
    members: dict[object, list[int]] = defaultdict(list)
    for index, key in enumerate(keys):
        members[key].append(index)
    centred = np.zeros(len(values), dtype=np.float64)
    shared: list[int] = []  # indices whose key has two or more members
    for indices in members.values():
        group = np.array([values[i] for i in indices], dtype=np.float64)
        diffs = group - group.mean()
        if scale == "group":
            std = group.std()
            diffs = diffs / (std + 1e-6) if std > 1e-8 else diffs * 0.0
        centred[indices] = diffs
        if len(indices) > 1:
            shared.extend(indices)
    if scale == "batch":
        _, std, _ = batch_mean_std(centred[shared], sum_across)
        centred = centred / std if std > 1e-8 else centred * 0.0
    return centred.tolist()


def assign_grpo_advantages(
    episodes: Sequence[Episode], scale: str = "group", sum_across: SumAcross | None = None
) -> None:
    """Each turn gets its episode's return centred within its group (episodes of one task and
    seed) and scaled (``centre_in_groups``); its return is the episode's."""
    returns = [e.shaped_return for e in episodes]
    advantages = centre_in_groups([e.group for e in episodes], returns, scale, sum_across)
    for episode, adv, ret in zip(episodes, advantages, returns, strict=True):
        for step in episode.steps:
            step.advantage, step.ret = adv, float(ret)


def discounted_returns(rewards: Sequence[float], gamma: float) -> list[float]:
    """``R_t = r_t + gamma * R_{t+1}`` for every turn, ``R`` after the last turn 0."""
    returns, running = [0.0] * len(rewards), 0.0
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * running
        returns[t] = running
    return returns


def assign_gigpo_advantages(
    episodes: Sequence[Episode],
    scale: str = "group",
    step_weight: float = 1.0,
    gamma: float = 0.95,
    sum_across: SumAcross | None = None,
) -> None:
    """GiGPO (Feng et al. 2025, group-in-group policy optimisation): GRPO's episode-level
    advantage plus ``step_weight`` x a step-level one. Turns of one group's episodes that start
    from the same observation (an *anchor state*: the same task and seed revisit it, at any
    turn) form a step group; each turn's discounted return from there on (``gamma``) is centred
    and scaled within its step group, so the actions taken from one state are compared with each
    other: credit per turn without a critic. A state visited once adds nothing."""
    assign_grpo_advantages(episodes, scale, sum_across)
    keys, returns, steps = [], [], []
    for episode in episodes:
        rewards = [step.reward for step in episode.steps]
        observations = [turn.observation for turn in episode.history]
        if len(observations) != len(rewards):
            raise ValueError("gigpo needs each turn's observation (the episode's history)")
        for step, observation, ret in zip(
            episode.steps, observations, discounted_returns(rewards, gamma), strict=True
        ):
            keys.append((episode.group, observation))
            returns.append(ret)
            steps.append(step)
    for step, adv in zip(steps, centre_in_groups(keys, returns, scale, sum_across), strict=True):
        step.advantage += step_weight * adv


def normalize_advantages(
    steps: Sequence[Step], centre: bool = True, sum_across: SumAcross | None = None
) -> None:
    """Scale advantages to unit std over the batch; ``centre`` also subtracts their mean.

    GRPO passes ``centre=False``: its advantages are already centred per group, and subtracting
    the batch mean would push the all-equal groups, which carry no signal. ``sum_across`` takes
    the statistics over every process's steps (see ``batch_mean_std``).
    """
    values = np.array([s.advantage for s in steps], dtype=np.float64)
    mean, std, count = batch_mean_std(values, sum_across)
    if count < 2 or std < 1e-8:
        return
    shift = mean if centre else 0.0
    normed = (values - shift) / (std + 1e-8)
    for step, value in zip(steps, normed, strict=True):
        step.advantage = float(value)


class Algorithm:
    """What PPO and GRPO do differently, so the training loop has no branch on the name: which
    episodes an update plays, how their turns get advantages, whether a critic learns."""

    #: the value head is trained (value loss) and read (GAE)
    critic: bool = True
    #: batch normalisation subtracts the mean (GRPO's advantages are centred per group already)
    centre: bool = True

    def __init__(self, config: AlgorithmConfig) -> None:
        self.config = config

    @property
    def group_size(self) -> int | None:
        """Episodes per task that must stay on one rank (None: any split)."""
        return None

    def jobs(self, rng: np.random.Generator, episodes: int) -> list[Job]:
        """The ``episodes`` an update plays: reset seeds drawn from ``rng`` and group ids."""
        seeds = rng.integers(0, 2**31 - 1, size=episodes)
        return [Job(int(seed), i) for i, seed in enumerate(seeds)]

    def assign_advantages(
        self, episodes: Sequence[Episode], sum_across: SumAcross | None = None
    ) -> None:
        """Every turn's advantage (and return), normalised over the batch when configured."""
        self._advantages(episodes, sum_across)
        if self.config.normalize_advantages:
            steps = [step for episode in episodes for step in episode.steps]
            normalize_advantages(steps, self.centre, sum_across)

    def _advantages(self, episodes: Sequence[Episode], sum_across: SumAcross | None) -> None:
        raise NotImplementedError


class PPO(Algorithm):
    """GAE over each episode's turns with the value head's estimates."""

    def _advantages(self, episodes: Sequence[Episode], sum_across: SumAcross | None) -> None:
        assign_ppo_advantages(episodes, self.config.gamma, self.config.gae_lambda)


class GRPO(Algorithm):
    """``group_size`` episodes per task; returns normalised within each group; no critic."""

    critic = False
    centre = False

    @property
    def group_size(self) -> int | None:
        return self.config.group_size

    def jobs(self, rng: np.random.Generator, episodes: int) -> list[Job]:
        size = self.config.group_size
        seeds = rng.integers(0, 2**31 - 1, size=episodes // size)
        return [Job(int(seed), group) for group, seed in enumerate(seeds) for _ in range(size)]

    def _advantages(self, episodes: Sequence[Episode], sum_across: SumAcross | None) -> None:
        assign_grpo_advantages(episodes, self.config.grpo_scale, sum_across)


class GiGPO(GRPO):
    """GRPO's groups, plus step-level advantages within the states the group's episodes share
    (``assign_gigpo_advantages``); no critic."""

    def _advantages(self, episodes: Sequence[Episode], sum_across: SumAcross | None) -> None:
        cfg = self.config
        assign_gigpo_advantages(
            episodes, cfg.grpo_scale, cfg.gigpo_step_weight, cfg.gigpo_gamma, sum_across
        )


#: ``algorithm.name`` -> its class
ALGORITHMS: dict[str, type[Algorithm]] = {"ppo": PPO, "grpo": GRPO, "gigpo": GiGPO}


def make_algorithm(config: AlgorithmConfig) -> Algorithm:
    return ALGORITHMS[config.name](config)


def warmup_cosine(
    optimizer: torch.optim.Optimizer, warmup: int, updates: int, floor: float
) -> torch.optim.lr_scheduler.LambdaLR:
    """Linear warm-up over ``warmup`` updates, then cosine decay to ``floor`` x the peak at
    ``updates`` (transformers' schedule). Its step 0 has lr 0, so update ``u`` is its step
    ``u + 1``: the first update learns at 1/(warmup + 1) of the peak instead of not at all.
    A rollback scales the scheduler's ``base_lrs`` (saved in its state with the step)."""
    for group in optimizer.param_groups:
        group.setdefault("initial_lr", group["lr"])  # what a scheduler started at step 0 needs
    return get_cosine_with_min_lr_schedule_with_warmup(
        optimizer, warmup + 1, max(updates, 1) + 1, min_lr_rate=floor, last_epoch=0
    )


class Learner:
    """The one owner of the update: the optimizer, its learning-rate schedule (one step per
    ``update``, scaled by a rollback: ``scale_lr``) and the PPO/GRPO epochs over a batch of
    turns. ``for_run`` builds the optimizer and schedule of a training run.

    Data-parallel (``parallel`` spans several processes): each rank holds its own turns, the ranks
    agree on the number of minibatches per epoch (the largest local count, so every rank takes the
    same optimizer steps), weight each rank's loss by its share of the step's turns and average
    gradients before clipping, so a step's gradient is that of the mean over all ranks' turns.
    ``minibatch_size`` is per process.
    """

    def __init__(
        self,
        policy: Policy,
        optimizer,
        config: AlgorithmConfig,
        mode: str,
        reduction,
        parallel: DataParallel | None = None,
        *,
        scheduler: torch.optim.lr_scheduler.LambdaLR | None = None,
        critic: bool = True,
    ):
        self.policy = policy
        self.optimizer = optimizer
        self.scheduler = scheduler  # None: the optimizer's rate stays as it is
        self.config = config
        self.mode = mode
        self.reduction = reduction
        self.parallel = parallel or DataParallel()
        #: the value head learns (PPO) or is left alone (GRPO): ``Algorithm.critic``
        self.critic = critic
        self._warned_prestep = False

    @classmethod
    def for_run(
        cls, policy: Policy, algorithm: Algorithm, run: TrainConfig, parallel: DataParallel
    ) -> Learner:
        """AdamW over the trainable weights (this rank's shards: build it after sharding) with
        the warm-up/cosine schedule over ``run.updates``."""
        cfg, rollout = algorithm.config, run.rollout
        params = [p for p in policy.parameters() if p.requires_grad]
        optimizer = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=cfg.weight_decay)
        scheduler = warmup_cosine(optimizer, cfg.warmup_updates, run.updates, cfg.min_lr_ratio)
        return cls(policy, optimizer, cfg, rollout.action_mode, rollout.score_reduction, parallel,
                   scheduler=scheduler, critic=algorithm.critic)  # fmt: skip

    def scale_lr(self, factor: float) -> float:
        """Lower the schedule's peak by ``factor`` from the current step on (a rollback; kept in
        the scheduler's state, so checkpoints carry it). Returns the peak over ``config.lr``."""
        schedule = self.scheduler
        assert schedule is not None  # a training run's learner has one
        schedule.base_lrs = [base * factor for base in schedule.base_lrs]
        for group, base, lr_at in zip(
            self.optimizer.param_groups, schedule.base_lrs, schedule.lr_lambdas, strict=True
        ):
            group["lr"] = base * lr_at(schedule.last_epoch)
        return float(schedule.base_lrs[0]) / self.config.lr

    def _minibatches(self, order: list[int]) -> tuple[list[list[int]], list[float]]:
        """This rank's minibatches (padded with empty ones to the agreed count) and each
        step's total number of turns over all ranks."""
        size = self.config.minibatch_size
        chunks = [order[start : start + size] for start in range(0, len(order), size)]
        if not self.parallel.is_distributed:
            return chunks, [float(len(c)) for c in chunks]
        count = self.parallel.max_int(len(chunks))
        chunks += [[] for _ in range(count - len(chunks))]
        return chunks, self.parallel.sum_floats(len(c) for c in chunks).tolist()

    def update(self, steps: list[Step], rng: random.Random) -> dict[str, float]:
        cfg = self.config
        parallel = self.parallel
        use_kl = bool(cfg.kl_coef > 0 and steps and steps[0].ref_logprobs is not None)
        metrics: dict[str, list[float]] = defaultdict(list)
        tokens = 0
        params = [p for p in self.policy.parameters() if p.requires_grad]
        self.policy.train()
        before_any_step = True
        for _ in range(cfg.ppo_epochs):
            order = list(range(len(steps)))
            rng.shuffle(order)
            chunks, totals = self._minibatches(order)
            for chunk, total in zip(chunks, totals, strict=True):
                batch = [steps[i] for i in chunk]
                parts: dict[str, float] = {}
                self.optimizer.zero_grad(set_to_none=True)
                with parallel.synced_gradients(params):
                    if batch:  # (a rank with nothing left adds zeros: the same collectives)
                        parts, n_tokens = self._accumulate(batch, total, use_kl)
                        if before_any_step:  # the update's view of the rollout's own policy
                            parts["approx_kl_prestep"] = parts["approx_kl_old"]
                        tokens += n_tokens
                grad_norm = parallel.clip_gradients(params, cfg.max_grad_norm)
                self.optimizer.step()
                before_any_step = False
                if batch:
                    parts["grad_norm"] = grad_norm
                for key, value in parts.items():
                    metrics[key].append(value)
        if self.scheduler is not None:
            self.scheduler.step()  # the next update's rate
        self.policy.eval()
        out = {key: float(np.mean(values)) for key, values in metrics.items()}
        out["train_tokens"] = float(tokens)
        if parallel.is_distributed:
            out = _merge_rank_metrics(parallel.gather([out]))
        self._check_prestep_kl(out.get("approx_kl_prestep"))
        return out

    def _check_prestep_kl(self, kl: float | None) -> None:
        if kl is None or kl <= PRESTEP_KL_WARN or self._warned_prestep:
            return
        self._warned_prestep = True  # once per run; train/approx_kl_prestep logs every update
        log.warning(
            "before its first step the update scored the sampled actions %.3g nats (approx KL) "
            "away from the rollout (expected ~0): the two compute different log-probs; check "
            "policy.gradient_checkpointing, policy.dtype and the sampling settings",
            kl,
        )

    def _accumulate(self, batch: list[Step], total: float, use_kl: bool):
        """Backward of the minibatch's mean loss, ``micro_batch_size`` turns at a time
        (gradient accumulation: the same gradient, a fraction of the activation memory).
        Each turn weighs ``world_size / total``: the mean over every rank's turns once the
        ranks' gradients are averaged. Returns the turn-weighted metrics and the token count."""
        size = self.config.micro_batch_size or len(batch)
        parts: dict[str, float] = defaultdict(float)
        tokens = 0
        for start in range(0, len(batch), size):
            micro = batch[start : start + size]
            loss, micro_parts, n_tokens = self._loss(micro, use_kl)
            (loss * (len(micro) * self.parallel.world_size / total)).backward()  # 1.0 if whole
            for key, value in micro_parts.items():
                parts[key] += value * len(micro) / len(batch)
            tokens += n_tokens
        return dict(parts), tokens

    # ---- losses ------------------------------------------------------------------------------
    def _loss(self, batch: list[Step], use_kl: bool):
        if self.mode == "score":
            new_logp, entropy, values, kl, n_tokens = self._score_terms(batch, use_kl)
            old_logp = torch.tensor([s.old_logprob for s in batch], device=new_logp.device)
            adv = torch.tensor([s.advantage for s in batch], device=new_logp.device)
            ratio = torch.exp(new_logp - old_logp)
            pg, clipped = clipped_objective(ratio, adv, self.config.clip_range)
            pg_loss, clip_frac = pg.mean(), clipped.float().mean()
            log_ratio = new_logp - old_logp
        else:
            new_tok, entropy_tok, values, kl_tok, lengths, n_tokens = self._token_terms(
                batch, use_kl
            )
            device = new_tok.device
            old_tok = torch.tensor([x for s in batch for x in s.token_logprobs], device=device)
            owner = torch.repeat_interleave(
                torch.arange(len(batch), device=device), torch.as_tensor(lengths, device=device)
            )
            adv = torch.tensor([s.advantage for s in batch], device=device)[owner]
            ratio = torch.exp(new_tok - old_tok)
            pg, clipped = clipped_objective(ratio, adv, self.config.clip_range)
            pg_loss = per_turn_mean(pg, owner, len(batch)).mean()
            clip_frac = clipped.float().mean()
            entropy = per_turn_mean(entropy_tok, owner, len(batch))
            kl = per_turn_mean(kl_tok, owner, len(batch)) if kl_tok is not None else None
            log_ratio = new_tok - old_tok
        loss = pg_loss - self.config.entropy_coef * entropy.mean()
        parts = {
            "policy_loss": float(pg_loss.detach()),
            "entropy": float(entropy.mean().detach()),
            "clip_fraction": float(clip_frac),
            "approx_kl_old": float(((log_ratio.exp() - 1) - log_ratio).mean().detach()),
        }
        if kl is not None:
            loss = loss + self.config.kl_coef * kl.mean()
            parts["kl_ref"] = float(kl.mean().detach())
        if values is not None and self.critic:
            vloss = self._value_loss(batch, values)
            loss = loss + self.config.value_loss_coef * vloss
            parts["value_loss"] = float(vloss.detach())
        parts["loss"] = float(loss.detach())
        return loss, parts, n_tokens

    def _value_loss(self, batch: list[Step], values: torch.Tensor) -> torch.Tensor:
        device = values.device
        old = torch.tensor([s.value for s in batch], device=device)
        target = torch.tensor([s.ret for s in batch], device=device)
        loss = (values - target) ** 2
        clip = self.config.value_clip_range
        if clip > 0:
            clipped = old + torch.clamp(values - old, -clip, clip)
            loss = torch.maximum(loss, (clipped - target) ** 2)
        return 0.5 * loss.mean()

    def _score_terms(self, batch: list[Step], use_kl: bool):
        groups = []
        for step in batch:
            if step.candidates is None:
                raise ValueError("a score-mode update needs steps collected in score mode")
            groups.append(step.candidates)
        prompts = [s.prompt_ids for s in batch]
        stats = self.policy.score_candidates(prompts, groups, values=self.critic)
        scores = candidate_scores(stats.sums(), stats.lengths, self.reduction)
        new_logp, entropies, kls = [], [], []
        row = 0
        for step, group in zip(batch, groups, strict=True):
            logp = choice_logprobs(scores[row : row + len(group)], step.temperature)
            new_logp.append(logp[step.choice])
            entropies.append(-(logp.exp() * logp).sum())
            if use_kl:
                ref = torch.tensor(step.ref_logprobs, device=logp.device)
                kls.append((logp.exp() * (logp - ref)).sum())
            row += len(group)
        n_tokens = sum(len(p) for p in prompts) + sum(stats.lengths)
        kl = torch.stack(kls) if kls else None
        return torch.stack(new_logp), torch.stack(entropies), stats.values, kl, n_tokens

    def _token_terms(self, batch: list[Step], use_kl: bool):
        temperature = batch[0].temperature
        stats = self.policy.sequence_stats(
            [s.prompt_ids for s in batch],
            [s.completion_ids for s in batch],
            temperature=temperature,
            values=self.critic,
            entropy=True,
        )
        kl = None
        if use_kl:
            device = stats.token_logprobs.device
            ref = torch.tensor([x for s in batch for x in (s.ref_logprobs or [])], device=device)
            log_ratio = ref - stats.token_logprobs
            kl = torch.exp(log_ratio) - log_ratio - 1  # k3 estimator, >= 0
        n_tokens = sum(len(s.prompt_ids) + len(s.completion_ids) for s in batch)
        assert stats.token_entropy is not None
        return stats.token_logprobs, stats.token_entropy, stats.values, kl, stats.lengths, n_tokens


def clipped_objective(ratio: torch.Tensor, adv: torch.Tensor, clip: float):
    """PPO's pessimistic clipped surrogate (as a loss) and where clipping was active."""
    unclipped = ratio * adv
    clipped = torch.clamp(ratio, 1 - clip, 1 + clip) * adv
    return -torch.minimum(unclipped, clipped), (ratio - 1).abs() > clip


def _merge_rank_metrics(per_rank: list[dict[str, float]]) -> dict[str, float]:
    """One metrics dict for all ranks: means of each rank's means, tokens summed."""
    keys = list(dict.fromkeys(key for metrics in per_rank for key in metrics))
    out = {
        key: float(np.mean([m[key] for m in per_rank if key in m]))
        for key in keys
        if key != "train_tokens"
    }
    out["train_tokens"] = float(sum(m.get("train_tokens", 0.0) for m in per_rank))
    return out


def per_turn_mean(values: torch.Tensor, owner: torch.Tensor, turns: int) -> torch.Tensor:
    sums = torch.zeros(turns, device=values.device).index_add(0, owner, values.float())
    counts = torch.zeros(turns, device=values.device).index_add(
        0, owner, torch.ones_like(values, dtype=torch.float32)
    )
    return sums / counts.clamp(min=1)


__all__ = [
    "ALGORITHMS",
    "GRPO",
    "PPO",
    "Algorithm",
    "GiGPO",
    "Learner",
    "assign_gigpo_advantages",
    "assign_grpo_advantages",
    "assign_ppo_advantages",
    "batch_mean_std",
    "centre_in_groups",
    "clipped_objective",
    "discounted_returns",
    "gae",
    "make_algorithm",
    "normalize_advantages",
    "warmup_cosine",
]
