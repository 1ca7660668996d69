# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""Must-show: RL lifts a tiny offline policy on Toy easy (pick the right door of three) to a
success rate of at least 0.8. Slow: minutes of CPU each.

The 64-wide, 2-layer tiny Llama has to learn to copy the goal's colour into its action. A short
behaviour-cloning warm start that leaves the policy well short of the task (~0.47 greedy) is
the starting level; PPO and GRPO each have to take it past 0.8. Not shown (see
agentgym_train/README.md, "Learning on Toy"): RL from random weights, which stays at chance for
the ~100 updates we tried.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.train.conftest import require_train_extra

require_train_extra()

from agentgym_train.config import load_config
from agentgym_train.trainer import Trainer, base_model_path

TOY = Path(__file__).resolve().parents[2] / "configs" / "toy.yaml"
FAST = ("logging.progress=false", "logging.tensorboard=false", "checkpoint.every=0",
        "evaluation.every=0", "evaluation.episodes=64", "evaluation.splits=[valid]",
        "policy.lora=false")  # fmt: skip
WARM_START = ("bc.enabled=true", "bc.episodes=200", "bc.epochs=30", "bc.lr=3e-3")


@pytest.fixture(scope="module")
def toy_model(tmp_path_factory):
    """The tiny model exactly as configs/toy.yaml builds it (pre-trained on random play)."""
    root = tmp_path_factory.mktemp("toy_model")
    return str(base_model_path(load_config(TOY, [f"logging.run_dir={root}"]), root))


def _run(run_dir, model, *overrides) -> tuple[float, float, float]:
    config = load_config(TOY, [f"logging.run_dir={run_dir}", f"policy.model={model}", *FAST,
                               *overrides])  # fmt: skip
    trainer = Trainer(config)
    before = trainer.evaluate()["eval/valid/success_rate"]
    if config.bc.enabled:  # the warm start, as train() would run it
        from agentgym_train.bc import behaviour_clone

        behaviour_clone(trainer.policy, trainer.collector(), config.bc)
        trainer.state["bc_done"] = True
    start = trainer.evaluate()["eval/valid/success_rate"]
    trainer.train()
    end = trainer.evaluate()["eval/valid/success_rate"]
    return before, start, end


@pytest.mark.slow
def test_ppo_after_short_warm_start_reaches_08(tmp_path, toy_model):
    before, start, end = _run(tmp_path, toy_model, *WARM_START, "algorithm.name=ppo", "updates=30")
    assert start < 0.8, "the warm start alone must not solve the task"
    assert end >= 0.8 and end > start, (before, start, end)


@pytest.mark.slow
def test_grpo_after_short_warm_start_reaches_08(tmp_path, toy_model):
    # 32 tasks x 4 rollouts per update; group-centred returns scaled by the batch std (a
    # per-group std made one step penalty weigh as much as success and learned ~2x slower).
    grpo = ("algorithm.name=grpo", "algorithm.group_size=4", "algorithm.grpo_scale=batch",
            "rollout.episodes_per_update=128", "updates=40")  # fmt: skip
    before, start, end = _run(tmp_path, toy_model, *WARM_START, *grpo)
    assert start < 0.8, "the warm start alone must not solve the task"
    assert end >= 0.8 and end > start, (before, start, end)
