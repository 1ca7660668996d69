"""The run folder's files, and strict readers for files that may come from anyone.

``agentgym bench run`` writes a run folder; ``agentgym leaderboard submit`` verifies one and stores
it as a board submission (the episodes gzipped, plus the verdict)::

    run.json              suite, agent, settings, provenance
    episodes.jsonl[.gz]   one JSON object per finished episode
    summary.json          one row per env x difficulty x split (``stats.summarize``)
    report.md             the summary as tables (run folders only)
    verification.json     the verifier's verdict and the files' digests (submissions only)
    suite.yaml            a self-made suite's file (submissions of one only)

``RunDir`` is the runner's side: it starts or resumes a run folder, appends each episode as it
ends, keeps one record per episode and writes the summary and report.

A verifier and the board read folders written by someone who may want a better number or may
want to attack the reader, so these readers trust nothing: a symlink or anything but a regular
file is refused (a link would copy another file into the board), sizes are bounded before a
byte is read or decompressed, every line of the episodes must be a JSON object, gzip is told
from plain text by its bytes, and every failure is one ``RunFileError`` line naming the file
(and the line). The runner's own resume reader (``RunDir.records``) stays lenient: it reads the
runner's own output, where a torn last line is an episode to play again.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from agentgym_bench.run_report import prompt_use, report_markdown
from agentgym_bench.stats import ratings_summary, summarize
from agentgym_envs.core.records import EpisodeRecord, StepRecord, field_types, records_text

RUN_FILE, EPISODES_FILE, SUMMARY_FILE, REPORT_FILE = (
    "run.json", "episodes.jsonl", "summary.json", "report.md")  # fmt: skip
GZ_EPISODES_FILE = EPISODES_FILE + ".gz"
VERIFICATION_FILE = "verification.json"
#: a submission of a self-made suite keeps the suite's YAML, which the board re-checks against
SUITE_FILE = "suite.yaml"
#: the largest run.json / summary.json / verification.json read
MAX_JSON_BYTES = 16 * 2**20
#: the largest episodes file read, compressed or not, and the most it may decompress to
MAX_EPISODES_BYTES = 512 * 2**20
_GZIP_MAGIC = b"\x1f\x8b"


class RunFileError(ValueError):
    """A run or submission file that cannot be used; ``str()`` is one line naming the file."""


def regular_file(path: Path) -> Path:
    """``path`` if it is a regular file and not a symlink, else ``RunFileError``."""
    if path.is_symlink():
        raise RunFileError(f"{path}: is a symbolic link; copy the file itself into the folder")
    if not path.exists():
        raise RunFileError(f"{path}: is missing")
    if not path.is_file():
        raise RunFileError(f"{path}: is not a regular file")
    return path


def read_bytes(path: Path, limit: int) -> bytes:
    """The bytes of the regular file ``path``, refused when over ``limit``."""
    regular_file(path)
    size = path.lstat().st_size
    if size > limit:
        raise RunFileError(f"{path}: {size:,} bytes, over the limit of {limit:,}")
    with path.open("rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:  # grew while being read
        raise RunFileError(f"{path}: over the limit of {limit:,} bytes")
    return data


def parse_json(text: str | bytes, where: str) -> Any:
    """``text`` as JSON, or ``RunFileError`` naming ``where`` (bad JSON, bad UTF-8, too deep)."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return json.loads(text)
    except UnicodeDecodeError as error:
        raise RunFileError(f"{where}: not UTF-8 text ({error.reason} at byte {error.start})"
                           ) from error  # fmt: skip
    except json.JSONDecodeError as error:
        raise RunFileError(f"{where}: not valid JSON ({error.msg} at column {error.colno})"
                           ) from error  # fmt: skip
    except RecursionError as error:
        raise RunFileError(f"{where}: JSON nested too deeply") from error


def read_json(path: Path, limit: int = MAX_JSON_BYTES) -> dict[str, Any]:
    """The JSON object in the regular file ``path``."""
    data = read_bytes(path, limit)
    if data[:2] == _GZIP_MAGIC:
        raise RunFileError(f"{path}: is gzip-compressed; expected plain JSON")
    value = parse_json(data, str(path))
    if not isinstance(value, dict):
        raise RunFileError(f"{path}: is not a JSON object")
    return value


def episodes_file(folder: Path) -> Path:
    """The episodes file of ``folder``: ``episodes.jsonl`` or ``episodes.jsonl.gz``, one only."""
    found = [folder / name for name in (EPISODES_FILE, GZ_EPISODES_FILE)
             if (folder / name).exists() or (folder / name).is_symlink()]  # fmt: skip
    if not found:
        raise RunFileError(f"{folder}: has no {EPISODES_FILE} (or {GZ_EPISODES_FILE})")
    if len(found) > 1:
        raise RunFileError(f"{folder}: has both {EPISODES_FILE} and {GZ_EPISODES_FILE}")
    return found[0]


def episodes_text(path: Path) -> str:
    """The text of an episodes file, decompressed when it is gzip (told by its bytes, and the
    name must agree), bounded by ``MAX_EPISODES_BYTES`` both ways."""
    data = read_bytes(path, MAX_EPISODES_BYTES)
    packed = data[:2] == _GZIP_MAGIC
    if packed != path.name.endswith(".gz"):
        what = "gzip-compressed" if packed else "plain text"
        raise RunFileError(f"{path}: is {what}, which its name does not say")
    if packed:
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as unpacked:
                data = unpacked.read(MAX_EPISODES_BYTES + 1)
        except (OSError, EOFError, zlib.error) as error:
            raise RunFileError(f"{path}: broken gzip data ({error})") from error
        if len(data) > MAX_EPISODES_BYTES:
            raise RunFileError(f"{path}: decompresses past {MAX_EPISODES_BYTES:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RunFileError(f"{path}: not UTF-8 text (byte {error.start})") from error


def read_records(path: Path) -> list[dict[str, Any]]:
    """Every line of an episodes file as a JSON object (``parse_records``)."""
    return parse_records(episodes_text(path), str(path))


def parse_records(text: str, where: str) -> list[dict[str, Any]]:
    """Every line of episodes ``text`` as a JSON object; the first bad line is refused with its
    file and line number (blank lines, such as the final newline, are skipped)."""
    records = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        record = parse_json(line, f"{where} line {number}")
        if not isinstance(record, dict):
            raise RunFileError(f"{where} line {number}: is not a JSON object")
        records.append(record)
    return records


def sha256(data: bytes) -> str:
    """The hex SHA-256 of ``data`` (what a submission's verification records per file)."""
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    """The SHA-256 of a regular file, read as ``read_bytes`` reads it."""
    return sha256(read_bytes(path, MAX_EPISODES_BYTES))


#: the fields every episode record and step must hold, and the types each may have
RECORD_FIELDS, STEP_FIELDS = field_types(EpisodeRecord), field_types(StepRecord)


def _typed(value: Any, types: tuple[type, ...]) -> bool:
    if isinstance(value, bool) and bool not in types:
        return False  # True is an int to Python, not to a record
    return isinstance(value, types)


def check_record(record: dict[str, Any], where: str) -> None:
    """``RunFileError`` unless ``record`` has every field an episode record needs, typed (and a
    trajectory, when it has one, an observation and well-formed steps)."""
    for name, types in RECORD_FIELDS.items():
        if name not in record:
            raise RunFileError(f"{where}: no {name!r}")
        if not _typed(record[name], types):
            raise RunFileError(f"{where}: {name} is {type(record[name]).__name__}, not "
                               f"{' or '.join(t.__name__ for t in types)}")  # fmt: skip
    trajectory = record["trajectory"]
    if trajectory is None:
        return
    if not isinstance(trajectory.get("observation"), str):
        raise RunFileError(f"{where}: trajectory.observation is not text")
    steps = trajectory.get("steps")
    if not isinstance(steps, list):
        raise RunFileError(f"{where}: trajectory.steps is not a list")
    for index, step in enumerate(steps):
        if not isinstance(step, dict):
            raise RunFileError(f"{where}: step {index} is not an object")
        for name, types in STEP_FIELDS.items():
            if not _typed(step.get(name), types):
                raise RunFileError(f"{where}: step {index} {name} is missing or not "
                                   f"{' or '.join(t.__name__ for t in types)}")  # fmt: skip


class RunMismatch(ValueError):
    """An existing run directory holds a different suite or agent."""


class RunDir:
    """A run folder as the runner writes it (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.run_file, self.episodes = self.path / RUN_FILE, self.path / EPISODES_FILE

    def start(self, fresh: dict[str, Any], changed_options: bool = False) -> dict[str, Any]:
        """The run's run.json: ``fresh`` written for a new run; for a run to resume, the one
        there, checked to hold the same suite, agent and (unless ``changed_options``) agent
        options as ``fresh`` (the new options are then kept, the earlier ones listed)."""
        self.path.mkdir(parents=True, exist_ok=True)
        if not self.run_file.exists():
            self.write_run(fresh)
            return fresh
        run = json.loads(self.run_file.read_text(encoding="utf-8"))
        suite, agent, new = run["suite"], run["agent"]["spec"], fresh["suite"]
        if suite["hash"] != new["hash"] or agent != fresh["agent"]["spec"]:
            raise RunMismatch(
                f"{self.path} holds a run of agent {agent!r} on suite {suite['name']} "
                f"v{suite['version']} ({suite['hash'][:12]}); this is {fresh['agent']['spec']!r} "
                f"on {new['name']} v{new['version']} ({new['hash'][:12]}): use another --out folder"
            )
        before, options = run["agent"].get("options") or {}, fresh["agent"]["options"]
        if before != options and not changed_options:
            raise RunMismatch(
                f"{self.path} was played with agent options {before}; this call has {options}: "
                "use another --out folder, or pass --allow-changed-options to go on with the "
                "new ones (run.json then lists each call's options)"
            )
        if before != options:
            run["agent"].setdefault("earlier_options", []).append(before)
            run["agent"]["options"] = options
        return run

    def write_run(self, run: dict[str, Any]) -> None:
        self.run_file.write_text(json.dumps(run, indent=2) + "\n", encoding="utf-8")

    def records(self) -> list[dict[str, Any]]:
        """The finished episodes (a torn last line, from a run killed mid-write, is dropped
        and played again)."""
        if not self.episodes.exists():
            return []
        records = []
        for line in self.episodes.read_text(encoding="utf-8").splitlines():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                continue
        return records

    def keep(self, keys: set[str]) -> list[dict[str, Any]]:
        """Rewrite the episodes with one line per kept key (drops torn lines, episodes no
        longer wanted and errors to play again); the kept records."""
        records, seen = [], set()
        for record in self.records():
            if record.get("key") in keys and record["key"] not in seen:
                seen.add(record["key"])
                records.append(record)
        self.episodes.write_text(records_text(records), encoding="utf-8")
        return records

    @contextmanager
    def appending(self) -> Iterator[Callable[[EpisodeRecord], None]]:
        """A function that appends one record to the episodes, on disk at once."""
        with self.episodes.open("a", encoding="utf-8") as out:

            def append(record: EpisodeRecord) -> None:
                out.write(records_text([record]))
                out.flush()

            yield append

    def write_summary(self, run: dict[str, Any], records: list[dict[str, Any]]
                      ) -> dict[str, Path]:  # fmt: skip
        """summary.json and report.md of ``records``; every file's path by name."""
        rows = summarize(records)
        summary = {"suite": run["suite"], "agent": run["agent"]["spec"], "rows": rows}
        paths = {"run": self.run_file, "episodes": self.episodes, "summary": self.path /
                 SUMMARY_FILE, "report": self.path / REPORT_FILE}  # fmt: skip
        paths["summary"].write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        report = report_markdown(run, rows, ratings_summary(self.path), prompt_use(records))
        paths["report"].write_text(report, encoding="utf-8")
        return paths

    def refresh_report(self) -> dict[str, Path]:
        """Rewrite a finished run's summary and report (after ratings were added)."""
        run = json.loads(self.run_file.read_text(encoding="utf-8"))
        return self.write_summary(run, self.records())


__all__ = [
    "EPISODES_FILE",
    "GZ_EPISODES_FILE",
    "MAX_EPISODES_BYTES",
    "MAX_JSON_BYTES",
    "RECORD_FIELDS",
    "REPORT_FILE",
    "RUN_FILE",
    "STEP_FIELDS",
    "SUMMARY_FILE",
    "VERIFICATION_FILE",
    "RunDir",
    "RunFileError",
    "RunMismatch",
    "check_record",
    "episodes_file",
    "episodes_text",
    "parse_json",
    "parse_records",
    "read_bytes",
    "read_json",
    "read_records",
    "regular_file",
    "sha256",
    "sha256_file",
]
