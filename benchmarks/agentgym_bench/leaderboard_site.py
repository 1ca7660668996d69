"""Build the public leaderboard (README.md, a static index.html and PNG plots) from submissions.

Why: a leaderboard is only worth reading if every number on it can be trusted and traced. The
submissions folder holds each run's summary, its provenance and the verdict of the replay check;
this module keeps only the runs whose replay verified, lays their results out per env id and
difficulty (one row per agent, one column pair per split), and writes them twice: as Markdown for
the repository and as a single self-contained HTML page (inline CSS, a few lines of vanilla JS to
sort the tables, plots as relative images) that can be opened from disk or served as-is, with no
CDN and nothing to install.

Submissions are untrusted, and one bad submission must never stop the board: every folder is
checked again at each build (``revalidate``: the SHA-256 of every file against its verdict, the
files parsed strictly, the suite's protocol and the summary recomputed from the episodes: every
check of ``replay.verify_run`` but the replay itself, which ``leaderboard build --replay`` and
CI run), and a folder that fails any check is skipped and named, never half-rendered. Of an
id's revisions (``leaderboard.revisions``) only the newest is shown. Every string from a
submission is escaped for where it goes: HTML, Markdown (no markup, links or line breaks
pass) and matplotlib's mathtext in the plots.
A run of a suite with prompt variants (e.g. the history ablation) is one entry per variant,
named ``agent (variant)``. Each table ends with a "rule violations" column (``rules.py``): the share
of the agent's episodes over all the table's splits that broke any of the env's rules, with its 95%
CI; a summary row with no ``rule_episodes`` was checked against no rule (the env has none), shown
as "–", never as 0%.
"""

from __future__ import annotations

import dataclasses
import functools
import html
import math
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from agentgym_bench.rules import DESCRIPTIONS
from agentgym_bench.stats import wilson_interval

SPLIT_ORDER = ("test", "ood", "adversarial", "train", "valid")
DIFFICULTY_ORDER = ("easy", "medium", "hard")
GAP_SPLITS = ("test", "ood", "adversarial")
PLOT_PREFIXES = ("success_by_difficulty-", "generalization_gap-")
DPI = 100
TITLE = "AgentGym leaderboard"
HOW_MADE = (
    "Built from the submissions in `submissions/`: every row passed the verifier (the suite's "
    "protocol, and every episode replayed but those of real-time tasks, which cannot replay "
    "exactly and are counted in the notes); rows marked *reproduced (n of N)* had n episodes "
    "played again by the verifier with the agent itself. See the README's section on the "
    "leaderboard for what each proves."
)


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


class InvalidSubmission(ValueError):
    """A submission folder whose files are missing or malformed."""


RULE_COLUMN = "rule violations"
NO_RULES = "–"  # an env with no rules (no episode checked), unlike "—", a cell not run
RULES_LEGEND = (
    "Rule violations: the share of the agent's episodes in the table (all its splits) that broke "
    f"any of the env's rules, with its 95% CI; {NO_RULES} where no rule applies to the env."
)

EFFICIENCY_TITLE = (
    "Path efficiency (oracle steps / agent steps, over the episodes both solved; 1.00 is as "
    "short as the oracle)"
)


def slug(text: str) -> str:
    """Lower-case, non-alphanumeric runs to "-": "AgentGym/Toy-v0" -> "agentgym-toy-v0"."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


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


def path_efficiency(sub: Submission, oracle: Submission, env_id: str) -> float | None:
    """Mean of oracle steps / agent steps over the ``env_id`` episodes both solved (1.0: as
    short as the oracle's path; None when no episode was solved by both)."""
    shared = [
        k for k in sub.solved_steps if k.startswith(env_id + "|") and k in oracle.solved_steps
    ]
    if not shared:
        return None
    return sum(oracle.solved_steps[k] / max(sub.solved_steps[k], 1) for k in shared) / len(shared)


def efficiency_lines(env_id: str, submissions: Sequence[Submission]) -> list[str]:
    """One line per non-oracle submission with a path efficiency against its suite's oracle."""
    oracles = {s.suite: s for s in submissions if s.agent == "oracle"}
    lines = []
    for sub in submissions:
        oracle = oracles.get(sub.suite)
        if sub.agent == "oracle" or oracle is None:
            continue
        value = path_efficiency(sub, oracle, env_id)
        if value is not None:
            lines.append(f"{sub.label} ({sub.suite}): {value:.2f}")
    return lines


def load_submissions(directory: Path, check: bool = True,
                     skipped: list[str] | None = None) -> list[Submission]:  # fmt: skip
    """Every verified submission under ``directory/submissions`` (the newest revision of each
    id), in folder-name order. One that fails its checks, or breaks the reader in any way, is
    skipped with a warning and its name and reason appended to ``skipped``; never-verified ones
    are left out silently. The project's own board shows published suites only."""
    from agentgym_bench.leaderboard import PUBLISHED_BOARD, newest_revisions

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


def _ordered(values: set[str], order: Sequence[str]) -> list[str]:
    known = [v for v in order if v in values]
    return known + sorted(values - set(order))


@dataclass
class Table:
    """One env id × difficulty: the splits present and the submissions ranked by test success."""

    env_id: str
    difficulty: str
    splits: list[str]
    entries: list[Submission]

    @property
    def anchor(self) -> str:
        return f"table-{slug(self.env_id)}-{slug(self.difficulty)}"


def _rank_key(table_env: str, difficulty: str, splits: list[str], sub: Submission) -> tuple:
    split = "test" if "test" in splits else splits[0]
    row = sub.rows.get((table_env, difficulty, split))
    if row is None:
        return (1, 0.0, 0.0, sub.label)
    return (0, -row["success_rate"], -row["mean_score"], sub.label)


def tables(submissions: Sequence[Submission]) -> dict[str, list[Table]]:
    """Env id -> its tables, one per difficulty present, in a stable order."""
    env_ids = sorted({key[0] for s in submissions for key in s.rows})
    result: dict[str, list[Table]] = {}
    for env_id in env_ids:
        keys = [key for s in submissions for key in s.rows if key[0] == env_id]
        result[env_id] = []
        for difficulty in _ordered({k[1] for k in keys}, DIFFICULTY_ORDER):
            splits = _ordered({k[2] for k in keys if k[1] == difficulty}, SPLIT_ORDER)
            entries = [s for s in submissions if any(k[:2] == (env_id, difficulty) for k in s.rows)]
            entries.sort(key=functools.partial(_rank_key, env_id, difficulty, splits))
            result[env_id].append(Table(env_id, difficulty, splits, entries))
    return result


def _rate_text(rate: float, ci: Sequence[float] | None) -> str:
    text = f"{100 * rate:.1f}%"
    if ci:
        text += f" [{100 * ci[0]:.1f}–{100 * ci[1]:.1f}]"
    return text


def success_text(row: dict[str, Any] | None) -> str:
    """ "35.0% [18.0–57.0]" (success rate with its 95% CI), "—" when the cell was not run."""
    if row is None:
        return "—"
    return _rate_text(row["success_rate"], row.get("success_ci"))


@dataclass
class RuleTally:
    """One agent's rule checks over a table's splits, as counts: the column shows one rate per
    env x difficulty (the table), so the splits' rates are pooled by their episode counts."""

    checked: int = 0  # episodes checked against the env's rules
    broken: int = 0  # of them, those that broke any rule
    by_split: dict[str, tuple[int, int]] = field(default_factory=dict)  # split -> (broken, n)
    by_rule: dict[str, tuple[int, int]] = field(default_factory=dict)  # rule -> (broken, n)

    @property
    def rate(self) -> float:
        return self.broken / self.checked


def rule_tally(table: Table, sub: Submission) -> RuleTally | None:
    """``sub``'s rule checks in ``table``; None when none of its rows was checked (no rules)."""
    tally = RuleTally()
    for split in table.splits:
        row = sub.rows.get((table.env_id, table.difficulty, split))
        if row is None or "rule_episodes" not in row:
            continue
        n = row["rule_episodes"]
        broken = round(row["rule_violation_rate"] * n)
        tally.checked += n
        tally.broken += broken
        tally.by_split[split] = (broken, n)
        for name, rate in row["rule_violation_rates"].items():
            done, seen = tally.by_rule.get(name, (0, 0))
            tally.by_rule[name] = (done + round(rate * n), seen + n)
    return tally if tally.checked else None


def rule_text(tally: RuleTally | None) -> str:
    """ "11.7% [5.8–22.2]" (share that broke any rule, 95% CI), each rule's share after it when
    there are several; "–" when no rule applies."""
    if tally is None:
        return NO_RULES
    text = _rate_text(tally.rate, wilson_interval(tally.broken, tally.checked))
    if len(tally.by_rule) > 1:
        shares = (f"{name} {100 * b / n:.1f}%" for name, (b, n) in sorted(tally.by_rule.items()))
        text += " (" + ", ".join(shares) + ")"
    return text


def rule_title(tally: RuleTally | None) -> str:
    """The tooltip of a rule cell: the counts, per split and per rule with its meaning."""
    if tally is None:
        return "no rule applies to this env"
    splits = "; ".join(f"{split} {b} of {n}" for split, (b, n) in tally.by_split.items())
    rules = "".join(
        f" {name} ({DESCRIPTIONS.get(name, 'no description')}): {b} of {n} ({100 * b / n:.1f}%)."
        for name, (b, n) in sorted(tally.by_rule.items())
    )
    return f"{tally.broken} of {tally.checked} episodes broke a rule ({splits}).{rules}"


def rule_meanings(env_tables: Sequence[Table]) -> list[tuple[str, str]]:
    """(rule, what breaking it means) for each rule checked in an env's tables, for the note
    under them; empty for an env without rules."""
    names = sorted({
        name
        for table in env_tables
        for sub in table.entries
        for split in table.splits
        for name in (sub.rows.get((table.env_id, table.difficulty, split)) or {}).get(
            "rule_violation_rates", {}
        )
    })  # fmt: skip
    return [(name, DESCRIPTIONS.get(name, "no description")) for name in names]


def score_text(row: dict[str, Any] | None) -> str:
    """The mean score with two decimals, "—" when the cell was not run."""
    return "—" if row is None else f"{row['mean_score']:.2f}"


def provenance_text(sub: Submission) -> str:
    """One line: agentgym version, git commit, device, finish date (and the replay size)."""
    prov = sub.provenance
    commit = str(prov.get("git_commit") or "unknown")[:12]
    finished = sub.finished[:10] or "unknown"
    parts = [
        f"agentgym {prov.get('agentgym_version') or 'unknown'}",
        f"commit {commit}",
        f"device {prov.get('device') or 'unknown'}",
        f"finished {finished}",
    ]
    if sub.replayed_episodes is not None:
        parts.append(f"{sub.replayed_episodes} episodes replayed")
    if sub.skipped_real_time:
        parts.append(f"{sub.skipped_real_time} real-time episodes not replayable")
    return f"{sub.label} ({sub.suite}, submission {sub.submission_id}): " + ", ".join(parts)


def plot_paths(env_id: str) -> dict[str, str]:
    """Plot file names (relative to the site folder) for ``env_id``."""
    env = slug(env_id)
    return {
        "success_by_difficulty": f"plots/success_by_difficulty-{env}.png",
        "generalization_gap": f"plots/generalization_gap-{env}.png",
    }


def _save(figure: Figure, path: Path) -> Path:
    FigureCanvasAgg(figure)
    figure.tight_layout()
    figure.savefig(path, dpi=DPI, format="png")
    return path


def plot_success_by_difficulty(env_id: str, env_tables: Sequence[Table], path: Path) -> Path:
    """Grouped bars: test success (%) per difficulty, one bar per agent, with 95% CI whiskers."""
    difficulties = [t.difficulty for t in env_tables]
    agents = _agents(env_tables)
    figure = Figure(figsize=(6.4, 3.6))
    axes = figure.add_subplot()
    width = 0.8 / max(len(agents), 1)
    for i, sub in enumerate(agents):
        xs, heights, low, high = [], [], [], []
        for x, difficulty in enumerate(difficulties):
            row = sub.rows.get((env_id, difficulty, "test"))
            if row is None:
                continue
            rate = 100 * row["success_rate"]
            ci = row.get("success_ci") or [row["success_rate"]] * 2
            xs.append(x - 0.4 + width * (i + 0.5))
            heights.append(rate)
            low.append(max(rate - 100 * ci[0], 0.0))
            high.append(max(100 * ci[1] - rate, 0.0))
        axes.bar(xs, heights, width, yerr=[low, high], capsize=3, label=plain(sub.label))
    axes.set_xticks(range(len(difficulties)), [plain(d) for d in difficulties])
    axes.set_ylim(0, 105)
    axes.set_xlabel("difficulty")
    axes.set_ylabel("test success (%)")
    axes.set_title(plain(f"{env_id}: test success by difficulty"))
    axes.legend(fontsize="small")
    axes.grid(axis="y", alpha=0.3)
    return _save(figure, path)


def plot_generalization_gap(env_id: str, env_tables: Sequence[Table], path: Path) -> Path:
    """Lines per agent (one style per difficulty): success on test -> ood -> adversarial."""
    splits = _ordered({s for t in env_tables for s in t.splits} & set(GAP_SPLITS), GAP_SPLITS)
    figure = Figure(figsize=(6.4, 3.6))
    axes = figure.add_subplot()
    styles = ("-", "--", ":", "-.")
    markers = ("o", "s", "^", "D")
    colors = {sub.submission_id: f"C{i}" for i, sub in enumerate(_agents(env_tables))}
    for d, table in enumerate(env_tables):
        for sub in table.entries:
            points = [
                (x, 100 * row["success_rate"])
                for x, split in enumerate(splits)
                if (row := sub.rows.get((env_id, table.difficulty, split))) is not None
            ]
            if not points:
                continue
            axes.plot(
                [p[0] for p in points],
                [p[1] for p in points],
                linestyle=styles[d % len(styles)],
                marker=markers[d % len(markers)],
                color=colors[sub.submission_id],
                label=plain(f"{sub.label} · {table.difficulty}"),
            )
    axes.set_xticks(range(len(splits)), splits)
    axes.set_ylim(0, 105)
    axes.set_xlabel("split")
    axes.set_ylabel("success (%)")
    axes.set_title(plain(f"{env_id}: generalization gap"))
    axes.legend(fontsize="small", ncol=2)
    axes.grid(alpha=0.3)
    return _save(figure, path)


def _agents(env_tables: Sequence[Table]) -> list[Submission]:
    seen: dict[str, Submission] = {}
    for table in env_tables:
        for sub in table.entries:
            seen.setdefault(sub.submission_id, sub)
    return sorted(seen.values(), key=lambda s: s.note)


def plain(text: str) -> str:
    """``text`` as matplotlib draws it literally: no mathtext (``$`` escaped), one line, and
    not hidden from the legend (a label starting with ``_`` is)."""
    text = " ".join(str(text).split()).replace("$", r"\$")
    return " " + text if text.startswith("_") else text


#: the text columns of a table, before the per-split figures
TEXT_COLUMNS = ("Agent", "Suite", "Verified")
ERROR_COLUMN = "errors"


def _columns(table: Table) -> list[str]:
    columns = list(TEXT_COLUMNS)
    for split in table.splits:
        columns += [f"{split} success", f"{split} score"]
    return [*columns, ERROR_COLUMN, RULE_COLUMN]


def verified_text(sub: Submission) -> str:
    """How the verifier checked ``sub``: "replayed", or "reproduced (n of N)"."""
    if sub.method != "reproduced":
        return "replayed"
    return f"reproduced ({sub.reproduced_episodes} of {sub.replayed_episodes})"


def error_cell(table: Table, sub: Submission) -> Cell:
    """Errored episodes over the table's splits (each also counted as a failure), "3 of 60"."""
    found = (sub.rows.get((table.env_id, table.difficulty, split)) for split in table.splits)
    rows = [row for row in found if row is not None]
    episodes = sum(r["episodes"] for r in rows)
    errors = sum(r["errors"] for r in rows)
    return Cell(f"{errors} of {episodes}", errors / episodes if episodes else None)


class Cell(NamedTuple):
    """A figure of a table row: its text, its numeric sort value (None: sorts last) and, in
    the HTML, a tooltip."""

    text: str
    value: float | None
    title: str = ""


def _cells(table: Table, sub: Submission) -> list[Cell]:
    """The figures of ``sub``'s row in ``table``: per split success and score, then rules."""
    cells: list[Cell] = []
    for split in table.splits:
        row = sub.rows.get((table.env_id, table.difficulty, split))
        cells.append(Cell(success_text(row), None if row is None else row["success_rate"]))
        cells.append(Cell(score_text(row), None if row is None else row["mean_score"]))
    cells.append(error_cell(table, sub))
    tally = rule_tally(table, sub)
    cells.append(Cell(rule_text(tally), None if tally is None else tally.rate, rule_title(tally)))
    return cells


_MARKDOWN = re.compile(r"([\\`*_\[\]|~])")


def _md_escape(text: str) -> str:
    """``text`` as literal Markdown on one line: no emphasis, code, links, tables or HTML."""
    one_line = " ".join(str(text).split())
    return html.escape(_MARKDOWN.sub(r"\\\1", one_line), quote=False)


#: figures as this module writes them ("80.0% [65.0–95.0]", "3 of 60"): nothing to escape
_FIGURES = re.compile(r"[A-Za-z0-9 .%\[\]–-]*")


def _md_cell(text: str) -> str:
    """A computed cell: kept as written when it is only figures, else escaped."""
    return text if _FIGURES.fullmatch(text) else _md_escape(text)


def render_markdown(by_env: dict[str, list[Table]], submissions: Sequence[Submission]) -> str:
    """The README: title, how it is made, per env the tables and plot links, then provenance."""
    lines = [f"# {TITLE}", "", HOW_MADE, ""]
    if not submissions:
        lines += ["No verified submissions yet.", ""]
    for env_id, env_tables in by_env.items():
        lines += [f"## {env_id}", ""]
        for table in env_tables:
            columns = _columns(table)
            lines += [f"### {table.difficulty}", ""]
            lines.append("| " + " | ".join(columns) + " |")
            texts = len(TEXT_COLUMNS)
            lines.append("|" + "|".join(["---"] * texts + ["--:"] * (len(columns) - texts)) + "|")
            for sub in table.entries:
                cells = [f"{_md_escape(sub.label)} [^{sub.note}]", _md_escape(sub.suite),
                         verified_text(sub)]  # fmt: skip
                cells += [_md_cell(cell.text) for cell in _cells(table, sub)]
                lines.append("| " + " | ".join(cells) + " |")
            lines.append("")
        efficiency = efficiency_lines(env_id, submissions)
        if efficiency:
            lines += [EFFICIENCY_TITLE + ": " + "; ".join(map(_md_escape, efficiency)) + ".", ""]
        meanings = rule_meanings(env_tables)
        if meanings:
            listed = "; ".join(f"`{n}`: {_md_escape(m)}" for n, m in meanings)
            lines += [f"Rules behind the {RULE_COLUMN} column: {listed}.", ""]
        plots = plot_paths(env_id)
        lines.append(
            f"Plots: [test success by difficulty]({plots['success_by_difficulty']}) · "
            f"[generalization gap (test → ood → adversarial)]({plots['generalization_gap']})"
        )
        lines += [""]
    if submissions:
        lines += [
            "Success is % with its 95% CI in brackets; score is the mean episode score. "
            + RULES_LEGEND,
            "",
        ]
        lines += [f"[^{sub.note}]: {_md_escape(provenance_text(sub))}" for sub in submissions]
        lines.append("")
    return "\n".join(lines)


CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto;
       max-width: 70rem; padding: 0 1rem; color: #1f2328; line-height: 1.45; }
h1 { margin-bottom: .25rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #d0d7de; }
table { border-collapse: collapse; margin: .5rem 0 1.5rem; font-size: .92rem; }
th, td { border: 1px solid #d0d7de; padding: .3rem .6rem; text-align: right; white-space: nowrap; }
th:nth-child(-n+3), td:nth-child(-n+3) { text-align: left; }
th { background: #f6f8fa; cursor: pointer; user-select: none; }
th:hover { background: #eaeef2; }
th[aria-sort="ascending"]::after { content: " ▲"; }
th[aria-sort="descending"]::after { content: " ▼"; }
tbody tr:nth-child(even) { background: #fafbfc; }
img { max-width: 100%; border: 1px solid #d0d7de; margin: .25rem .5rem .25rem 0; }
.plots { display: flex; flex-wrap: wrap; }
.note, footer { color: #57606a; font-size: .9rem; }
a { color: #0969da; }
"""

# Click a header: numbers sort descending first, text ascending; a second click reverses.
# Empty cells ("—", no data-sort) always go last.
JS = """
document.querySelectorAll("table.board th").forEach(function (th) {
  th.addEventListener("click", function () {
    var table = th.closest("table"), body = table.tBodies[0], col = th.cellIndex;
    var numeric = th.dataset.type === "num", cur = th.getAttribute("aria-sort");
    var dir = cur ? (cur === "ascending" ? "descending" : "ascending")
                  : (numeric ? "descending" : "ascending");
    table.querySelectorAll("th").forEach(function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir);
    var sign = dir === "ascending" ? 1 : -1;
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[col], y = b.cells[col];
      if (numeric) {
        var u = x.dataset.sort, v = y.dataset.sort;
        if (u === undefined || v === undefined) {
          return (u === undefined) - (v === undefined);
        }
        return sign * (parseFloat(u) - parseFloat(v));
      }
      return sign * x.textContent.localeCompare(y.textContent);
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
"""


def render_html(by_env: dict[str, list[Table]], submissions: Sequence[Submission]) -> str:
    """The static page: sortable tables, the plots as relative <img>, provenance footnotes."""
    e = html.escape
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(TITLE)}</title>",
        f"<style>{CSS}</style>",
        "</head>",
        "<body>",
        f"<h1>{e(TITLE)}</h1>",
        f'<p class="note">{e(HOW_MADE.replace("`", ""))} Click a column header to sort.</p>',
    ]
    if not submissions:
        out.append("<p>No verified submissions yet.</p>")
    for env_id, env_tables in by_env.items():
        out.append(f'<section id="env-{e(slug(env_id))}">')
        out.append(f"<h2>{e(env_id)}</h2>")
        for table in env_tables:
            out.append(f"<h3>{e(table.difficulty)}</h3>")
            out.append(f'<table class="board" id="{e(table.anchor)}">')
            heads = []
            for index, column in enumerate(_columns(table)):
                kind = "text" if index < len(TEXT_COLUMNS) else "num"
                current = ""
                if table.splits and column == f"{_rank_split(table)} success":
                    current = ' aria-sort="descending"'
                if column == RULE_COLUMN:
                    current += f' title="{e(RULES_LEGEND)}"'
                heads.append(f'<th scope="col" data-type="{kind}"{current}>{e(column)}</th>')
            out.append("<thead><tr>" + "".join(heads) + "</tr></thead>")
            out.append("<tbody>")
            for sub in table.entries:
                cells = [
                    f'<td><a href="#prov-{sub.note}">{e(sub.label)}</a></td>',
                    f"<td>{e(sub.suite)}</td>",
                    f"<td>{e(verified_text(sub))}</td>",
                ]
                for cell in _cells(table, sub):
                    attr = "" if cell.value is None else f' data-sort="{cell.value!r}"'
                    if cell.title:
                        attr += f' title="{e(cell.title)}"'
                    cells.append(f"<td{attr}>{e(cell.text)}</td>")
                out.append("<tr>" + "".join(cells) + "</tr>")
            out.append("</tbody></table>")
        efficiency = efficiency_lines(env_id, submissions)
        if efficiency:
            out.append(f'<p class="note">{e(EFFICIENCY_TITLE)}: {e("; ".join(efficiency))}.</p>')
        meanings = rule_meanings(env_tables)
        if meanings:
            listed = "; ".join(f"<code>{e(n)}</code>: {e(m)}" for n, m in meanings)
            out.append(f'<p class="note">Rules behind the {e(RULE_COLUMN)} column: {listed}.</p>')
        plots = plot_paths(env_id)
        out.append('<div class="plots">')
        out.append(
            f'<img src="{e(plots["success_by_difficulty"])}" '
            f'alt="{e(env_id)}: test success by difficulty" width="640" height="360">'
        )
        out.append(
            f'<img src="{e(plots["generalization_gap"])}" '
            f'alt="{e(env_id)}: generalization gap" width="640" height="360">'
        )
        out.append("</div></section>")
    if submissions:
        out.append("<footer><h2>Provenance</h2>")
        out.append(
            "<p>Success is % with its 95% CI in brackets; score is the mean episode score. "
            f"{e(RULES_LEGEND)}</p>"
        )
        out.append("<ol>")
        for sub in submissions:
            out.append(f'<li id="prov-{sub.note}">{e(provenance_text(sub))}</li>')
        out.append("</ol></footer>")
    out += [f"<script>{JS}</script>", "</body>", "</html>", ""]
    return "\n".join(out)


def _rank_split(table: Table) -> str:
    return "test" if "test" in table.splits else table.splits[0]


def build_site(directory: Path, check: bool = True) -> dict[str, Any]:
    """Read ``directory/submissions`` and write README.md, index.html and plots/ into
    ``directory``; returns {"readme": path, "html": path, "plots": [paths], "skipped":
    ["name: why", ...]} (``check=False`` skips ``revalidate``: tests of the rendering only)."""
    directory = Path(directory)
    skipped: list[str] = []
    submissions = load_submissions(directory, check, skipped)
    by_env = tables(submissions)
    plots_dir = directory / "plots"
    plots_dir.mkdir(parents=True, exist_ok=True)
    plots: list[Path] = []
    for env_id, env_tables in by_env.items():
        names = plot_paths(env_id)
        plots.append(
            plot_success_by_difficulty(
                env_id, env_tables, directory / names["success_by_difficulty"]
            )
        )
        plots.append(
            plot_generalization_gap(env_id, env_tables, directory / names["generalization_gap"])
        )
    for stale in plots_dir.glob("*.png"):  # plots of envs no longer on the board
        if stale.name.startswith(PLOT_PREFIXES) and stale not in plots:
            stale.unlink()
    readme = directory / "README.md"
    readme.write_text(render_markdown(by_env, submissions), encoding="utf-8")
    page = directory / "index.html"
    page.write_text(render_html(by_env, submissions), encoding="utf-8")
    return {"readme": readme, "html": page, "plots": plots, "skipped": skipped}
