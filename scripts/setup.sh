#!/usr/bin/env bash
# Install everything AgentGym needs on a fresh Debian machine: a virtual environment in .venv, the
# project with its extras, and the per-env installers (scripts/install_*.sh), which add Debian
# packages when missing. Every step is skipped when already done, so a rerun after a failure
# resumes. Called by main.sh and test.sh. Settings (environment variables):
#   PYTHON            interpreter for the venv (default python3; needs >= 3.11)
#   AGENTGYM_EXTRAS   extras to install (default all,test)
#   AGENTGYM_WHEELS   folder for wheels built from source (default ~/.cache/agentgym/wheels)
# A cold set-up (empty caches) took 2.5 min on a quiet 2-core machine and 18.5 min on one busy with
# three other CPU-heavy jobs, most of it the two C/C++ builds of TextWorld's engine; a warm rerun
# about 15 s.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/lib.sh
source "$ROOT/scripts/lib.sh"
EXTRAS="${AGENTGYM_EXTRAS:-all,test}"
PY="${PYTHON:-python3}"

if ! command -v "$PY" >/dev/null 2>&1; then
  echo "[setup] FAILED: no $PY on PATH. Install Python >= 3.11 or set PYTHON=/path/to/python3.11." >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "[setup] FAILED: $PY is Python $("$PY" -c 'import platform; print(platform.python_version())'); AgentGym needs >= 3.11." >&2
    echo "[setup] what to do: install Python 3.11+ and rerun with PYTHON=/path/to/python3.11" >&2
    exit 1
  fi
  if ! "$PY" -c 'import ensurepip, venv' 2>/dev/null; then
    echo "[setup] $PY has no venv/ensurepip module (Debian splits it out)"
    apt_install "python3-venv"
  fi
  step "create .venv with $PY" "remove the half-made .venv (rm -rf .venv) and rerun" \
    "$PY" -m venv .venv
fi
need_build_tools # jericho builds in the main install below
step "upgrade pip in .venv" "check that PyPI is reachable (.venv/bin/python -m pip download pip)" \
  .venv/bin/python -m pip install --upgrade pip
if .venv/bin/python -m pip show -q agentgym >/dev/null 2>&1; then # installed before the rename
  step "remove this project's install under its old name, agentgym" "rm -rf .venv and rerun" \
    .venv/bin/python -m pip uninstall -y agentgym
fi
rm -rf agentgym.egg-info # the old name's metadata, which would declare the commands twice
step "agentgym-suite[$EXTRAS] and its dependencies (a few minutes on a cold cache)" \
  "the log names the package that failed; check that PyPI is reachable" \
  .venv/bin/python -m pip install -e ".[$EXTRAS]"
for installer in scripts/install_*.sh; do
  [ -e "$installer" ] || continue
  echo "[setup] running $installer"
  bash "$installer"
done
echo "[setup] done"
