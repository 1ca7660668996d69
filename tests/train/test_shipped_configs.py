# ruff: noqa: E402 - the imports below follow the skip when the train extra is missing
"""Every shipped config in configs/ trains: one small update (and an evaluation) with its own
algorithm, action mode, LoRA/KL and curriculum settings, shrunk only in episodes and turns."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.train.support import require_train_extra

require_train_extra()

from agentgym_envs.registration import entry_for
from agentgym_train.config import load_config
from agentgym_train.smollm import MODEL_NAME as SMOLLM2
from agentgym_train.trainer import Trainer, read_metrics

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
BUILT_HERE = ("tiny", SMOLLM2)  # models the trainer makes offline
SMALL = ("updates=1", "rollout.episodes_per_update=8", "rollout.num_envs=2",
         "rollout.max_turns=4", "rollout.max_history_tokens=384", "algorithm.minibatch_size=8",
         "policy.tiny_pretrain_steps=0", "policy.tiny_corpus_episodes=40", "bc.episodes=4",
         "bc.epochs=1", "evaluation.every=1", "evaluation.episodes=2",
         "evaluation.splits=[valid]", "logging.progress=false",
         "logging.tensorboard=false",
         # one thread: the test workers share the cores, and a worker's 2 OpenMP threads among
         # them made SmolLM2's decode steps 3-6x slower (a one-update MiniWoB run took 8 min)
         "torch_threads=1")  # fmt: skip


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:grpo. only:UserWarning")  # 8 episodes are few tasks, knowingly
@pytest.mark.parametrize(
    "name",
    sorted(p.relative_to(CONFIGS).with_suffix("").as_posix() for p in CONFIGS.rglob("*.yaml")),
)
def test_shipped_config_trains_one_update(name, tmp_path):
    overrides = [f"logging.run_dir={tmp_path}", *SMALL]
    config = load_config(CONFIGS / f"{name}.yaml", overrides)
    if config.policy.model == SMOLLM2:  # the baselines' recipes (configs/smollm2/): less of all,
        # one sequence per forward/backward (WebShop's scored candidates at 8 per micro-batch
        # peaked at 11.6 GB, and CI's other workers and Ray's memory monitor share the machine)
        overrides += ["bc.episodes=1", "rollout.max_turns=2", "evaluation.episodes=1",
                      "algorithm.micro_batch_size=1", "bc.micro_batch_size=1",
                      "rollout.episodes_per_update=4",  # one group of 4
                      "algorithm.minibatch_size=4"]  # fmt: skip
        config = load_config(CONFIGS / f"{name}.yaml", overrides)
    if not Path(config.policy.model).exists() and config.policy.model not in BUILT_HERE:
        # a real model the user downloads first (Qwen2.5): the bundled SmolLM2 stands in, one
        # turn per forward/backward (4 WebShop turns at once took ~10 GB on this CPU) and less
        # of everything (a 135M model scoring WebShop's candidates: 8 episodes of 3 turns took
        # 4-7 of CI's minutes; the recipe's settings are exercised as well by 2 of 2 turns)
        overrides += [f"policy.model={SMOLLM2}", "algorithm.micro_batch_size=1",
                      "bc.micro_batch_size=1", "bc.episodes=1", "algorithm.ppo_epochs=1",
                      "rollout.max_turns=2", "rollout.episodes_per_update=2",
                      "algorithm.minibatch_size=2", "evaluation.episodes=1"]  # fmt: skip
        config = load_config(CONFIGS / f"{name}.yaml", overrides)
    entry = entry_for(config.rollout.env_id)
    if entry.missing():
        pytest.skip(f"needs {entry.missing()}: {entry.install_hint()}")
    Trainer(config).train()
    rows = read_metrics(tmp_path)
    trained = [r for r in rows if "train/episodes" in r]
    episodes = float(config.rollout.episodes_per_update)
    assert [(r["update"], r["train/episodes"]) for r in trained] == [(1, episodes)]
    assert any("eval/valid/success_rate" in r for r in rows)
    assert (tmp_path / "checkpoints" / "update_000001" / "state.json").exists()
