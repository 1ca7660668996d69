#!/usr/bin/env bash
# GPU check: prefill / decode / scoring / backward throughput and peak memory of a real-shaped
# model (random-init Qwen2.5-0.5B shapes, or --model DIR), against plain model.generate (and
# vLLM when installed), then a few PPO updates through the trainer. Nothing from the internet.
# Options: bash scripts/gpu_check.sh --help. CPU dry run: --device cpu --shape small
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
exec "${PYTHON:-.venv/bin/python}" benchmarks/perf/gpu_check.py "$@"
