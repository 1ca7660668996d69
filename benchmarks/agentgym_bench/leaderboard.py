"""Leaderboard submissions: a run lands on the board only after the verifier accepts it.

``submit`` verifies the run (``replay.verify_run``: the suite's protocol, the replay, and for
agents that can run here a reproduction); a rejected run is reported with its reasons and
nothing is written. An accepted one is stored as ``submissions/<id>/`` (run.json with the
agent's name, options and suite; summary.json; the episodes gzipped; verification.json with the
verdict and every stored file's SHA-256) and the board (README.md, index.html, plots) is
rebuilt.

Everything from the run is untrusted: the id is made of slugs only (agent spec, suite name,
version, an optional ``tag``), so no name reaches the file system as a path; every write stays
inside the board's ``submissions`` folder and nothing is ever deleted there but this module's
own staging folder; a symlinked folder or file is refused. A submission never replaces another:
the id names the agent spec and suite version, a run of another agent under a taken id (other
options, say) is refused (resubmit with a ``tag``), and a resubmission of the same agent is
stored beside the earlier ones as revision ``<id>.r2``, ``<id>.r3`` (the board shows the newest).
The project's own board (``leaderboards/``) takes published suites only; a self-made suite
verifies (``suite_file``) into a board folder of its own.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from agentgym_bench.provenance import now
from agentgym_bench.replay import Verification, verify_run
from agentgym_bench.run_folder import (
    GZ_EPISODES_FILE,
    MAX_JSON_BYTES,
    RUN_FILE,
    SUITE_FILE,
    SUMMARY_FILE,
    VERIFICATION_FILE,
    read_bytes,
    read_json,
    sha256,
)
from agentgym_bench.site import build_site, slug
from agentgym_bench.site.load import PUBLISHED_BOARD, revisions


class SubmissionRefused(ValueError):
    """A verified run that cannot be stored as asked; ``str()`` says why and what to do."""


def submission_id(run: dict[str, Any], tag: str = "") -> str:
    """``<agent>-<suite>-v<version>[-<tag>]``, slugs only (nothing in it can be a path)."""
    suite = run["suite"]
    version = suite.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise SubmissionRefused(f"suite version {version!r} is not an integer")
    parts = [slug(str(run["agent"]["spec"]))[:80] or "agent", slug(str(suite["name"]))[:64],
             f"v{version}"]  # fmt: skip
    if tag:
        if not slug(tag):
            raise SubmissionRefused(f"tag {tag!r} has no letters or digits")
        parts.append(slug(tag)[:40])
    return "-".join(parts)


def identity(run: dict[str, Any]) -> dict[str, Any]:
    """What makes two submissions the same agent: its spec and (secret-free) options."""
    agent = run["agent"]
    return {"spec": agent.get("spec"), "options": agent.get("options") or {}}


def _board_folder(board: Path) -> Path:
    """``board/submissions``, made if missing; refused when it or the board is a symlink."""
    for path in (board, board / "submissions"):
        if path.is_symlink():
            raise SubmissionRefused(f"{path} is a symbolic link; use a real folder for a board")
    folder = board / "submissions"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _inside(folder: Path, child: Path) -> Path:
    if child.resolve().parent != folder.resolve():
        raise SubmissionRefused(f"{child} would be outside {folder}")
    return child


def store(check: Verification, board: Path, tag: str = "") -> Path:
    """Write a verified run into ``board/submissions`` as a new id or a new revision of the
    same agent's; the folder it went to."""
    run, summary = check.source["run"], check.source["summary"]
    episodes = check.source["episodes"].encode("utf-8")
    submissions = _board_folder(board)
    base = submission_id(run, tag)
    earlier = revisions(submissions, base)
    if earlier:
        theirs = identity(read_json(earlier[-1] / RUN_FILE))
        if theirs != identity(run):
            raise SubmissionRefused(
                f"submission {base} is another agent's ({theirs}); this run is "
                f"{identity(run)}: submit it with a tag (--tag NAME) to get an id of its own"
            )
    revision = len(earlier) + 1
    folder = _inside(submissions, submissions / (base if revision == 1 else f"{base}.r{revision}"))
    staging = _inside(submissions, submissions / f"{folder.name}.partial")
    if staging.is_symlink():
        raise SubmissionRefused(f"{staging} is a symbolic link")
    if staging.exists():
        for leftover in staging.iterdir():  # a staging folder of an interrupted submit
            leftover.unlink()
        staging.rmdir()
    staging.mkdir()
    agent = run["agent"]
    entry = {
        "agent": {"spec": agent["spec"], "options": agent.get("options") or {},
                  "sees_oracle": agent.get("sees_oracle"),
                  "description": agent.get("description") or {}},
        "suite": run["suite"], "provenance": run["provenance"],
        "started": run.get("started"), "finished": run.get("finished"),
    }  # fmt: skip
    files = {
        RUN_FILE: (json.dumps(entry, indent=2) + "\n").encode(),
        SUMMARY_FILE: (json.dumps(summary, indent=2) + "\n").encode(),
        GZ_EPISODES_FILE: gzip.compress(episodes, mtime=0),
    }
    if check.self_made_suite:  # the board re-checks against it at every build
        files[SUITE_FILE] = read_bytes(Path(check.suite_file), MAX_JSON_BYTES)
    for name, data in files.items():
        (staging / name).write_bytes(data)
    verdict = {**check.verdict(), "revision": revision, "self_made_suite": check.self_made_suite,
               "checked_at": now(),
               "sha256": {n: sha256(d) for n, d in files.items()}}  # fmt: skip
    (staging / VERIFICATION_FILE).write_text(json.dumps(verdict, indent=2) + "\n",
                                             encoding="utf-8")  # fmt: skip
    staging.rename(folder)
    return folder


def submit(
    run_dir: Path,
    board: Path,
    progress: bool = True,
    suite_file: Path | None = None,
    reproduce: int | str | None = None,
    tag: str = "",
    strict_versions: bool = False,
) -> tuple[bool, str]:
    """(accepted?, a message saying where it went or why it was refused)."""
    if suite_file is not None and board.resolve() == PUBLISHED_BOARD.resolve():
        return False, (f"refused {run_dir}: the project's board ({board}) takes published "
                       "suites only; submit a self-made suite's run to a board folder of its "
                       "own (--to DIR)")  # fmt: skip
    check = verify_run(run_dir, progress=progress, suite_file=suite_file, reproduce=reproduce,
                       strict_versions=strict_versions)  # fmt: skip
    if not check.verified:
        reasons = "\n  ".join(check.reasons)
        return False, f"rejected {run_dir}: it does not hold up:\n  {reasons}"
    try:
        folder = store(check, board, tag)
    except SubmissionRefused as error:
        return False, f"refused {run_dir}: {error}"
    paths = build_site(board)
    skipped = (f" ({len(check.skipped_real_time)} real-time episodes not replayable, skipped)"
               if check.skipped_real_time else "")  # fmt: skip
    only_replayed = check.replayed_episodes - len(check.reproduced)
    how = (f"reproduced {len(check.reproduced)} of {check.episodes} episodes with the agent "
           f"itself, replayed {only_replayed}" if check.reproduced else "replayed")  # fmt: skip
    return True, (f"verified {check.replayed_episodes} episodes ({check.replayed_steps} steps, "
                  f"{check.errors} errors) of {run_dir}: {how}{skipped}; added as {folder}; "
                  f"board rebuilt: {paths['readme']}")  # fmt: skip


__all__ = ["PUBLISHED_BOARD", "SubmissionRefused", "identity",
           "store", "submission_id", "submit"]  # fmt: skip
