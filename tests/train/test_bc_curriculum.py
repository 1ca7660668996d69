# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""Behaviour cloning from the oracle or recorded trajectories, curriculum, rollback."""

from __future__ import annotations

from tests.train.support import require_train_extra

require_train_extra()

import gymnasium as gym
import pytest
import torch

from agentgym_envs.agents import OracleAgent
from agentgym_envs.wrappers import TrajectoryRecorder
from agentgym_train.bc import (
    behaviour_clone,
    examples_from,
    oracle_trajectories,
    read_trajectories,
)
from agentgym_train.config import CurriculumConfig
from agentgym_train.curriculum import Curriculum
from agentgym_train.policy import Policy
from agentgym_train.rollout import RolloutCollector
from agentgym_train.trainer import Trainer, read_metrics
from tests.train.support import config_for


def test_examples_from_recorded_trajectories(tiny_dir, tmp_path):
    path = tmp_path / "traj.jsonl"
    env = TrajectoryRecorder(gym.make("AgentGym/Toy-v0", difficulty="medium"), path, True)
    agent = OracleAgent()
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
            done = terminated or truncated
    env.close()
    config = config_for(tmp_path / "run", tiny_dir)
    policy = Policy.load(tiny_dir, config.policy, torch.device("cpu"), reference=False)
    collector = RolloutCollector(policy, config.rollout, config.reward, num_envs=1)
    trajectories = read_trajectories(path)
    examples = examples_from(collector, trajectories)
    assert len(examples) == sum(len(t["steps"]) for t in trajectories)
    tok = policy.tokenizer
    prompt, completion = examples[1]
    assert tok.decode(prompt).endswith("Assistant: Action:")
    assert "Assistant: Action:" in tok.decode(prompt)[:-20]  # step 0 is in the history
    assert tok.decode(completion) == " " + trajectories[0]["steps"][1]["action"] + "</s>"
    collector.close()


def test_behaviour_cloning_lowers_the_loss(tiny_dir, tmp_path):
    config = config_for(tmp_path, tiny_dir, "bc.episodes=24", "bc.epochs=3", "bc.batch_size=8")
    torch.manual_seed(0)
    policy = Policy.load(tiny_dir, config.policy, torch.device("cpu"), reference=False)
    collector = RolloutCollector(policy, config.rollout, config.reward, num_envs=1)
    metrics = behaviour_clone(policy, collector, config.bc)
    collector.close()
    assert metrics["bc/examples"] >= 24
    assert metrics["bc/loss_last"] < metrics["bc/loss_first"]


def test_behaviour_cloning_demonstrations_use_bc_env_kwargs(tiny_dir, tmp_path):
    """``bc.env_kwargs={oracle: explorer}``: the demonstrations come from Toy's searching oracle
    (longer than the shortest oracle's), while rollouts keep the env as configured."""
    config = config_for(
        tmp_path, tiny_dir, "rollout.env_kwargs={difficulty: medium}", "rollout.max_turns=12",
        "bc.episodes=6", "bc.epochs=1", "bc.env_kwargs={oracle: explorer}",
    )  # fmt: skip
    policy = Policy.load(tiny_dir, config.policy, torch.device("cpu"), reference=False)
    collector = RolloutCollector(policy, config.rollout, config.reward, num_envs=1)
    metrics = behaviour_clone(policy, collector, config.bc)
    explorer = oracle_trajectories(collector, 6, 5_000_000, {"difficulty": "medium",
                                                             "oracle": "explorer"})  # fmt: skip
    shortest = oracle_trajectories(collector, 6, 5_000_000)
    assert collector.env_kwargs == {"difficulty": "medium"}
    collector.close()
    explored, direct = (sum(len(t["steps"]) for t in ts) for ts in (explorer, shortest))
    assert all(t["success"] for t in explorer) and explored > direct
    assert metrics["bc/examples"] == explored


def test_cloning_can_skip_the_evaluation_before_it(tiny_dir, tmp_path):
    config = config_for(tmp_path, tiny_dir, "bc.enabled=true", "bc.episodes=2", "bc.epochs=1",
                        "bc.evaluate_before=false", "updates=0", "evaluation.episodes=2",
                        "evaluation.splits=[valid]")  # fmt: skip
    Trainer(config).train()
    (row,) = [r for r in read_metrics(tmp_path) if "bc/examples" in r]
    assert "bc/success_after" in row and not any("before" in key for key in row)
    assert not (tmp_path / "evaluations" / "before_bc").exists()


def test_behaviour_cloning_micro_batches_give_the_batch_gradient(tiny_dir, tmp_path):
    from agentgym_train.bc import fine_tune, oracle_trajectories

    config = config_for(tmp_path, tiny_dir, "bc.episodes=6", "bc.epochs=1", "bc.batch_size=64")
    policy = Policy.load(tiny_dir, config.policy, torch.device("cpu"), reference=False)
    collector = RolloutCollector(policy, config.rollout, config.reward, num_envs=1)
    examples = examples_from(collector, oracle_trajectories(collector, 6))
    collector.close()
    start = policy.trainable_state()
    after, losses = {}, {}
    for micro in (0, 1, 3):
        policy.load_trainable_state({k: v.clone() for k, v in start.items()})
        config.bc.micro_batch_size = micro
        losses[micro] = fine_tune(policy, examples, config.bc)["bc/loss_first"]
        after[micro] = policy.trainable_state()
    assert len(examples) > 3  # one batch, split into several micro-batches
    for micro in (1, 3):
        assert losses[micro] == pytest.approx(losses[0], rel=1e-5)
        moved = [k for k in start if not torch.equal(after[0][k], start[k])]
        assert moved and all(torch.allclose(after[micro][k], after[0][k], atol=1e-6) for k in start)


def test_curriculum_by_update_and_by_success():
    by_update = Curriculum(
        CurriculumConfig(mode="by_update", switch_updates=[2, 4]), {"difficulty": "easy"}
    )
    seen = []
    for update in range(1, 6):
        by_update.observe(update, 0.0)
        seen.append(by_update.env_kwargs()["difficulty"])
    assert seen == ["easy", "medium", "medium", "hard", "hard"]

    by_success = Curriculum(CurriculumConfig(mode="by_success", window=2), {"split": "train"})
    for rate in (0.9, 0.5, 0.85, 0.9):
        by_success.observe(0, rate)
    assert by_success.env_kwargs() == {"split": "train", "difficulty": "medium"}
    restored = Curriculum(CurriculumConfig(mode="by_success", window=2), {})
    restored.load_state(by_success.state())
    assert restored.stage == 1

    with pytest.raises(ValueError, match="switch_updates"):
        Curriculum(CurriculumConfig(mode="by_update", switch_updates=[3]), {})


def test_mixed_curriculum_plays_each_stage_in_turn():
    mixed = Curriculum(CurriculumConfig(mode="mixed"), {"difficulty": "hard", "split": "train"})
    seen = [mixed.env_kwargs()["difficulty"]]
    for update in range(1, 5):
        mixed.observe(update, 1.0)
        seen.append(mixed.env_kwargs()["difficulty"])
    assert seen == ["easy", "medium", "hard", "easy", "medium"]
    assert mixed.every_stage() == [
        {"difficulty": d, "split": "train"} for d in ("easy", "medium", "hard")
    ]
    single = Curriculum(CurriculumConfig(mode="by_success"), {"difficulty": "easy"})
    assert single.every_stage() == [{"difficulty": "easy"}]


def test_mixed_curriculum_clones_and_evaluates_every_difficulty(tiny_dir, tmp_path):
    config = config_for(
        tmp_path, tiny_dir, "curriculum.mode=mixed", "curriculum.stages=[easy, medium]",
        "bc.enabled=true", "bc.episodes=2", "bc.epochs=1", "updates=0",
        "evaluation.episodes=2", "evaluation.splits=[valid]",
    )  # fmt: skip
    trainer = Trainer(config)
    collector = trainer.collector()
    stages = trainer.curriculum.every_stage()
    metrics = behaviour_clone(trainer.policy, collector, config.bc, stages=stages)
    easy = oracle_trajectories(collector, 2, 5_000_000, stages[0])
    medium = oracle_trajectories(collector, 2, 5_000_000, stages[1])
    assert {t["difficulty"] for t in easy} == {"easy"} and {t["difficulty"] for t in medium} == {
        "medium"
    }
    # both stages' oracle steps were cloned: easy takes one step, medium several
    assert metrics["bc/examples"] == sum(len(t["steps"]) for t in easy + medium)
    results = trainer.evaluate()
    trainer.close()
    for difficulty in ("easy", "medium"):
        assert results[f"eval/valid/{difficulty}/episodes"] == 2
    assert results["eval/valid/episodes"] == 4
    both = results["eval/valid/easy/success_rate"] + results["eval/valid/medium/success_rate"]
    assert results["eval/valid/success_rate"] == pytest.approx(both / 2)
    played = (tmp_path / "evaluations" / "update_000000" / "episodes.jsonl").read_text()
    assert played.count('"difficulty": "easy"') >= 2 and '"difficulty": "medium"' in played

    # the trainer's own warm start: before and after, each difficulty, both kept
    trainer = Trainer(config)
    trainer.train()
    (row,) = [r for r in read_metrics(tmp_path) if "bc/examples" in r]
    for when in ("before", "after"):
        for difficulty in ("easy", "medium"):
            assert f"bc/{when}/valid/{difficulty}/success_rate" in row
        assert row[f"bc/success_{when}"] == row[f"bc/{when}/valid/success_rate"]
    assert (tmp_path / "evaluations" / "before_bc" / "episodes.jsonl").exists()
    assert (tmp_path / "checkpoints" / "update_000000" / "state.json").exists()


def test_rollback_restores_best_weights_and_lowers_lr(tiny_dir, tmp_path):
    config = config_for(tmp_path, tiny_dir, "updates=1", "evaluation.rollback=true")
    trainer = Trainer(config)
    trainer.train()
    trainer.state["best_update"], trainer.state["best_eval"] = 1, 1.0
    best = trainer.policy.trainable_state()
    with torch.no_grad():
        for param in trainer.policy.parameters():
            if param.requires_grad:
                param.add_(1.0)
    lr_before = trainer.learner.optimizer.param_groups[0]["lr"]
    trainer.rollback("test")
    for name, tensor in trainer.policy.trainable_state().items():
        assert torch.equal(tensor, best[name]), name
    assert trainer.learner.optimizer.param_groups[0]["lr"] == pytest.approx(lr_before * 0.5)
    # later updates follow the schedule from the lowered peak (kept in checkpoints)
    assert trainer.learner.scheduler.base_lrs == [pytest.approx(config.algorithm.lr * 0.5)]
    assert "rollback #1" in (tmp_path / "events.jsonl").read_text()
