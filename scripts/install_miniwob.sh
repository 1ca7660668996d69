#!/usr/bin/env bash
# Install what AgentGym's MiniWoB++ envs need: Debian's Chromium (headless shell preferred),
# Playwright (its Python package only: `playwright install` is never needed) and the `miniwob`
# package for its task HTML (--no-deps: its Selenium dependency is not used). Every step is skipped
# when already done, so a rerun resumes.
# Usage: scripts/install_miniwob.sh [python]   (default: .venv/bin/python, else python3)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh
PY="${1:-}"
if [[ -z "$PY" ]]; then
  if [[ -x .venv/bin/python ]]; then PY=.venv/bin/python; else PY=python3; fi
fi

have_chromium() {
  [[ -n "${AGENTGYM_CHROMIUM:-}" && -x "${AGENTGYM_CHROMIUM}" ]] && return 0
  command -v chromium-headless-shell >/dev/null 2>&1 || command -v chromium >/dev/null 2>&1
}

if ! have_chromium; then
  if apt-cache show chromium-headless-shell >/dev/null 2>&1; then
    apt_install chromium-headless-shell
  else
    apt_install chromium
  fi
fi

"$PY" -c "import playwright" 2>/dev/null || step "playwright 1.65" \
  "check that PyPI is reachable" "$PY" -m pip install "playwright==1.65.*"
"$PY" -c "import importlib.util as u; assert u.find_spec('miniwob')" 2>/dev/null ||
  step "miniwob 1.1.0 (task HTML, --no-deps)" "check that PyPI is reachable" \
    "$PY" -m pip install --no-deps "miniwob==1.1.0"

"$PY" - <<'PYCHECK'
from agentgym_envs.miniwob.browser import browser_available, find_chromium
ok, why = browser_available()
print(f"[setup] MiniWoB ready: Chromium at {find_chromium()}" if ok else f"[setup] FAILED: MiniWoB NOT ready: {why}")
raise SystemExit(0 if ok else 1)
PYCHECK
