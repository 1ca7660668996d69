"""Read ``submissions/`` into ``Submission`` entries: each verified folder checked again
(``revalidate``) and parsed strictly; one that fails is skipped and named, never half-shown."""

from __future__ import annotations

import dataclasses
import json
import math
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentgym_bench.suites import SUITES_DIR

#: the project's own board: published suites only
PUBLISHED_BOARD = SUITES_DIR.parents[1] / "leaderboards"
#: a submission folder's name: its id, then ``.rN`` for its N-th revision (N >= 2)
_REVISION = re.compile(r"(?P<id>[a-z0-9-]+)(?:\.r(?P<n>[2-9]|[1-9][0-9]+))?")


@dataclass
class Submission:
    """One verified submission: who ran what, where, and its summary rows keyed by cell."""

    submission_id: str
    agent: str
    suite: str
    provenance: dict[str, Any]
    finished: str
    replayed_episodes: int | None
    skipped_real_time: int = 0  # real-time episodes the replay could not check
    # (env_id, difficulty, split) -> summary row
    rows: dict[tuple[str, str, str], dict[str, Any]] = field(default_factory=dict)
    label: str = ""  # the agent's display name (disambiguated when two share a name)
    note: int = 0  # footnote number
    #: episode key -> steps, for the episodes the agent solved (path efficiency)
    solved_steps: dict[str, int] = field(default_factory=dict)
    variant: str = ""  # the suite's prompt variant this entry shows ("" without variants)
    method: str = "replayed"  # how the verifier checked it: "replayed" or "reproduced"
    reproduced_episodes: int = 0
    #: the agent's ``--agent-option`` values (name -> value as text): two rows of one model
    #: with other options (a config, a temperature) differ in what they measured
    options: dict[str, str] = field(default_factory=dict)


class InvalidSubmission(ValueError):
    """A submission folder whose files are missing or malformed."""


def _read_json(path: Path) -> dict[str, Any]:
    """``run_folder.read_json``, its refusal an ``InvalidSubmission``."""
    from agentgym_bench.run_folder import RunFileError, read_json

    try:
        return read_json(path)
    except RunFileError as error:
        raise InvalidSubmission(str(error)) from error


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidSubmission(f"{what} is not a finite number: {value!r}")
    return float(value)


def _interval(value: Any, what: str) -> list[float] | None:
    if value is None:
        return None
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise InvalidSubmission(f"{what} is not a [low, high] pair: {value!r}")
    return [_number(v, what) for v in value]


def _share(value: Any, what: str) -> float:
    share = _number(value, what)
    if not 0.0 <= share <= 1.0:
        raise InvalidSubmission(f"{what} is not a share in [0, 1]: {value!r}")
    return share


def _rule_fields(row: dict[str, Any], what: str) -> dict[str, Any]:
    """A row's rule figures, checked: none when no episode of it was checked against a rule
    (an env without rules; also a cell whose episodes all errored, or a run from before the
    checks)."""
    if "rule_episodes" not in row and "rule_violation_rate" not in row:
        return {}
    episodes = row.get("rule_episodes")
    if isinstance(episodes, bool) or not isinstance(episodes, int) or episodes < 1:
        raise InvalidSubmission(f"{what}.rule_episodes is not a positive count: {episodes!r}")
    rates = row.get("rule_violation_rates", {})
    if not isinstance(rates, dict):
        raise InvalidSubmission(f"{what}.rule_violation_rates is not an object")
    return {
        "rule_episodes": episodes,
        "rule_violation_rate": _share(row.get("rule_violation_rate"),
                                      f"{what}.rule_violation_rate"),
        "rule_violation_rates": {str(name): _share(rate, f"{what}.rule_violation_rates.{name}")
                                 for name, rate in rates.items()},
    }  # fmt: skip


def _text(mapping: dict[str, Any], key: str, what: str) -> str:
    value = mapping.get(key)
    if not isinstance(value, str) or not value:
        raise InvalidSubmission(f"{what}.{key} is missing or not a string")
    return value


def revalidate(folder: Path, verdict: dict[str, Any], published_only: bool = False) -> Any:
    """The stored submission ``folder``, whose ``verification.json`` says ``verdict``, checked
    again (``replay.Verification``, without the replay); InvalidSubmission when a file changed
    since its verdict, is malformed or breaks the suite's protocol. ``published_only``: a
    self-made suite's submission is refused."""
    from agentgym_bench.replay import verify_run
    from agentgym_bench.run_folder import (
        GZ_EPISODES_FILE,
        RUN_FILE,
        SUITE_FILE,
        SUMMARY_FILE,
        RunFileError,
        sha256_file,
    )

    if folder.is_symlink():
        raise InvalidSubmission("the folder is a symbolic link")
    try:
        self_made = verdict.get("self_made_suite") is True
        if self_made and published_only:
            raise InvalidSubmission("a self-made suite's run: not shown on the project's board")
        names = [RUN_FILE, SUMMARY_FILE, GZ_EPISODES_FILE] + ([SUITE_FILE] if self_made else [])
        digests = verdict.get("sha256")
        for name in names:
            if not isinstance(digests, dict) or digests.get(name) != sha256_file(folder / name):
                raise InvalidSubmission(f"{name} differs from the file that was verified")
    except RunFileError as error:
        raise InvalidSubmission(str(error)) from error
    check = verify_run(folder, progress=False, replay=False,
                       suite_file=folder / SUITE_FILE if self_made else None)  # fmt: skip
    if not check.verified:
        raise InvalidSubmission(check.reasons[0])
    return check


def load_submission(folder: Path, published_only: bool = False,
                    check: bool = True) -> list[Submission] | None:  # fmt: skip
    """The submission in ``folder``: one entry, or one per prompt variant of its suite (named
    ``agent (variant)``); None when it was never verified; InvalidSubmission when it fails
    ``revalidate`` or a file is missing or malformed. ``check=False`` skips ``revalidate``
    (only for tests of the rendering, with hand-made summaries)."""
    verification = _read_json(folder / "verification.json")
    if verification.get("verified") is not True:
        return None
    if check:  # what the checks read is what is shown: nothing is read twice
        source = revalidate(folder, verification, published_only).source
        run, summary, records = source["run"], source["summary"], source["records"]
    else:
        run = _read_json(folder / "run.json")
        summary = _read_json(folder / "summary.json")
        records = _records(folder / "episodes.jsonl.gz")
    agent, suite = run.get("agent"), run.get("suite")
    if not isinstance(agent, dict) or not isinstance(suite, dict):
        raise InvalidSubmission("run.json needs 'agent' and 'suite' objects")
    version = suite.get("version")
    provenance = run.get("provenance")
    if not isinstance(provenance, dict):
        raise InvalidSubmission("run.json needs a 'provenance' object")
    replayed = verification.get("replayed_episodes")
    reproduced = verification.get("reproduced_episodes")
    submission = Submission(
        submission_id=folder.name,
        agent=_text(agent, "spec", "agent"),
        suite=_text(suite, "name", "suite") + (f"@{version}" if version is not None else ""),
        provenance=provenance,
        finished=str(run.get("finished") or ""),
        replayed_episodes=replayed if isinstance(replayed, int) else None,
        skipped_real_time=len(verification.get("skipped_real_time") or []),
        method="reproduced" if isinstance(reproduced, int) and reproduced > 0 else "replayed",
        reproduced_episodes=reproduced if isinstance(reproduced, int) else 0,
        options=_options(agent.get("options")),
    )
    solved = _solved_steps(records)
    rows = summary.get("rows")
    if not isinstance(rows, list) or not rows:
        raise InvalidSubmission("summary.json needs a non-empty 'rows' list")
    by_variant: dict[str, dict[tuple[str, str, str], dict[str, Any]]] = {}
    for index, row in enumerate(rows):
        what = f"summary.json rows[{index}]"
        if not isinstance(row, dict):
            raise InvalidSubmission(f"{what} is not an object")
        key = (
            _text(row, "env_id", what),
            _text(row, "difficulty", what),
            _text(row, "split", what),
        )
        variant = row.get("variant") or ""
        if not isinstance(variant, str):
            raise InvalidSubmission(f"{what}.variant is not a string")
        mine = by_variant.setdefault(variant, {})
        if key in mine:
            raise InvalidSubmission(f"{what} repeats {key}" + (f" ({variant})" if variant else ""))
        clean = dict(row)
        clean["success_rate"] = _number(row.get("success_rate"), f"{what}.success_rate")
        clean["mean_score"] = _number(row.get("mean_score"), f"{what}.mean_score")
        clean["success_ci"] = _interval(row.get("success_ci"), f"{what}.success_ci")
        clean["episodes"] = _count(row.get("episodes"), f"{what}.episodes")
        clean["errors"] = _count(row.get("errors", 0), f"{what}.errors")
        clean.update(_rule_fields(row, what))
        mine[key] = clean
    entries = []
    for variant, mine in by_variant.items():
        # a variant's episode keys end in |<variant>; a plain key has 5 parts
        steps = {k: n for k, n in solved.items()
                 if (k.endswith(f"|{variant}") if variant else k.count("|") == 4)}  # fmt: skip
        entries.append(dataclasses.replace(
            submission, rows=mine, solved_steps=steps, variant=variant,
            agent=f"{submission.agent} ({variant})" if variant else submission.agent,
        ))  # fmt: skip
    return entries


def _options(options: Any) -> dict[str, str]:
    """An agent's options as text (JSON for a value that is not a string)."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise InvalidSubmission(f"run.json agent.options is not an object: {options!r}")
    return {str(name): value if isinstance(value, str) else json.dumps(value)
            for name, value in options.items()}  # fmt: skip


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidSubmission(f"{what} is not a count: {value!r}")
    return value


def _records(path: Path) -> list[dict[str, Any]]:
    """The records of a submission's episodes file (none when it has no file)."""
    if not path.exists():
        return []
    from agentgym_bench.run_folder import RunFileError, read_records

    try:
        return read_records(path)
    except RunFileError as error:
        raise InvalidSubmission(str(error)) from error


def _solved_steps(records: list[dict[str, Any]]) -> dict[str, int]:
    """Episode key -> length of each solved episode among a submission's ``records``."""
    solved = {}
    for record in records:
        if record.get("success") and not record.get("error"):
            solved[str(record.get("key"))] = int(record.get("length") or 0)
    return solved


def _stored(submissions: Path) -> Iterator[tuple[str, int, Path]]:
    """(id, revision number, path) of every name in ``submissions`` that is an id or one of its
    revisions (staging folders and other names are left out)."""
    for path in submissions.iterdir() if submissions.is_dir() else []:
        match = _REVISION.fullmatch(path.name)
        if match:
            yield match["id"], int(match["n"] or 1), path


def revisions(submissions: Path, base: str) -> list[Path]:
    """The stored revisions of id ``base``, oldest first (``base``, ``base.r2``, ...)."""
    return [path for _, _, path in sorted(s for s in _stored(submissions) if s[0] == base)]


def newest_revisions(submissions: Path) -> list[Path]:
    """The newest revision (a folder, or a link the board then refuses) of every id in
    ``submissions``, in id order."""
    newest: dict[str, tuple[int, Path]] = {}
    for base, number, path in _stored(submissions):
        if (path.is_dir() or path.is_symlink()) and number > newest.get(base, (0, path))[0]:
            newest[base] = (number, path)
    return [newest[base][1] for base in sorted(newest)]


def load_submissions(directory: Path, check: bool = True,
                     skipped: list[str] | None = None) -> list[Submission]:  # fmt: skip
    """Every verified submission under ``directory/submissions`` (the newest revision of each
    id), in folder-name order. One that fails its checks, or breaks the reader in any way, is
    skipped with a warning and its name and reason appended to ``skipped``; never-verified ones
    are left out silently. The project's own board shows published suites only."""
    found: list[Submission] = []
    root = directory / "submissions"
    published_only = directory.resolve() == PUBLISHED_BOARD.resolve()
    for folder in newest_revisions(root):
        try:
            entries = load_submission(folder, published_only, check)
        except Exception as error:  # one bad submission never stops the board
            why = (str(error) if isinstance(error, InvalidSubmission)
                   else f"{type(error).__name__}: {error}")  # fmt: skip
            warnings.warn(f"skipping submission {folder.name!r}: {why}", stacklevel=2)
            if skipped is not None:
                skipped.append(f"{folder.name}: {why}")
            continue
        found.extend(entries or [])
    names = [(s.agent, s.suite) for s in found]  # the suite has its own column
    for number, submission in enumerate(found, start=1):
        submission.note = number
        duplicate = names.count((submission.agent, submission.suite)) > 1
        submission.label = (
            f"{submission.agent} ({submission.submission_id})" if duplicate else submission.agent
        )
    return found
