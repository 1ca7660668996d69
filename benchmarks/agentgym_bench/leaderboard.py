"""Leaderboard submissions: a run lands on the board only after its replay verifies.

``submit`` replays the run (``replay.verify_run``); a rejected run is reported with its reasons
and nothing is written. An accepted one is stored as ``submissions/<id>/`` (run.json with the
agent's name, suite, provenance; summary.json; the episodes gzipped; verification.json) and the
board (README.md, index.html, plots) is rebuilt. The id names the agent spec and the suite
version, so a new verified run of the same agent on the same suite replaces its row.
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

from agentgym_bench.leaderboard_site import build_site, slug
from agentgym_bench.replay import Verification, verify_run
from agentgym_bench.suite_runner import EPISODES_FILE, RUN_FILE, SUMMARY_FILE, now


def submission_id(run: dict) -> str:
    """One submission per agent spec and suite version: a newer verified run replaces it."""
    suite = run["suite"]
    return f"{slug(run['agent']['spec'])}-{suite['name']}-v{suite['version']}"


def store(check: Verification, board: Path) -> Path:
    """Write a verified run into ``board/submissions``; the folder it went to."""
    run_dir = check.run_dir
    run = json.loads((run_dir / RUN_FILE).read_text(encoding="utf-8"))
    episodes = (run_dir / EPISODES_FILE).read_bytes()
    folder = board / "submissions" / submission_id(run)
    staging = folder.with_name(folder.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    description = run["agent"].get("description") or {}
    entry = {
        "agent": {"name": run["agent"]["spec"], "description": description},
        "suite": run["suite"],
        "provenance": run["provenance"],
        "started": run.get("started"),
        "finished": run.get("finished"),
    }
    (staging / RUN_FILE).write_text(json.dumps(entry, indent=2) + "\n", encoding="utf-8")
    shutil.copyfile(run_dir / SUMMARY_FILE, staging / SUMMARY_FILE)
    (staging / (EPISODES_FILE + ".gz")).write_bytes(gzip.compress(episodes, mtime=0))
    verification = {"verified": True, "replayed_episodes": check.replayed_episodes,
                     "replayed_steps": check.replayed_steps,
                     "skipped_real_time": check.skipped_real_time, "checked_at": now()}  # fmt: skip
    (staging / "verification.json").write_text(json.dumps(verification, indent=2) + "\n",
                                               encoding="utf-8")  # fmt: skip
    shutil.rmtree(folder, ignore_errors=True)
    staging.rename(folder)
    return folder


def submit(run_dir: Path, board: Path, progress: bool = True) -> tuple[bool, str]:
    """(accepted?, a message saying where it went or why it was rejected)."""
    check = verify_run(run_dir, progress=progress)
    if not check.verified:
        reasons = "\n  ".join(check.reasons)
        return False, f"rejected {run_dir}: the replay does not match the run:\n  {reasons}"
    folder = store(check, board)
    paths = build_site(board)
    skipped = (f" ({len(check.skipped_real_time)} real-time episodes not replayable, skipped)"
               if check.skipped_real_time else "")  # fmt: skip
    return True, (f"verified {check.replayed_episodes} episodes ({check.replayed_steps} steps) "
                  f"of {run_dir}{skipped}; added as {folder}; board rebuilt: "
                  f"{paths['readme']}")  # fmt: skip


__all__ = ["store", "submission_id", "submit"]
