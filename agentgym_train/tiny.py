"""Tiny offline policies: a byte-level BPE tokenizer trained on env text and a small Llama.

Tests and CPU smoke runs need a causal LM without downloading one. ``build_tiny_model`` trains
a tokenizer on text the env itself produces (observations, goals, admissible and expert actions,
the prompt wrapper's system prompt) and builds a randomly initialised ``LlamaForCausalLM`` from
config; both are saved as a normal Hugging Face directory that ``from_pretrained`` reloads.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import gymnasium as gym

from agentgym_envs.core.splits import DIFFICULTIES

PAD, BOS, EOS, UNK = "<pad>", "<s>", "</s>", "<unk>"
MARKER = "agentgym_tiny.json"


def env_corpus(
    env_id: str,
    episodes: int = 300,
    env_kwargs: dict[str, Any] | None = None,
    difficulties: Iterable[str] = DIFFICULTIES,
    seed: int = 0,
) -> Iterator[str]:
    """Text an env produces while its oracle plays: what a tokenizer for that env should know."""
    from agentgym_envs.agents import OracleAgent, RandomAgent
    from agentgym_envs.core.episode import play_episode
    from agentgym_envs.registration import served_splits
    from agentgym_envs.wrappers.prompt import DEFAULT_SYSTEM, DEFAULT_SYSTEM_NO_THOUGHT

    kwargs = dict(env_kwargs or {})
    served = served_splits(env_id, kwargs)  # one MiniWoB task serves its task's splits only
    for difficulty in difficulties:
        for split in [s for s in ("train", "ood") if s in served]:
            env = gym.make(env_id, **{**kwargs, "difficulty": difficulty, "split": split})
            help_text = getattr(env.unwrapped, "action_help", "")
            yield DEFAULT_SYSTEM.format(action_help=help_text)
            yield DEFAULT_SYSTEM_NO_THOUGHT.format(action_help=help_text)
            agents = (OracleAgent(), RandomAgent())
            for episode in range(episodes // 2 if split == "train" else episodes // 8):
                agent = agents[episode % 2]
                played = play_episode(env, agent, seed + episode, max_steps=20, admissible=True)
                yield played.observation
                for step in played.steps:
                    yield " | ".join(step["admissible_actions"])
                    yield f"Action: {step['action']}"
                    yield step["observation"]
            env.close()


def offered_difficulties(
    env_id: str, env_kwargs: dict[str, Any] | None, wanted: Iterable[str]
) -> tuple[str, ...]:
    """The difficulties of ``wanted`` that ``env_id`` accepts (a MiniWoB task id has one tier)."""
    import gymnasium as gym

    offered = []
    for difficulty in dict.fromkeys(wanted):
        try:
            gym.make(env_id, **{**(env_kwargs or {}), "difficulty": difficulty}).close()
        except ValueError:
            continue
        offered.append(difficulty)
    return tuple(offered)


def transcripts(
    env_id: str,
    env_kwargs: dict[str, Any] | None,
    render: Callable[[list, str, list[str]], str],
    episodes: int,
    max_turns: int = 10,
    seed: int = 0,
    expert_fraction: float = 0.0,
) -> Iterator[str]:
    """Prompt + ``" Action: <a>"`` texts of a random agent, rendered the way the trainer prompts.

    ``render(history, observation, admissible)`` builds the prompt text. Pre-training on these
    teaches a tiny model the env's language and the action format, but not which action is
    right: that is left to behaviour cloning or RL. With ``expert_fraction`` > 0 that share of
    episodes follows the oracle instead, giving the model a weak prior (like a pretrained LLM's).
    """
    from agentgym_envs.agents import OracleAgent, RandomAgent
    from agentgym_envs.core.episode import play_episode
    from agentgym_envs.wrappers.prompt import Turn

    env = gym.make(env_id, **dict(env_kwargs or {}))
    rng = random.Random(seed)
    for episode in range(episodes):
        agent = OracleAgent() if rng.random() < expert_fraction else RandomAgent()
        played = play_episode(env, agent, seed + episode, max_steps=max_turns, admissible=True)
        observation, history = played.observation, list[Turn]()
        for step in played.steps:
            prompt = render(history, observation, list(step["admissible_actions"]))
            yield f"{prompt} Action: {step['action']}"
            history.append(Turn(observation, f"Action: {step['action']}"))
            observation = step["observation"]
    env.close()


def pretrain(
    model, tokenizer, texts: list[str], steps: int, batch_size: int = 16, lr=3e-3, progress=False
):
    """Plain next-token training of ``model`` on ``texts`` (EOS appended), in place."""
    import torch
    from tqdm.auto import tqdm

    from agentgym_train.policy import pad_right

    encoded = [[*tokenizer(t).input_ids, tokenizer.eos_token_id] for t in texts]
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    order = torch.randperm(len(encoded)).tolist()
    model.train()
    for step in tqdm(range(steps), desc="tiny model: pretrain", unit="step", disable=not progress):
        start = (step * batch_size) % max(len(encoded) - batch_size, 1)
        batch = [encoded[i] for i in order[start : start + batch_size]]
        ids, mask = pad_right(batch, tokenizer.pad_token_id)
        labels = ids.masked_fill(mask == 0, -100)
        loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    return float(loss.detach())


def train_tokenizer(texts: Iterable[str], vocab_size: int = 1024):
    """A byte-level BPE tokenizer (``PreTrainedTokenizerFast``) trained on ``texts`` in memory."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    core = Tokenizer(models.BPE(unk_token=UNK))
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=[PAD, BOS, EOS, UNK],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    core.train_from_iterator(list(texts), trainer=trainer)
    return PreTrainedTokenizerFast(
        tokenizer_object=core, pad_token=PAD, bos_token=BOS, eos_token=EOS, unk_token=UNK
    )


def tiny_llama_config(tokenizer, hidden: int = 64, layers: int = 2, heads: int = 4, **extra):
    """A small ``LlamaConfig`` sized to ``tokenizer`` (override any field through ``extra``)."""
    from transformers import LlamaConfig

    fields = {
        "vocab_size": len(tokenizer),
        "hidden_size": hidden,
        "intermediate_size": hidden * 4,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "num_key_value_heads": heads,
        "max_position_embeddings": 4096,
        "tie_word_embeddings": True,
        "pad_token_id": tokenizer.pad_token_id,
        "bos_token_id": tokenizer.bos_token_id,
        "eos_token_id": tokenizer.eos_token_id,
    }
    fields.update(extra)
    return LlamaConfig(**fields)


def build_tiny_model(
    out_dir: str | Path,
    env_id: str = "AgentGym/Toy-v0",
    env_kwargs: dict[str, Any] | None = None,
    vocab_size: int = 1024,
    hidden: int = 64,
    layers: int = 2,
    seed: int = 0,
    episodes: int = 300,
    difficulties: tuple[str, ...] = DIFFICULTIES,
    pretrain_steps: int = 0,
    render: Callable[[list, str, list[str]], str] | None = None,
    expert_fraction: float = 0.0,
    progress: bool = False,
) -> Path:
    """Train a tokenizer on ``env_id`` text, build a tiny Llama, save both to ``out_dir``.

    Reuses ``out_dir`` when it already holds a tiny model built with the same settings, so a run
    directory or test cache can call this freely.
    """
    import torch

    out = Path(out_dir)
    settings = {
        "env_id": env_id,
        "env_kwargs": env_kwargs or {},
        "vocab_size": vocab_size,
        "hidden": hidden,
        "layers": layers,
        "seed": seed,
        "episodes": episodes,
        "difficulties": list(difficulties),
        "pretrain_steps": pretrain_steps,
        "expert_fraction": expert_fraction,
        "prompt_sample": render([], "<obs>", ["<a>"]) if render else None,
    }
    marker = out / MARKER
    if marker.exists() and json.loads(marker.read_text()) == settings:
        return out
    from tqdm.auto import tqdm
    from transformers import LlamaForCausalLM

    corpus = env_corpus(env_id, episodes, env_kwargs, difficulties, seed)
    corpus = tqdm(corpus, desc="tiny model: tokenizer text", unit="text", disable=not progress)
    tokenizer = train_tokenizer(corpus, vocab_size)
    config = tiny_llama_config(tokenizer, hidden=hidden, layers=layers)
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        model = LlamaForCausalLM(config)
        if pretrain_steps:
            if render is None:
                raise ValueError("pretrain_steps needs `render`, the trainer's prompt builder")
            texts = list(
                transcripts(
                    env_id, env_kwargs, render, episodes * 4, seed=seed,
                    expert_fraction=expert_fraction,
                )
            )  # fmt: skip
            pretrain(model, tokenizer, texts, pretrain_steps, progress=progress)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    marker.write_text(json.dumps(settings, indent=1))
    return out


__all__ = ["build_tiny_model", "env_corpus", "tiny_llama_config", "train_tokenizer"]
