#!/usr/bin/env bash
# The whole test suite: set the machine up, lint (ruff, import directions, types), then run every
# test (slow ones included).
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -m "not slow"` for a quick local run.
# Tests run in AGENTGYM_TEST_WORKERS pytest-xdist processes (default 2: the suite is mostly
# single-threaded, so two workers halve it on a 2-core machine; 1 runs them in this process).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
cd "$ROOT"
echo "[test] ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "[test] import directions (import-linter contracts in pyproject.toml)"
.venv/bin/lint-imports
echo "[test] types (mypy: agentgym_envs/core, agentgym_train)"
.venv/bin/mypy
echo "[test] pytest"
set +e
workers="${AGENTGYM_TEST_WORKERS:-2}"
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
