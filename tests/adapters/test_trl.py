# ruff: noqa: E402 - the imports below follow the skip when the extras are missing
"""TRL's GRPOTrainer with AgentGym episodes as its rollouts: the transcript's layout (model
tokens with log-probs, env tokens masked out), and two real GRPO steps on CPU with a tiny local
model that receive non-constant rewards from the env."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.train.support import config_for, require_train_extra

require_train_extra()
pytest.importorskip("datasets", reason="needs the trl extra: pip install 'agentgym-suite[trl]'")

import torch
from agentgym_trl import EnvRollout, env_reward
from transformers import AutoModelForCausalLM, AutoTokenizer

TOY = ("AgentGym/Toy-v0", {"difficulty": "easy"})


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A tiny Llama and tokenizer trained on Toy text (built here, offline)."""
    from agentgym_train.models import base_model_path

    root = tmp_path_factory.mktemp("tiny-trl")
    path = base_model_path(config_for(root, "tiny", "policy.tiny_pretrain_steps=20"), root)
    tokenizer = AutoTokenizer.from_pretrained(path)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return path, tokenizer


def _trainer_stand_in(model, tokenizer, temperature=1.0):
    """What EnvRollout reads of a GRPOTrainer."""
    accelerator = SimpleNamespace(unwrap_model=lambda m: m)
    args = SimpleNamespace(temperature=temperature)
    return SimpleNamespace(model=model, processing_class=tokenizer, args=args,
                           accelerator=accelerator)  # fmt: skip


def test_a_rollout_is_one_transcript_with_the_env_turns_masked_out(tiny, monkeypatch):
    import gymnasium as gym

    path, tokenizer = tiny
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_pretrained(path)
    made = []
    make = gym.make
    monkeypatch.setattr(gym, "make", lambda *a, **k: made.append(a) or make(*a, **k))
    rollout = EnvRollout(*TOY, max_turns=3, max_new_tokens=6)
    rows = rollout.dataset([0, 1, 2])
    assert rows["seed"] == [0, 1, 2] and "Go to the black room" in rows["prompt"][0]
    out = rollout(rows["prompt"][:2], _trainer_stand_in(model, tokenizer))
    rollout(rows["prompt"][2:], _trainer_stand_in(model, tokenizer))
    assert len(made) == 1  # one env for the dataset and every rollout (MiniWoB: one browser)
    assert len(out["prompt_ids"]) == len(out["completion_ids"]) == 2
    for completion, logprobs, mask in zip(out["completion_ids"], out["logprobs"], out["env_mask"],
                                          strict=True):  # fmt: skip
        assert len(completion) == len(logprobs) == len(mask) > 0
        assert mask[0] == 1  # the model speaks first
        assert all(lp <= 0.0 for lp in logprobs)
        assert all(lp == 0.0 for lp, m in zip(logprobs, mask, strict=True) if m == 0)
    assert all(0.0 <= r <= 1.0 for r in out["env_return"])
    assert env_reward([None, None], out["env_return"]) == out["env_return"]
    # a turn that did not end the episode is followed by the env's answer (masked out)
    multi = [m for m, r in zip(out["env_mask"], out["env_return"], strict=True) if 0 in m]
    assert multi or all(r == 1.0 for r in out["env_return"])


def test_a_prompt_not_built_by_the_rollout_is_refused(tiny):
    path, tokenizer = tiny
    rollout = EnvRollout(*TOY)
    with pytest.raises(ValueError, match=r"EnvRollout.dataset\(seeds\)"):
        rollout(["a prompt from elsewhere"], _trainer_stand_in(None, tokenizer))


def test_two_grpo_steps_receive_rewards_from_the_env(tiny, tmp_path, monkeypatch):
    from trl import GRPOConfig, GRPOTrainer

    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    path, tokenizer = tiny
    torch.set_num_threads(1)
    rollout = EnvRollout(*TOY, max_turns=4, max_new_tokens=8)
    config = GRPOConfig(
        output_dir=str(tmp_path), per_device_train_batch_size=8, num_generations=8, max_steps=2,
        use_cpu=True, bf16=False, report_to="none", logging_steps=1, save_strategy="no",
        learning_rate=1e-4, max_completion_length=256, seed=0,
    )  # fmt: skip
    trainer = GRPOTrainer(
        model=AutoModelForCausalLM.from_pretrained(path), args=config, processing_class=tokenizer,
        train_dataset=rollout.dataset(range(16)), reward_funcs=env_reward, rollout_func=rollout,
    )  # fmt: skip
    trainer.train()
    steps = [h for h in trainer.state.log_history if "reward" in h]
    assert len(steps) == 2
    assert all(0.0 <= h["reward"] <= 1.0 for h in steps)
    assert max(h["reward_std"] for h in steps) > 0  # the env's rewards differed within a group
    assert all(torch.isfinite(torch.tensor(h["loss"])) for h in steps)


def test_the_example_script_trains_and_saves(tiny, tmp_path, monkeypatch):
    import importlib.util
    from pathlib import Path

    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    script = Path(__file__).resolve().parents[2] / "examples" / "trl_grpo.py"
    spec = importlib.util.spec_from_file_location("trl_grpo_example", script)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    path, _ = tiny
    out = tmp_path / "out"
    torch.set_num_threads(1)
    example.main(["--model", str(path), "--steps", "1", "--tasks", "8", "--turns", "2",
                  "--out", str(out)])  # fmt: skip
    assert (out / "model.safetensors").exists()
