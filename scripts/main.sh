#!/usr/bin/env bash
# The main job: set the machine up, play the quick suite with the baseline agents (random and
# oracle on every installed env, the WebShop paper's rule baseline on WebShop), verify each run by
# replay, and build the leaderboard in leaderboards/ (README.md, index.html, plots).
# Extra arguments go to every `agentgym bench run` (e.g. --workers 1).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
cd "$ROOT"
started=$SECONDS
run() {  # agent, then extra `bench run` arguments
  local agent="$1"; shift
  .venv/bin/agentgym bench run --suite quick --agent "$agent" --workers 2 \
    --out "runs/quick/$agent" "$@"
  .venv/bin/agentgym leaderboard submit "runs/quick/$agent" --to leaderboards
}
run random "$@"
run oracle "$@"
run webshop-rule --env AgentGym/WebShop-v0 "$@"
echo "[main] quick suite, replay checks and leaderboard took $((SECONDS - started)) s"
echo "[main] open leaderboards/index.html or read leaderboards/README.md"
