#!/usr/bin/env bash
# Install everything AgentGym needs on a fresh Debian machine, idempotently:
# Debian packages (only when missing), a virtual environment in .venv, the project with its extras,
# and the per-env installers (scripts/install_*.sh) when present. Sourced by main.sh and test.sh.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
EXTRAS="${AGENTGYM_EXTRAS:-all,test}"
PY="${PYTHON:-python3}"

need_apt=()
APT_PACKAGES="${AGENTGYM_APT_PACKAGES:-}"
for pkg in $APT_PACKAGES; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "[setup] installing Debian packages: ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}"
fi

if [ ! -x .venv/bin/python ]; then
  echo "[setup] creating .venv"
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
echo "[setup] installing agentgym[$EXTRAS]"
.venv/bin/python -m pip install -q -e ".[$EXTRAS]"
for installer in scripts/install_*.sh; do
  [ -e "$installer" ] || continue
  echo "[setup] running $installer"
  bash "$installer"
done
echo "[setup] done"
