"""Verify a benchmark run by replaying it: the check every leaderboard submission must pass.

A run is accepted only when
- its suite resolves here to the same episodes (same suite version and task-list hash, on the
  env ids the run covers) and ``episodes.jsonl`` holds each of them exactly once;
- every recorded episode, replayed through the same env id, difficulty, split, task and seed by
  sending its recorded actions one by one, gives the same first observation and, step by step,
  the same observations, rewards, end flags and action errors, and ends with the recorded score
  and success (an episode recorded as an error has no actions and counts as a failure), and
  where a record has its rule flags (``rule_violations``), the same flags from the replay;
  an episode of a task the env lists as real-time by design (``real_time_tasks``: its page
  follows the wall clock) cannot replay exactly and is skipped, and counted as skipped;
- an env's episodes carry their rule flags all or none (a run from before the checks);
- ``summary.json`` equals the summary recomputed from the episodes.
A suite with prompt variants plays each episode once per variant; each is replayed (the env does
not see the prompt, so the variant only names the episode).
Anything else is rejected with the first reasons found (episode key, step, field).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentgym_bench.rules import check_rules
from agentgym_bench.stats import summarize
from agentgym_bench.suite_runner import EPISODES_FILE, RUN_FILE, SUMMARY_FILE, read_episodes
from agentgym_bench.suites import SUITES_DIR, SuiteError, resolve

#: Reasons kept per verification (the first ones; a tampered run usually fails everywhere).
MAX_REASONS = 20
STEP_FIELDS = ("observation", "terminated", "truncated", "action_error")
#: summary fields newer than the first runs: checked where a summary has them
LATER_FIELDS = ("invalid_action_rate", "admissible_rate")
SPEC_FIELDS = ("env_id", "difficulty", "split", "task_id", "seed", "max_steps")


@dataclass
class Verification:
    """The verdict on one run directory."""

    run_dir: Path
    reasons: list[str] = field(default_factory=list)
    replayed_episodes: int = 0
    replayed_steps: int = 0
    #: keys of real-time episodes, which cannot replay exactly and were not checked
    skipped_real_time: list[str] = field(default_factory=list)
    #: env id -> content version the run recorded (run.json's suite.env_versions)
    env_versions: dict[str, str] = field(default_factory=dict)

    @property
    def verified(self) -> bool:
        return not self.reasons

    def reject(self, reason: str) -> None:
        if len(self.reasons) < MAX_REASONS:
            self.reasons.append(reason)


def _load(run_dir: Path, check: Verification) -> tuple[dict, dict, list[dict]] | None:
    try:
        run = json.loads((run_dir / RUN_FILE).read_text(encoding="utf-8"))
        summary = json.loads((run_dir / SUMMARY_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        check.reject(f"cannot read {RUN_FILE} / {SUMMARY_FILE}: {error}")
        return None
    if not (run_dir / EPISODES_FILE).exists():
        check.reject(f"no {EPISODES_FILE}")
        return None
    for key in ("agent", "suite", "provenance"):
        if key not in run:
            check.reject(f"{RUN_FILE} has no {key!r}")
    if "rows" not in summary:
        check.reject(f"{SUMMARY_FILE} has no 'rows'")
    return (run, summary, read_episodes(run_dir)) if not check.reasons else None


def _same_number(a: Any, b: Any) -> bool:
    try:
        return math.isclose(float(a), float(b), rel_tol=0, abs_tol=1e-9)
    except (TypeError, ValueError):
        return False


def _check_episode_set(run: dict, records: list[dict], check: Verification) -> None:
    suite = run["suite"]
    env_ids = sorted({r.get("env_id") for r in records})
    published = SUITES_DIR / f"{suite.get('name')}.yaml"
    source = str(published) if published.exists() else suite.get("file") or suite.get("name")
    try:
        resolved = resolve(source, env_ids=env_ids)
    except (SuiteError, KeyError) as error:
        check.reject(f"suite {suite.get('name')!r} cannot be resolved here: {error}")
        return
    if resolved.version != suite.get("version") or resolved.hash != suite.get("hash"):
        check.reject(
            f"suite mismatch: run has {suite.get('name')} v{suite.get('version')} "
            f"({str(suite.get('hash'))[:12]}), "
            f"here it is v{resolved.version} ({resolved.hash[:12]})"
        )
        return
    wanted = {spec.key: spec for spec in resolved.episodes}
    for record in records:  # each record's own fields must be the episode its key names
        spec = wanted.get(record.get("key"))
        if spec is not None and (any(record.get(k) != getattr(spec, k) for k in SPEC_FIELDS)
                                 or record.get("variant", "") != spec.variant):  # fmt: skip
            check.reject(f"{record.get('key')}: its fields do not match its key")
    keys = [r.get("key") for r in records]
    duplicates = sorted({k for k in keys if keys.count(k) > 1})
    missing, extra = sorted(set(wanted) - set(keys)), sorted(set(keys) - set(wanted))
    for label, items in (("duplicated", duplicates), ("missing", missing), ("unexpected", extra)):
        if items:
            check.reject(f"{len(items)} {label} episode(s), e.g. {items[0]}")


def _replay(record: dict, envs: dict, check: Verification) -> None:
    import gymnasium as gym

    key = record.get("key")
    trajectory = record.get("trajectory")
    if record.get("error"):
        if record.get("success") or float(record.get("score") or 0) != 0:
            check.reject(f"{key}: an errored episode claims score {record.get('score')}")
        return
    if not trajectory:
        check.reject(f"{key}: no trajectory to replay")
        return
    cell = (record["env_id"], record["difficulty"], record["split"])
    if cell not in envs:
        envs[cell] = gym.make(record["env_id"], difficulty=record["difficulty"],
                              split=record["split"])  # fmt: skip
    env = envs[cell]
    if record["task_id"] in getattr(env.unwrapped, "real_time_tasks", {}):
        check.skipped_real_time.append(key)
        return
    observation, info = env.reset(seed=record["seed"], options={"task_id": record["task_id"]})
    if observation != trajectory.get("observation"):
        hint = _version_hint(record["env_id"], env, check)
        check.reject(f"{key}: first observation differs (another task, or the env's content "
                     f"changed since the run{hint})")  # fmt: skip
        return
    for index, step in enumerate(trajectory.get("steps", [])):
        observation, reward, terminated, truncated, info = env.step(step.get("action"))
        got = {"observation": observation, "terminated": terminated, "truncated": truncated,
               "action_error": info.get("action_error")}  # fmt: skip
        for name in STEP_FIELDS:
            if got[name] != step.get(name):
                check.reject(f"{key}: step {index} {name} differs from the replay")
                return
        if not _same_number(reward, step.get("reward")):
            check.reject(f"{key}: step {index} reward {step.get('reward')} != replayed {reward}")
            return
        check.replayed_steps += 1
    score, success = float(info.get("score", 0.0)), bool(info.get("success", False))
    for name, replayed in (("score", score), ("success", success)):
        for where in (record, trajectory):
            if not _same_number(where.get(name), replayed):
                check.reject(f"{key}: recorded {name} {where.get(name)} != replayed {replayed}")
                return
    if record.get("length") != len(trajectory.get("steps", [])):
        check.reject(f"{key}: recorded length {record.get('length')} != steps recorded")
        return
    if "rule_violations" in record:
        flags = check_rules(record["env_id"], trajectory, info)
        if record["rule_violations"] != flags:
            check.reject(f"{key}: recorded rule_violations {record['rule_violations']} != "
                         f"replayed {flags}")  # fmt: skip
            return
    check.replayed_episodes += 1


def _version_hint(env_id: str, env: Any, check: Verification) -> str:
    """Where the run's env content version is known and differs from here, both."""
    then = check.env_versions.get(env_id)
    content = getattr(env.unwrapped, "content_version", None)
    now = content() if callable(content) else None
    if then and now and then != now:
        return f": the run had {env_id} at {then!r}, here it is {now!r}"
    return ": compare the agentgym versions"


def _check_summary(summary: dict, records: list[dict], check: Verification) -> None:
    expected = summarize(records)
    rows = summary.get("rows", [])
    if len(rows) != len(expected):
        check.reject(f"summary has {len(rows)} rows, the episodes give {len(expected)}")
        return
    for got, want in zip(rows, expected, strict=True):
        for name, value in want.items():
            if name in LATER_FIELDS and name not in got:
                continue  # a summary written before the field existed
            same = (_same_number(got.get(name), value) if isinstance(value, float)
                    else [round(x, 9) for x in got.get(name, [])] == [round(x, 9) for x in value]
                    if isinstance(value, list) else got.get(name) == value)  # fmt: skip
            if not same:
                check.reject(f"summary {want['env_id']} {want['difficulty']}/{want['split']}: "
                             f"{name} {got.get(name)} != {value} from the episodes")  # fmt: skip
                return


def _check_rule_flags(records: list[dict], check: Verification) -> None:
    """An env's rule flags are on all of its played episodes or on none (a run from before the
    checks): flags dropped from some episodes would change its violation rates."""
    played: dict[str, list[bool]] = {}
    for record in records:
        if not record.get("error"):
            played.setdefault(record.get("env_id"), []).append("rule_violations" in record)
    for env_id, flagged in played.items():
        if any(flagged) and not all(flagged):
            check.reject(f"{env_id}: {flagged.count(False)} of {len(flagged)} episodes have no "
                         "rule_violations")  # fmt: skip


def verify_run(run_dir: str | Path, progress: bool = True) -> Verification:
    """Replay ``run_dir`` (a ``suite_runner`` output) and say whether it holds up."""
    from tqdm.auto import tqdm

    check = Verification(Path(run_dir))
    loaded = _load(check.run_dir, check)
    if loaded is None:
        return check
    run, summary, records = loaded
    check.env_versions = dict(run["suite"].get("env_versions") or {})
    _check_episode_set(run, records, check)
    if check.reasons:
        return check
    envs: dict = {}
    try:
        for record in tqdm(records, desc="replaying", unit="episode", disable=not progress):
            try:
                _replay(record, envs, check)
            except Exception as error:  # an env refusing the recorded episode is a verdict
                check.reject(f"{record.get('key')}: replay failed: {type(error).__name__}: "
                             f"{error}")  # fmt: skip
            if len(check.reasons) >= MAX_REASONS:
                break
    finally:
        for env in envs.values():
            env.close()
    _check_rule_flags(records, check)
    _check_summary(summary, records, check)
    return check


__all__ = ["Verification", "verify_run"]
