"""The training loop: collect a batch of episodes, compute advantages, run PPO/GRPO epochs, log,
evaluate, roll back when validation collapses, checkpoint. ``Trainer(config).train()``.

Episode seeds derive from (``rollout.seed``, update number), and torch/numpy/random states are
checkpointed, so a resumed run continues exactly as the uninterrupted one would have.

Under ``accelerate launch`` (several processes) each rank plays its share of every update's
episodes (whole GRPO groups), advantages are normalised with global statistics, gradients are
averaged (``distributed.DataParallel``), and episodes are gathered so every rank computes the same
metrics and takes the same evaluation, curriculum and rollback decisions; only rank 0 writes.
"""

from __future__ import annotations

import json
import logging
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agentgym_envs.core.records import EpisodeRecord, played_record, records_text
from agentgym_train import algorithms
from agentgym_train.checkpoint import latest_checkpoint, load_checkpoint, save_checkpoint
from agentgym_train.config import TrainConfig, save_config, to_dict
from agentgym_train.curriculum import Curriculum
from agentgym_train.distributed import DataParallel
from agentgym_train.export import start_from_adapter
from agentgym_train.metrics import MetricsLogger, episode_metrics, light_episodes
from agentgym_train.models import base_model_path, pick_device
from agentgym_train.policy import Policy
from agentgym_train.rollout import Episode, Job, RolloutCollector, new_stats

log = logging.getLogger("agentgym_train")
EVAL_SEED_BASE = 10_000_000


class Trainer:
    """Orchestrates one run directory: policy, rollouts, evaluation, rollback, checkpoints and
    logs. The update (optimizer, learning-rate schedule) is ``self.learner``'s."""

    def __init__(self, config: TrainConfig) -> None:
        self.config = config.check_env()
        self.algorithm = algorithms.make_algorithm(config.algorithm)
        self.parallel = self._join_processes()
        #: the splits evaluated and the one that picks the best checkpoint, checked against the
        #: splits the env id serves before any training (evaluation.splits=auto drops the others)
        self.eval_splits, self.rollback_split = self._evaluation_splits()
        torch.set_num_threads(max(config.torch_threads, 1))
        self.seed_everything(config.seed)
        self.device = self.parallel.rank_device(config.device) or pick_device(config.device)
        self.run_dir = self._open_run_dir()
        self.policy = self._load_policy()
        self.learner = algorithms.Learner.for_run(
            self.policy, self.algorithm, config, self.parallel
        )
        self.curriculum = Curriculum(config.curriculum, config.rollout.env_kwargs)
        self.state: dict[str, Any] = {
            "update": 0,
            "best_eval": None,
            "best_update": None,
            "eval_history": [],
            "rollbacks": 0,
            "bc_done": False,
            "curriculum": self.curriculum.state(),
        }
        self.metrics = MetricsLogger(
            self.run_dir, config.logging, to_dict(config), active=self.parallel.is_main
        )
        self._collector: RolloutCollector | None = None
        self._collector_difficulty: str | None = None
        #: the latest periodic evaluation ({} until one ran): "update" and eval/<split>/... keys
        self.last_evaluation: dict[str, float] = {}
        self._maybe_resume()

    # ---- setup -------------------------------------------------------------------------------
    @staticmethod
    def seed_everything(seed: int) -> None:
        random.seed(seed)
        np.random.seed(seed)
        torch.manual_seed(seed)

    def _join_processes(self) -> DataParallel:
        """The launcher's process group (a single-process stand-in without one)."""
        cfg = self.config
        parallel = DataParallel.for_run(
            cfg.device,
            cfg.rollout.episodes_per_update,
            self.algorithm.group_size,
            timeout_minutes=cfg.distributed_timeout_minutes,
        )
        if not parallel.is_main:
            log.setLevel(logging.ERROR)  # rank 0 reports (decisions are the same everywhere)
        return parallel

    def _evaluation_splits(self) -> tuple[list[str], str]:
        env_id = self.config.rollout.env_id
        splits, rollback, dropped = self.config.evaluation.plan(
            env_id, self.config.rollout.env_kwargs
        )
        if dropped:
            task = self.config.rollout.env_kwargs.get("task")
            log.info(
                "evaluation.splits=auto: %s does not serve %s; evaluating on %s",
                env_id if task is None else f"{env_id} with task={task}",
                " or ".join(dropped), ", ".join(splits) or "no split",
            )  # fmt: skip
        return splits, rollback

    def _open_run_dir(self) -> Path:
        run_dir = Path(self.config.logging.run_dir)
        run_dir.mkdir(parents=True, exist_ok=True)
        if self.parallel.is_main:
            save_config(self.config, run_dir / "config.yaml")
        return run_dir

    def _load_policy(self) -> Policy:
        """The base model (rank 0 builds or converts a cached one first), its adapters and
        value head; the same start on every rank, then sharded if configured."""
        cfg, parallel = self.config, self.parallel
        with parallel.main_first():
            base = base_model_path(cfg, self.run_dir)
        reference = cfg.algorithm.kl_coef > 0
        policy = Policy.load(base, cfg.policy, self.device, reference=reference)
        if cfg.policy.init_adapter:
            start_from_adapter(policy, cfg.policy.init_adapter)
        if parallel.is_distributed:
            trainable = [p for p in policy.parameters() if p.requires_grad]
            parallel.broadcast_parameters(trainable)  # rank 0's start everywhere
            parallel.shard_policy(policy, cfg.sharding)
            torch.manual_seed(cfg.seed + parallel.rank)  # ranks sample differently
        return policy

    def _maybe_resume(self) -> None:
        resume = self.config.checkpoint.resume
        if resume == "never":
            return
        path = latest_checkpoint(self.run_dir) if resume == "auto" else Path(resume)
        if path is None:
            return
        learner = self.learner
        self.state = load_checkpoint(path, self.policy, learner.optimizer, learner.scheduler)
        self.curriculum.load_state(self.state.get("curriculum", {}))
        self.parallel.restore_rng(path, self.config.seed, self.state["update"])
        log.info("resumed from %s at update %d", path, self.state["update"])

    def collector(self) -> RolloutCollector:
        """Training envs for the current curriculum stage (rebuilt when the stage changes)."""
        kwargs = self.curriculum.env_kwargs()
        if self._collector is None or self._collector_difficulty != kwargs.get("difficulty"):
            if self._collector is not None:
                self._collector.close()
            self._collector = RolloutCollector(
                self.policy, self.config.rollout, self.config.reward, env_kwargs=kwargs
            )
            self._collector_difficulty = kwargs.get("difficulty")
        return self._collector

    # ---- one update --------------------------------------------------------------------------
    def jobs(self, update: int) -> list[Job]:
        cfg = self.config
        rng = np.random.default_rng([cfg.rollout.seed, update])
        return self.algorithm.jobs(rng, cfg.rollout.episodes_per_update)

    def step(self) -> dict[str, float]:
        """Collect one batch, update the policy, advance the counters; returns the metrics."""
        cfg = self.config
        update = self.state["update"]
        collector = self.collector()
        temperature = cfg.rollout.temperature.at(update)
        collector.stats = new_stats()
        started = time.perf_counter()
        jobs = self.parallel.shard_groups(self.jobs(update))
        with self.parallel.gathered():
            episodes = collector.collect(
                jobs, temperature, update, with_reference=cfg.algorithm.kl_coef > 0
            )
        rollout_seconds = time.perf_counter() - started
        sum_across = self.parallel.sum_floats if self.parallel.is_distributed else None
        self.algorithm.assign_advantages(episodes, sum_across)
        steps = [s for e in episodes for s in e.steps]
        started = time.perf_counter()
        learned = self.learner.update(steps, random.Random(cfg.seed * 1_000_003 + update))
        update_seconds = time.perf_counter() - started
        episodes, perf = self._gather_episodes(
            episodes, [collector.stats["gen_tokens"], collector.stats["gen_seconds"]]
        )
        gen_tokens, gen_seconds = perf
        metrics = episode_metrics(episodes, prefix="train/")
        metrics.update({f"loss/{k}": v for k, v in learned.items() if k != "train_tokens"})
        metrics["perf/gen_tokens_per_s"] = gen_tokens / max(gen_seconds, 1e-9)
        metrics["perf/train_tokens_per_s"] = learned["train_tokens"] / max(update_seconds, 1e-9)
        metrics["perf/rollout_seconds"] = rollout_seconds
        metrics["perf/env_seconds"] = collector.stats["env_seconds"]  # this rank's env steps
        metrics["perf/update_seconds"] = update_seconds
        metrics["lr"] = self.learner.optimizer.param_groups[0]["lr"]
        metrics["temperature"] = temperature
        metrics["curriculum/stage"] = float(self.curriculum.stage)
        self.state["update"] = update + 1
        self.curriculum.observe(update + 1, metrics["train/success_rate"])
        self.state["curriculum"] = self.curriculum.state()
        self.metrics.log(update + 1, metrics, returns=[e.shaped_return for e in episodes])
        return metrics

    def _gather_episodes(self, episodes: list[Episode], perf: list[float]):
        """All ranks' episodes (light copies, job order) and [tokens summed, seconds max]."""
        if not self.parallel.is_distributed:
            return episodes, perf
        gathered = self.parallel.gather([(light_episodes(episodes), perf)])
        everyone = [e for played, _ in gathered for e in played]
        tokens = sum(p[0] for _, p in gathered)
        return everyone, [tokens, max(p[1] for _, p in gathered)]

    # ---- evaluation and rollback -------------------------------------------------------------
    def evaluate(
        self, splits: list[str] | None = None, episodes: int | None = None, name: str = ""
    ):
        """Greedy (or ``evaluation.temperature``) success per split on fixed seeds (with
        ``curriculum.mode=mixed``, on each difficulty, and their mean per split). Every
        episode is also written, in the benchmark runner's record format (full trajectory), to
        ``RUN_DIR/evaluations/update_NNNNNN/episodes.jsonl``: a training run's evaluations are
        benchmark results (``agentgym_bench.stats.summarize`` reads them); ``name`` replaces
        the folder's name (``before_bc``: the evaluation before behaviour cloning)."""
        cfg = self.config
        results: dict[str, float] = {}
        records: list[EpisodeRecord] = []
        stages = self.curriculum.every_stage()  # curriculum.mode=mixed: each difficulty
        splits = splits or self.eval_splits
        count = episodes or cfg.evaluation.episodes
        bar = _progress(
            len(splits) * len(stages) * count,
            0,
            cfg.logging.progress and self.parallel.is_main,
            desc=f"evaluating ({name or 'update ' + str(self.state['update'])})",
            unit="episode",
        )
        for split in splits:
            in_split: list[Episode] = []
            for kwargs in stages:
                collector = RolloutCollector(
                    self.policy,
                    cfg.rollout,
                    cfg.reward,
                    env_kwargs={**kwargs, "split": split},
                    record=True,
                )
                jobs = [Job(EVAL_SEED_BASE + i, i) for i in range(count)]
                with self.parallel.gathered(reference=False):
                    played = collector.collect(
                        self.parallel.shard(jobs), cfg.evaluation.temperature, on_episode=bar.update
                    )
                collector.close()
                played, _ = self._gather_episodes(played, [0.0, 0.0])
                if len(stages) > 1:
                    prefix = f"eval/{split}/{kwargs['difficulty']}/"
                    results.update(episode_metrics(played, prefix=prefix))
                in_split += played
                records += [self._result_record(episode) for episode in played]
            results.update(episode_metrics(in_split, prefix=f"eval/{split}/"))
        bar.close()
        if self.parallel.is_main:
            folder = self.run_dir / "evaluations" / (name or f"update_{self.state['update']:06d}")
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "episodes.jsonl").write_text(records_text(records), encoding="utf-8")
        return results

    def _result_record(self, episode: Episode) -> EpisodeRecord:
        """An evaluation episode as the benchmark runner records one."""
        trajectory = episode.trajectory
        assert trajectory is not None  # evaluation collectors record
        rollout = self.config.rollout
        place = {
            "env_id": trajectory.env_id,
            "difficulty": trajectory.difficulty,
            "split": trajectory.split,
            "task_id": trajectory.task_id,
            "seed": trajectory.seed,
            "max_steps": rollout.max_turns,
            "key": trajectory.key,
        }
        agent = {
            "spec": f"run:{self.run_dir}",
            "update": self.state["update"],
            "temperature": self.config.evaluation.temperature,
            "action_mode": rollout.action_mode,
        }
        return played_record(place, trajectory, agent)

    def _evaluate_and_maybe_rollback(self) -> None:
        cfg = self.config.evaluation
        update = self.state["update"]
        results = self.evaluate()
        self.metrics.log(update, results)
        self.last_evaluation = {"update": update, **results}
        key = f"eval/{self.rollback_split}/success_rate"
        if key not in results:
            return
        score = results[key]
        self.state["eval_history"].append([update, score])
        best = self.state["best_eval"]
        if best is None or score > best:
            self.state["best_eval"], self.state["best_update"] = score, update
            self.save()
            return
        if cfg.rollback and score < best - cfg.rollback_margin:
            self.rollback(f"{key} fell to {score:.3f} from best {best:.3f}")

    def rollback(self, reason: str) -> None:
        """Restore the best checkpoint's weights and optimizer, lower the learning rate."""
        best = self.state["best_update"]
        path = self.run_dir / "checkpoints" / f"update_{best:06d}"
        if best is None or not path.exists():
            log.warning("rollback wanted (%s) but no best checkpoint exists", reason)
            return
        keep = dict(self.state)
        load_checkpoint(path, self.policy, self.learner.optimizer, None, restore_rng=False)
        self.state = keep
        scale = self.learner.scale_lr(self.config.evaluation.rollback_lr_factor)
        self.state["rollbacks"] += 1
        message = (
            f"rollback #{self.state['rollbacks']} at update {self.state['update']}: {reason}; "
            f"restored update {best}, lr scale now {scale:.3g}"
        )
        log.warning(message)
        self.metrics.event(self.state["update"], "rollback", message)

    # ---- checkpoints and the loop ------------------------------------------------------------
    def save(self) -> Path:
        """Rank 0 writes the checkpoint; data-parallel runs add every rank's RNG states, check
        that the ranks' weights are bit-identical (sharded runs: assemble them from the shards),
        and wait until the files exist."""
        protect = (self.state["best_update"],) if self.state["best_update"] is not None else ()
        update = self.state["update"]
        parallel, optimizer = self.parallel, self.learner.optimizer
        weights, optimizer_state = parallel.checkpoint_state(self.policy, optimizer)
        extra, prints = parallel.checkpoint_extras(weights)
        path = self.run_dir / "checkpoints" / f"update_{update:06d}"
        if parallel.is_main:
            path = save_checkpoint(
                self.run_dir,
                update,
                self.policy,
                optimizer,
                self.learner.scheduler,
                self.state,
                keep=self.config.checkpoint.keep,
                protect=protect,
                extra=extra,
                weights=weights,
                optimizer_state=optimizer_state,
            )
        parallel.confirm_checkpoint(self.run_dir, update, prints)
        return path

    def train(self) -> dict[str, float]:
        """Run until ``updates``; returns the last update's metrics."""
        cfg = self.config
        if cfg.bc.enabled and not self.state["bc_done"] and self.state["update"] == 0:
            from agentgym_train.bc import behaviour_clone

            split = self.rollback_split
            before = self.evaluate([split], name="before_bc") if cfg.bc.evaluate_before else {}
            bc_metrics = behaviour_clone(
                self.policy,
                self.collector(),
                cfg.bc,
                parallel=self.parallel,
                progress=cfg.logging.progress and self.parallel.is_main,
                stages=self.curriculum.every_stage(),
            )
            after = self.evaluate([split])
            for when, results in (("before", before), ("after", after)):
                if not results:  # bc.evaluate_before=false
                    continue
                bc_metrics[f"bc/success_{when}"] = results[f"eval/{split}/success_rate"]
                bc_metrics.update(  # each difficulty's too, with curriculum.mode=mixed
                    {f"bc/{when}/{k.removeprefix('eval/')}": v for k, v in results.items()}
                )
            log.info("behaviour cloning: %s", bc_metrics)
            self.metrics.log(0, bc_metrics)
            self.state["bc_done"] = True
            self.save()  # a run stopped during RL resumes after cloning, not before it
        elif cfg.policy.init_adapter and cfg.evaluation.every and not self.state["eval_history"]:
            self._evaluate_and_maybe_rollback()  # the adapter's own figure: the curve's start
        last: dict[str, float] = {}
        show = cfg.logging.progress and self.parallel.is_main
        progress = _progress(cfg.updates, self.state["update"], show)
        while self.state["update"] < cfg.updates:
            last = self.step()
            update = self.state["update"]
            progress.update(1)
            progress.set_postfix(
                success=f"{last['train/success_rate']:.2f}", ret=f"{last['train/return']:.2f}"
            )
            if cfg.evaluation.every and update % cfg.evaluation.every == 0:
                self._evaluate_and_maybe_rollback()
            if cfg.checkpoint.every and update % cfg.checkpoint.every == 0:
                self.save()
        progress.close()
        final = self.run_dir / "checkpoints" / f"update_{self.state['update']:06d}"
        if not self.parallel.broadcast_object(final.exists()):  # rank 0's view decides
            self.save()
        self.close()
        return last

    def close(self) -> None:
        if self._collector is not None:
            self._collector.close()
            self._collector = None
        self.metrics.close()


def _progress(total: int, initial: int, enabled: bool, desc: str = "updates", unit: str = "upd"):
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=initial, disable=not enabled, desc=desc, unit=unit)


def read_metrics(run_dir: str | Path) -> list[dict[str, Any]]:
    """The rows of RUN_DIR/metrics.jsonl."""
    path = Path(run_dir) / "metrics.jsonl"
    if not path.exists():
        raise FileNotFoundError(f"{path} not found: is {run_dir} a training run directory?")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


__all__ = ["Episode", "Trainer", "read_metrics"]
