#!/usr/bin/env bash
# GPU check: a randomly initialised ~0.5B-parameter Llama (built from config, tokenizer trained
# locally: nothing from the internet), a few PPO updates on Toy-v0 with LoRA in bf16, and the
# generation / training tokens per second. Usage: bash scripts/gpu_check.sh [UPDATES]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PY="${PYTHON:-.venv/bin/python}"
UPDATES="${1:-3}"
"$PY" - "$UPDATES" <<'PY'
import sys
import tempfile
import time
from pathlib import Path

import torch

if not torch.cuda.is_available():
    sys.exit("gpu_check: CUDA is not available on this machine")
import agentgym_envs  # noqa: F401
from agentgym_train.config import load_config
from agentgym_train.tiny import env_corpus, tiny_llama_config, train_tokenizer
from agentgym_train.trainer import Trainer

updates = int(sys.argv[1])
run = Path(tempfile.mkdtemp(prefix="agentgym_gpu_"))
base = run / "base_model"
t0 = time.perf_counter()
tokenizer = train_tokenizer(env_corpus("AgentGym/Toy-v0", episodes=60), vocab_size=4096)
config = tiny_llama_config(
    tokenizer, hidden=1024, layers=24, heads=16, intermediate_size=2816,
    num_key_value_heads=16,
)
from transformers import LlamaForCausalLM

with torch.device("cuda"):
    model = LlamaForCausalLM(config).to(torch.bfloat16)
params = sum(p.numel() for p in model.parameters())
model.save_pretrained(base)
tokenizer.save_pretrained(base)
del model
print(f"built a {params / 1e6:.0f}M-parameter model in {time.perf_counter() - t0:.1f}s")
cfg = load_config(None, [
    f"logging.run_dir={run}", f"policy.model={base}", f"updates={updates}",
    "logging.progress=false", "device=cuda", "policy.dtype=bfloat16", "rollout.num_envs=32",
    "rollout.episodes_per_update=64", "algorithm.minibatch_size=32", "algorithm.ppo_epochs=1",
    "algorithm.kl_coef=0.02", "checkpoint.every=0",
])
trainer = Trainer(cfg)
for mode in ("score", "generate"):
    trainer.config.rollout.action_mode = mode
    trainer.learner.mode = mode
    trainer._collector = None
    for _ in range(updates):
        m = trainer.step()
        print(
            f"[{mode}] update {trainer.state['update']}: success {m['train/success_rate']:.2f} "
            f"gen {m['perf/gen_tokens_per_s']:.0f} tok/s, train {m['perf/train_tokens_per_s']:.0f}"
            f" tok/s, rollout {m['perf/rollout_seconds']:.1f}s update {m['perf/update_seconds']:.1f}s"
        )
print(f"peak GPU memory {torch.cuda.max_memory_allocated() / 2**30:.1f} GiB")
PY
