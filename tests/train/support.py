"""Helpers of the trainer tests: the train-extra skip, a small fast config."""

from __future__ import annotations

import pytest

#: Call it at the top of each test module (a skip raised in a conftest would abort the run).
NEEDS = ("torch", "transformers", "peft", "trl", "yaml")


def require_train_extra() -> None:
    """Skip the calling test module when the train extra is not installed."""
    for module in NEEDS:
        pytest.importorskip(module, reason="needs the train extra: pip install -e '.[train]'")


SYSTEM = "Act in a text house. Answer with 'Action: <action>'. Actions: {action_help}"


def config_for(run_dir, model: str, *overrides: str):
    """A small, fast Toy-easy config writing to ``run_dir``."""
    from agentgym_train.config import load_config

    base = [
        f"logging.run_dir={run_dir}",
        f"policy.model={model}",
        "logging.progress=false",
        "logging.tensorboard=false",
        f"rollout.system_template={SYSTEM}",
        "rollout.num_envs=8",
        "rollout.episodes_per_update=16",
        "rollout.max_turns=4",
        "algorithm.ppo_epochs=1",
        "algorithm.minibatch_size=16",
        "algorithm.group_size=4",
        "updates=2",
        "checkpoint.every=1",
    ]
    return load_config(None, [*base, *overrides])
