#!/usr/bin/env bash
# The main job: set the machine up, then benchmark the built-in agents on every installed env
# and write the leaderboard report to runs/quick-bench/. Extra arguments go to `agentgym bench`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
cd "$ROOT"
.venv/bin/agentgym bench "$@"
