#!/usr/bin/env bash
# The main job: set the machine up, play the quick suite with the baseline agents (random and
# oracle on every installed env, the WebShop paper's rule baseline on WebShop) and the smoke
# suite with a real local LLM (SmolLM2-135M-Instruct, plus random and oracle for reference; once
# in-process as hf:, once behind llama-cpp-python's OpenAI-compatible server as openai:),
# verify each run by replay, and build the leaderboard in leaderboards/ (README.md, index.html,
# plots). --no-llm skips the LLM (about 10 minutes on 2 CPU cores, and as long again for the
# verifier to reproduce its episodes). Other arguments go to every
# `agentgym bench run` (e.g. --workers 1).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
llm=1
args=()
for arg in "$@"; do
  if [[ "$arg" == "--no-llm" ]]; then llm=0; else args+=("$arg"); fi
done
bash "$ROOT/scripts/setup.sh"
cd "$ROOT"
started=$SECONDS
run() {  # suite, agent, then extra `bench run` arguments; $reproduce goes to the submit
  local suite="$1" agent="$2"; shift 2
  local out="runs/$suite/${agent//[:\/]/-}"
  .venv/bin/agentgym bench run --suite "$suite" --agent "$agent" --workers 2 --out "$out" "$@"
  .venv/bin/agentgym leaderboard submit "$out" --to leaderboards ${reproduce:+--reproduce "$reproduce"}
}
serve_llama() {  # port: llama-cpp-python's server on the SmolLM2 GGUF, in the background
  local gguf
  gguf="$(.venv/bin/python -c 'from agentgym_train.smollm import gguf_source; print(gguf_source())')"
  mkdir -p runs
  .venv/bin/python -m llama_cpp.server --model "$gguf" --model_alias smollm2-135m-instruct \
    --host 127.0.0.1 --port "$1" --n_ctx 2048 --n_threads 1 >runs/llama-server.log 2>&1 &
  llama=$!
  trap 'kill "$llama" 2>/dev/null || true' EXIT
  for _ in $(seq 120); do
    .venv/bin/python -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' \
      "http://127.0.0.1:$1/v1/models" 2>/dev/null && return 0
    sleep 1
  done
  echo "[main] FAILED: llama.cpp's server did not start; see runs/llama-server.log" >&2
  exit 1
}
run quick random "${args[@]}"
run quick oracle "${args[@]}"
run quick webshop-rule --env AgentGym/WebShop-v0 "${args[@]}"
echo "[main] quick suite, replay checks and leaderboard took $((SECONDS - started)) s"
if ((llm)); then
  started=$SECONDS
  run smoke random "${args[@]}"
  run smoke oracle "${args[@]}"
  # the verifier plays every episode again with the model itself: the row is "reproduced"
  reproduce=all run smoke hf:smollm2-135m-instruct --agent-option threads=1 "${args[@]}"
  echo "[main] smoke suite with SmolLM2-135M-Instruct took $((SECONDS - started)) s"
  started=$SECONDS
  # the same model behind a real OpenAI-compatible server (llama-cpp-python): an endpoint the
  # verifier cannot re-run, so its row is "replayed", every prompt and raw reply recorded
  serve_llama 8765
  run smoke openai:smollm2-135m-instruct --agent-option base_url=http://127.0.0.1:8765/v1 \
    --agent-option context_length=2048 --agent-option max_tokens=64 "${args[@]}"
  kill "$llama" && wait "$llama" 2>/dev/null || true
  echo "[main] smoke suite against llama.cpp's server took $((SECONDS - started)) s"
fi
echo "[main] open leaderboards/index.html or read leaderboards/README.md"
