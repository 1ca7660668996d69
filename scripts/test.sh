#!/usr/bin/env bash
# The whole test suite: set the machine up, lint (ruff, import directions, types), then run every
# test (slow ones included).
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -m "not slow"` for a quick local run.
# Tests run in AGENTGYM_TEST_WORKERS pytest-xdist processes (1 runs them in this process). The
# default is one more than the CPU cores, at most 8: most tests use one core, and the MiniWoB ones
# spend ~80% of their time waiting on the page (its delays and animations; 8 of 40 s on CPU),
# so a third worker on a 2-core machine fills the cores those waits leave idle.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
cd "$ROOT"
echo "[test] ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "[test] import directions (import-linter contracts in pyproject.toml)"
.venv/bin/lint-imports
echo "[test] types (mypy: agentgym_envs/core, agentgym_train, benchmarks/agentgym_bench, adapters/agentgym_serve)"
.venv/bin/mypy
echo "[test] pytest"
set +e
cores="$(nproc 2>/dev/null || echo 2)"
workers="${AGENTGYM_TEST_WORKERS:-$((cores + 1 < 8 ? cores + 1 : 8))}"
parallel=()
if [ "$workers" -gt 1 ]; then parallel=(-n "$workers" --dist worksteal); fi
.venv/bin/python -m pytest "${parallel[@]}" --durations=15 "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "[test] pytest collected no tests: failing, a test run must test something"
  exit 1
fi
exit "$status"
