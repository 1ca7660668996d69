"""Where a result came from: versions, commit, machine. Recorded with every run."""

from __future__ import annotations

import importlib.metadata
import platform
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

#: Packages whose versions can change what an env shows or an agent does.
PACKAGES = ("agentgym-suite", "gymnasium", "numpy", "torch", "transformers", "peft", "openai",
            "bm25s", "textworld", "playwright", "miniwob", "rapidfuzz")  # fmt: skip
REPO = Path(__file__).resolve().parents[2]
#: Folders the benchmark itself writes: their changes do not make the code "dirty".
OUTPUTS = (":!leaderboards", ":!runs")


def package_versions() -> dict[str, str]:
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return versions


def _git(*args: str) -> str:
    done = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True,
                          timeout=10, check=True)  # fmt: skip
    return done.stdout.strip()


def git_commit() -> str | None:
    """HEAD of the checkout the code runs from, with "+dirty" if files differ; None outside git."""
    try:
        head = _git("rev-parse", "HEAD")
        dirty = _git("status", "--porcelain", "-uno", "--", ".", *OUTPUTS)
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("+dirty" if dirty else "")


def device() -> str:
    try:
        import torch
    except ImportError:
        return "cpu"
    if torch.cuda.is_available():
        return f"cuda ({torch.cuda.get_device_name(0)})"
    return "cpu"


def now() -> str:
    """The time in UTC, to the second, as run files record it."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def provenance() -> dict[str, Any]:
    versions = package_versions()
    return {
        "agentgym_version": versions.get("agentgym-suite"),
        "git_commit": git_commit(),
        "python": platform.python_version(),
        "os": platform.platform(),
        "machine": platform.machine(),
        "device": device(),
        "packages": versions,
    }


__all__ = ["git_commit", "package_versions", "provenance"]
