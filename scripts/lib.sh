# Shared helpers for the set-up scripts (sourced, not run).
#
# step NAME HINT CMD...   runs CMD with its output in a log file; on failure it prints what failed,
#                         the log's last lines, where the whole log is, and HINT (what to do), then
#                         exits 1. Every step of every installer is idempotent, so a rerun resumes.
# apt_install PKG...      installs Debian packages (with sudo when not root), or says how to.
# need_build_tools        installs gcc, g++, make and cmake when any is missing (TextWorld's
#                         jericho and fast-downward build from source).

AGENTGYM_LOGS="${AGENTGYM_LOGS:-${AGENTGYM_CACHE:-$HOME/.cache/agentgym}/setup-logs}"

step() {
  local name="$1" hint="$2"
  shift 2
  mkdir -p "$AGENTGYM_LOGS"
  local log
  log="$AGENTGYM_LOGS/$(date +%Y%m%d-%H%M%S)-${name//[^A-Za-z0-9._-]/_}.log"
  local started=$SECONDS
  echo "[setup] $name ... (log: $log)"
  if ! "$@" >"$log" 2>&1; then
    {
      echo
      echo "[setup] FAILED: $name"
      echo "[setup] command: $*"
      echo "[setup] last lines of $log:"
      tail -n 30 "$log" | sed 's/^/    /'
      echo "[setup] what to do: $hint"
      echo "[setup] then run the same command again: finished steps are skipped."
    } >&2
    exit 1
  fi
  echo "[setup] $name done ($((SECONDS - started)) s)"
}

apt_install() {
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "[setup] FAILED: Debian packages $* are missing and this user is not root and has no sudo." >&2
      echo "[setup] what to do: ask an administrator to run: apt-get install -y $*" >&2
      exit 1
    fi
    sudo="sudo"
  fi
  step "apt-get update" "check the network and /etc/apt/sources.list" \
    $sudo apt-get update -qq
  step "apt-get install $*" "install them by hand (apt-get install -y $*) and rerun" \
    env DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@"
}

need_build_tools() {
  local missing=() tool
  for tool in gcc g++ make cmake; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "[setup] build tools missing: ${missing[*]} (TextWorld's engine builds from source)"
    apt_install gcc g++ make cmake
  fi
}
