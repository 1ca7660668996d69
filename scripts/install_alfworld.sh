#!/usr/bin/env bash
# Install ALFWorld's engine stack into a Python environment. Every step is skipped when already
# done, so a rerun after a failure resumes where it stopped.
#
#   scripts/install_alfworld.sh [python]        # default: .venv/bin/python, else python3
#
# Steps:
#   1. Debian build tools (gcc, g++, make, cmake) for the two source builds (needs root or sudo).
#   2. textworld==1.7.0 (builds jericho from source, 1-3 min on 2 cores).
#   3. fast-downward-textworld==20.6.4: source only (C++, 1-5 min on 2 cores). The wheel is built
#      once into $AGENTGYM_WHEELS (default ~/.cache/agentgym/wheels) and installed from there, so
#      another venv on the machine reuses it. Its build calls `python`: the target interpreter's
#      own bin/ goes first on PATH. (A symlink to a venv's interpreter placed in another folder
#      is not enough: Python then finds no pyvenv.cfg, runs as the base interpreter inside pip's
#      isolated build and fails with "No module named 'glob'".)
#   4. alfworld==0.4.2 without its dependencies (its data files and tables are all we use).
# Logs of each step: ~/.cache/agentgym/setup-logs/ (the last lines are printed on failure).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/lib.sh
source "$ROOT/scripts/lib.sh"
PY="${1:-}"
if [[ -z "$PY" ]]; then
  if [[ -x "$ROOT/.venv/bin/python" ]]; then PY="$ROOT/.venv/bin/python"; else PY="python3"; fi
fi
WHEELS="${AGENTGYM_WHEELS:-$HOME/.cache/agentgym/wheels}"
PIP=("$PY" -m pip)

have() { "$PY" -c "import importlib.metadata as m, sys; sys.exit(m.version('$1') != '$2')" 2>/dev/null; }

if have textworld 1.7.0 && have fast-downward-textworld 20.6.4 && have alfworld 0.4.2; then
  echo "[setup] ALFWorld stack already installed for $PY"
  exit 0
fi

# 1. Build tools (when run on its own; setup.sh has already checked them).
need_build_tools

# `python` must be the target interpreter itself, venv included: its own bin/ first on PATH.
EXE="$("$PY" -c 'import sys; print(sys.executable)')"
BIN_DIR="$(dirname "$EXE")"
export PATH="$BIN_DIR:$PATH"
if [[ ! -x "$BIN_DIR/python" ]]; then
  # No `python` beside the interpreter: a wrapper script (not a symlink) keeps venv detection.
  SHIM="$(mktemp -d)"
  trap 'rm -rf "$SHIM"' EXIT
  printf '#!/bin/sh\nexec "%s" "$@"\n' "$EXE" >"$SHIM/python"
  chmod +x "$SHIM/python"
  export PATH="$SHIM:$PATH"
fi
want_prefix="$("$PY" -c 'import sys; print(sys.prefix)')"
got_prefix="$(python -c 'import sys; print(sys.prefix)')"
if [[ "$want_prefix" != "$got_prefix" ]]; then
  echo "[setup] FAILED: \`python\` on PATH runs in $got_prefix, not in $want_prefix." >&2
  echo "[setup] what to do: put $BIN_DIR first on PATH, then rerun." >&2
  exit 1
fi

# 2. TextWorld (pulls and builds jericho).
have textworld 1.7.0 || step "textworld 1.7.0 (builds jericho, 1-3 min)" \
  "jericho is a C build: check that gcc and make work (gcc --version)" \
  nice -n 10 "${PIP[@]}" install "textworld==1.7.0"

# 3. fast-downward, built once into the wheel folder.
if ! have fast-downward-textworld 20.6.4; then
  mkdir -p "$WHEELS"
  if ! ls "$WHEELS"/fast_downward_textworld-20.6.4-*.whl >/dev/null 2>&1; then
    step "fast-downward-textworld 20.6.4 wheel (C++ build, 1-5 min)" \
      "it needs g++, cmake and make (g++ --version; cmake --version) and ~2 GB of free disk" \
      nice -n 10 "${PIP[@]}" wheel --no-deps "fast-downward-textworld==20.6.4" -w "$WHEELS"
  fi
  step "fast-downward-textworld 20.6.4 from $WHEELS" \
    "delete $WHEELS/fast_downward_textworld-20.6.4-*.whl (it may be broken) and rerun" \
    "${PIP[@]}" install --no-index --find-links "$WHEELS" "fast-downward-textworld==20.6.4"
fi

# 4. ALFWorld's data and tables, without its heavy optional dependencies.
have alfworld 0.4.2 || step "alfworld 0.4.2 (data only, --no-deps)" \
  "check that PyPI is reachable (pip download alfworld==0.4.2 --no-deps)" \
  "${PIP[@]}" install --no-deps "alfworld==0.4.2"

step "ALFWorld stack import check" \
  "reinstall the stack: pip uninstall -y textworld fast-downward-textworld alfworld, then rerun" \
  "$PY" -c "import textworld, fast_downward, textworld.envs.pddl"
echo "[setup] ALFWorld stack ready"
