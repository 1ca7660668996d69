#!/usr/bin/env bash
# Install ALFWorld's engine stack into a Python environment (idempotent).
#
#   scripts/install_alfworld.sh [python]        # default: .venv/bin/python, else python3
#
# Steps, each skipped when already done:
#   1. Debian build tools (g++, cmake, make) for the two source builds (needs root or sudo).
#   2. textworld==1.7.0 (builds jericho from source, ~3 min on 2 cores).
#   3. fast-downward-textworld==20.6.4: source only (C++; 1-10 min). The wheel is built once into
#      $AGENTGYM_WHEELS (default ~/.cache/agentgym/wheels) and installed from there, so a second
#      machine/venv sharing that folder reuses it; pip's own wheel cache also keeps both builds.
#   4. alfworld==0.4.2 without its dependencies (its data files and tables are all we use).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY="${1:-}"
if [[ -z "$PY" ]]; then
  if [[ -x "$ROOT/.venv/bin/python" ]]; then PY="$ROOT/.venv/bin/python"; else PY="python3"; fi
fi
WHEELS="${AGENTGYM_WHEELS:-$HOME/.cache/agentgym/wheels}"
PIP=("$PY" -m pip)

have() { "$PY" -c "import importlib.metadata as m, sys; sys.exit(m.version('$1') != '$2')" 2>/dev/null; }

if have textworld 1.7.0 && have fast-downward-textworld 20.6.4 && have alfworld 0.4.2; then
  echo "ALFWorld stack already installed for $PY"
  exit 0
fi

# 1. Build tools.
missing=()
for tool in g++ cmake make; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if ((${#missing[@]})); then
  SUDO=""
  [[ "$(id -u)" != 0 ]] && SUDO="sudo"
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends g++ cmake make
fi

# fast-downward's build calls `python`; make sure it names the target interpreter.
BIN_DIR="$(dirname "$("$PY" -c 'import sys; print(sys.executable)')")"
SHIM="$(mktemp -d)"
trap 'rm -rf "$SHIM"' EXIT
ln -s "$("$PY" -c 'import sys; print(sys.executable)')" "$SHIM/python"
export PATH="$SHIM:$BIN_DIR:$PATH"

# 2. TextWorld (pulls and builds jericho).
have textworld 1.7.0 || nice -n 10 "${PIP[@]}" install "textworld==1.7.0"

# 3. fast-downward, built once into the wheel folder.
if ! have fast-downward-textworld 20.6.4; then
  mkdir -p "$WHEELS"
  if ! ls "$WHEELS"/fast_downward_textworld-20.6.4-*.whl >/dev/null 2>&1; then
    nice -n 10 "${PIP[@]}" wheel --no-deps "fast-downward-textworld==20.6.4" -w "$WHEELS"
  fi
  "${PIP[@]}" install --no-index --find-links "$WHEELS" "fast-downward-textworld==20.6.4"
fi

# 4. ALFWorld's data and tables, without its heavy optional dependencies.
have alfworld 0.4.2 || "${PIP[@]}" install --no-deps "alfworld==0.4.2"

"$PY" -c "import textworld, fast_downward, textworld.envs.pddl; print('ALFWorld stack ready')"
