#!/usr/bin/env bash
# GPU check: a randomly initialised ~0.5B-parameter Llama (built from config, tokenizer trained
# locally: nothing from the internet), a few PPO updates on Toy-v0 with LoRA in bf16, generation
# and training tokens per second. Options: see `bash scripts/gpu_check.sh --help`.
# Dry run of the same code on a CPU: bash scripts/gpu_check.sh --device cpu --size small
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
exec "${PYTHON:-.venv/bin/python}" -m agentgym_train.gpu_check "$@"
