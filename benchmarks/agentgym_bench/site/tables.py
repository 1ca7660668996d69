"""The board's tables (one per env id x difficulty, ranked by test success) and the text of
each figure in them: success, score, errors, rule violations, path efficiency, provenance."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from agentgym_bench.rules import DESCRIPTIONS
from agentgym_bench.site.load import Submission
from agentgym_bench.stats import wilson_interval
from agentgym_envs.core.splits import DIFFICULTIES, HELD_OUT

#: the board's column order: the held-out splits first (not ``SPLITS``' order)
SPLIT_ORDER = (*HELD_OUT, "train", "valid")  # held-out splits first
DIFFICULTY_ORDER = DIFFICULTIES
RULE_COLUMN = "rule violations"
NO_RULES = "–"  # an env with no rules (no episode checked), unlike "—", a cell not run
#: the text columns of a table, before the per-split figures
TEXT_COLUMNS = ("Agent", "Suite", "Verified")
ERROR_COLUMN = "errors"


def slug(text: str) -> str:
    """Lower-case, non-alphanumeric runs to "-": "AgentGym/Toy-v0" -> "agentgym-toy-v0"."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


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


def _rank_split(table: Table) -> str:
    return "test" if "test" in table.splits else table.splits[0]


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
    """One line: the agent's options, agentgym version, git commit, device, finish date (and
    the replay size)."""
    prov = sub.provenance
    commit = str(prov.get("git_commit") or "unknown")[:12]
    finished = sub.finished[:10] or "unknown"
    options = ", ".join(f"{name}={value}" for name, value in sorted(sub.options.items()))
    parts = [f"options {options}"] if options else []
    parts += [
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
