"""Throughput check at a realistic model size, needing nothing from the internet.

Builds a randomly initialised Llama from config (~0.5B parameters by default) with a tokenizer
trained locally on Toy text, runs a few PPO updates with LoRA on ``AgentGym/Toy-v0`` in score and
in generate mode, and prints generation and training tokens per second and peak GPU memory.
Random weights learn nothing in a few updates: this measures speed and checks the CUDA path
(bf16, LoRA, KV-cache scoring, generation), not learning.

``bash scripts/gpu_check.sh`` runs it on CUDA; ``--device cpu --size small`` is the same code
path in seconds on a CPU (what the test suite runs).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

#: name -> (hidden, layers, heads, intermediate); "0.5b" is Qwen2.5-0.5B-like in width and depth.
SIZES = {"0.5b": (1024, 24, 16, 2816), "small": (64, 2, 4, 256)}


def build_random_model(out_dir: Path, size: str, device: str) -> int:
    """Write a random-init Llama + local tokenizer to ``out_dir``; returns the parameter count."""
    import torch
    from transformers import LlamaForCausalLM

    from agentgym_train.tiny import env_corpus, tiny_llama_config, train_tokenizer

    hidden, layers, heads, intermediate = SIZES[size]
    vocab = 4096 if size == "0.5b" else 1024
    tokenizer = train_tokenizer(env_corpus("AgentGym/Toy-v0", episodes=60), vocab_size=vocab)
    config = tiny_llama_config(
        tokenizer, hidden=hidden, layers=layers, heads=heads, intermediate_size=intermediate
    )
    with torch.device(device):
        model = LlamaForCausalLM(config)
    if device.startswith("cuda"):
        model = model.to(torch.bfloat16)
    model.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
    return sum(p.numel() for p in model.parameters())


def run(device: str, size: str, updates: int, modes: list[str], run_dir: Path) -> list[dict]:
    """Build the model, train ``updates`` updates per action mode; returns one row per update."""
    import torch

    from agentgym_train.config import load_config
    from agentgym_train.trainer import Trainer

    started = time.perf_counter()
    params = build_random_model(run_dir / "base_model", size, device)
    print(f"built a {params / 1e6:.1f}M-parameter model in {time.perf_counter() - started:.1f}s")
    cuda = device.startswith("cuda")
    rows = []
    for mode in modes:
        config = load_config(None, [
            f"logging.run_dir={run_dir / mode}", f"policy.model={run_dir / 'base_model'}",
            f"updates={updates}", f"device={device}", f"rollout.action_mode={mode}",
            "logging.progress=false", "logging.tensorboard=false", "checkpoint.every=0",
            f"policy.dtype={'bfloat16' if cuda else 'float32'}",
            f"rollout.num_envs={32 if cuda else 8}",
            f"rollout.episodes_per_update={64 if cuda else 8}",
            "algorithm.minibatch_size=32", "algorithm.ppo_epochs=1", "algorithm.kl_coef=0.02",
        ])  # fmt: skip
        trainer = Trainer(config)
        for _ in range(updates):
            m = trainer.step()
            row = {"mode": mode, "update": trainer.state["update"], **m}
            rows.append(row)
            print(
                f"[{mode}] update {row['update']}: success {m['train/success_rate']:.2f}, "
                f"generation {m['perf/gen_tokens_per_s']:,.0f} tok/s, "
                f"training {m['perf/train_tokens_per_s']:,.0f} tok/s, "
                f"rollout {m['perf/rollout_seconds']:.1f}s, update {m['perf/update_seconds']:.1f}s"
            )
        trainer.close()
    if cuda:
        print(f"peak GPU memory {torch.cuda.max_memory_allocated() / 2**30:.1f} GiB")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="gpu_check", description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--device", default="cuda", help="cuda (default), cuda:N or cpu")
    parser.add_argument(
        "--size", default="0.5b", choices=sorted(SIZES), help="model size (default 0.5b)"
    )
    parser.add_argument("--updates", type=int, default=3, help="updates per mode (default 3)")
    parser.add_argument(
        "--modes", default="score,generate", help="action modes, comma-separated (default both)"
    )
    parser.add_argument("--run-dir", help="where to write the model and logs (default: a temp dir)")
    args = parser.parse_args(argv)
    import torch

    if args.device.startswith("cuda") and not torch.cuda.is_available():
        print("gpu_check: CUDA is not available here; use --device cpu --size small for a dry run")
        return 2
    import agentgym_envs  # noqa: F401  (registers the envs)

    run_dir = Path(args.run_dir or tempfile.mkdtemp(prefix="agentgym_gpu_check_"))
    run(args.device, args.size, args.updates, args.modes.split(","), run_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
