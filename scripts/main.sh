#!/usr/bin/env bash
# The main job: set the machine up, play the quick suite with the baseline agents (random and
# oracle on every installed env, the WebShop paper's rule baseline on WebShop) and the smoke
# suite with a real local LLM (SmolLM2-135M-Instruct, plus random and oracle for reference),
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
fi
echo "[main] open leaderboards/index.html or read leaderboards/README.md"
