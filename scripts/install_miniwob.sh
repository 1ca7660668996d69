#!/usr/bin/env bash
# Install what AgentGym's MiniWoB++ envs need, idempotently: Debian's Chromium (headless shell
# preferred), Playwright (its Python package only: `playwright install` is never needed) and the
# `miniwob` package for its task HTML (--no-deps: its Selenium dependency is not used).
# Usage: scripts/install_miniwob.sh [python]   (default: .venv/bin/python, else python3)
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${1:-}"
if [[ -z "$PY" ]]; then
  if [[ -x .venv/bin/python ]]; then PY=.venv/bin/python; else PY=python3; fi
fi

have_chromium() {
  [[ -n "${AGENTGYM_CHROMIUM:-}" && -x "${AGENTGYM_CHROMIUM}" ]] && return 0
  command -v chromium-headless-shell >/dev/null 2>&1 || command -v chromium >/dev/null 2>&1
}

if ! have_chromium; then
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium-headless-shell; then
    echo "chromium-headless-shell unavailable; installing chromium instead" >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium
  fi
fi

if ! "$PY" -c "import playwright" 2>/dev/null; then
  "$PY" -m pip install -q "playwright==1.65.*"
fi
if ! "$PY" -c "import importlib.util as u; assert u.find_spec('miniwob')" 2>/dev/null; then
  "$PY" -m pip install -q --no-deps "miniwob==1.1.0"
fi

"$PY" - <<'PYCHECK'
from agentgym_envs.miniwob.browser import browser_available, find_chromium
ok, why = browser_available()
print(f"MiniWoB ready: Chromium at {find_chromium()}" if ok else f"MiniWoB NOT ready: {why}")
raise SystemExit(0 if ok else 1)
PYCHECK
