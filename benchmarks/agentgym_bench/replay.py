"""Verify a benchmark run: the check every leaderboard submission must pass.

The verifier enforces the suite's protocol instead of trusting the run's files, which may come
from someone who wants a better number. A run is accepted only when

- **suite**: its suite is the published one of its name (``benchmarks/suites/<name>.yaml``,
  resolved here: same version and task-list hash). A self-made suite is used only when the
  verifier names its file (``suite_file``), and never under a published name;
- **episode set**: ``episodes.jsonl`` holds each episode of the resolved suite (on the env ids
  the run covers) exactly once, each record's fields those of its key (env, difficulty, split,
  task, seed, step limit, variant), every line a well-formed record;
- **step limit**: no episode has more steps than the suite's ``max_steps`` allows, nor a step
  after its episode ended;
- **env versions**: the run names the content version of every env it played; the verdict lists
  them beside the versions replayed here (``strict_versions`` refuses any difference);
- **the oracle**: only the oracle agent's envs give ``expert_action`` (run.json's
  ``agent.sees_oracle`` must say so), and no other agent's record holds one;
- **replay**: every episode, replayed through the same env id, difficulty, split, task and seed
  by sending its recorded actions, gives the same first observation and, step by step, the same
  observations, rewards, end flags and action errors, and ends with the recorded score, success
  and rule flags (an episode of a task its env lists as real-time, ``real_time_tasks``, cannot
  replay exactly: it is skipped and counted);
- **who played**, as far as it can be proven: the built-in agents (random, oracle, webshop-rule)
  are *reproduced*: the verifier plays every episode again with the agent itself and must get
  the same trajectory, so an oracle run relabelled ``random`` fails. ``hf:`` and ``run:`` agents
  (greedy decoding) are reproduced on ``reproduce`` episodes (a sample spread over the run, or
  all). An ``openai:`` endpoint cannot be re-run here: each of its steps must hold the prompt
  and the raw reply (``llm``), and the action must be what the reply parses to. Custom
  ``module:callable`` agents are replayed only;
- **errors**: an errored episode has no trajectory and counts as a failure with score 0 that
  broke every rule of its env; a run with more than the suite's ``max_error_rate`` of them is
  refused (a server down or a wrong option is not a result);
- ``summary.json`` equals the summary recomputed from the episodes.

Anything else is rejected with the first reasons found (episode key, step, field).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentgym_bench.agent_specs import BUILT_IN, sees_oracle
from agentgym_bench.rules import check_rules
from agentgym_bench.run_folder import (
    RUN_FILE,
    SUMMARY_FILE,
    RunFileError,
    check_record,
    episodes_file,
    episodes_text,
    parse_records,
    read_json,
)
from agentgym_bench.stats import summarize
from agentgym_bench.suites import (
    SUITES_DIR,
    EpisodeSpec,
    Resolved,
    SuiteError,
    published_suite,
    resolve,
)
from agentgym_envs.core.episode import LiveEpisode

#: Reasons kept per verification (the first ones; a tampered run usually fails everywhere).
MAX_REASONS = 20
#: a step's fields the replay recomputes and compares (``admissible`` feeds the admissible-action
#: rate, ``expert_action`` is the oracle's move: None for every agent but the oracle)
STEP_FIELDS = ("action", "observation", "terminated", "truncated", "action_error", "admissible",
               "expert_action")  # fmt: skip
#: summary fields newer than the first runs: checked where a summary has them
LATER_FIELDS = ("invalid_action_rate", "admissible_rate")
SPEC_FIELDS = ("env_id", "difficulty", "split", "task_id", "seed", "max_steps")
#: agents the verifier re-runs on every episode: the built-in ones (cheap, exactly repeatable)
ALWAYS_REPRODUCED = BUILT_IN
#: agent prefixes the verifier can re-run when asked (local models, greedy decoding)
REPRODUCIBLE = ("hf:", "run:")


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
    #: env id -> content version here, where the replay ran
    replay_versions: dict[str, str] = field(default_factory=dict)
    #: keys of the episodes the verifier played again with the agent itself
    reproduced: list[str] = field(default_factory=list)
    episodes: int = 0
    errors: int = 0
    #: the run's suite is the verifier's own file, not a published suite
    self_made_suite: bool = False
    suite_file: str = ""  # the file the suite was resolved from
    #: what was read and judged: run.json, summary.json, the episodes' text and records (a
    #: submission stores these, not the files again, which could have changed since)
    source: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def verified(self) -> bool:
        return not self.reasons

    @property
    def method(self) -> str:
        """Reproduced when the agent itself was re-run on some episodes, else replayed."""
        return "reproduced" if self.reproduced else "replayed"

    def reject(self, reason: str) -> None:
        if len(self.reasons) < MAX_REASONS:
            self.reasons.append(reason)

    def verdict(self) -> dict[str, Any]:
        """What a submission's ``verification.json`` records of it."""
        return {
            "verified": self.verified, "method": self.method,
            "replayed_episodes": self.replayed_episodes, "replayed_steps": self.replayed_steps,
            "reproduced_episodes": len(self.reproduced), "episodes": self.episodes,
            "errors": self.errors, "skipped_real_time": self.skipped_real_time,
            "env_versions": {"played": self.env_versions, "replayed": self.replay_versions},
        }  # fmt: skip


def _load(run_dir: Path, check: Verification) -> tuple[dict, dict, list[dict]] | None:
    """run.json, summary.json and the records, each read strictly (one bad line rejects)."""
    try:
        run = read_json(run_dir / RUN_FILE)
        summary = read_json(run_dir / SUMMARY_FILE)
        path = episodes_file(run_dir)
        text = episodes_text(path)
        records = parse_records(text, str(path))
        for number, record in enumerate(records, start=1):
            check_record(record, f"{path} record {number}")
    except RunFileError as error:
        check.reject(str(error))
        return None
    check.source = {"run": run, "summary": summary, "episodes": text, "records": records}
    agent, suite = run.get("agent"), run.get("suite")
    if not isinstance(agent, dict) or not isinstance(agent.get("spec"), str):
        check.reject(f"{RUN_FILE} has no agent.spec")
    if not isinstance(suite, dict) or not isinstance(suite.get("name"), str):
        check.reject(f"{RUN_FILE} has no suite.name")
    if not isinstance(run.get("provenance"), dict):
        check.reject(f"{RUN_FILE} has no 'provenance' object")
    if not isinstance(summary.get("rows"), list):
        check.reject(f"{SUMMARY_FILE} has no 'rows' list")
    return (run, summary, records) if not check.reasons else None


def _same_number(a: Any, b: Any) -> bool:
    try:
        return math.isclose(float(a), float(b), rel_tol=0, abs_tol=1e-9)
    except (TypeError, ValueError):
        return False


def _resolve_suite(run: dict, env_ids: list[str], suite_file: Path | None,
                   check: Verification) -> Resolved | None:  # fmt: skip
    """The suite the run is judged by: the published one of its name, or the verifier's own
    file for a self-made suite (never under a published name)."""
    name = run["suite"]["name"]
    try:
        if suite_file is not None:
            resolved = resolve(str(suite_file), env_ids=env_ids)
            if resolved.name != name:
                check.reject(f"the run's suite is {name!r}, {suite_file} is {resolved.name!r}")
                return None
            if published_suite(name) is not None and not resolved.published:
                check.reject(f"suite {name!r} is a published suite: verify against it (no "
                             "suite file), or give your own suite another name")  # fmt: skip
                return None
            check.self_made_suite = not resolved.published
            check.suite_file = resolved.file
            return resolved
        if published_suite(name) is None:
            known = ", ".join(sorted(p.stem for p in SUITES_DIR.glob("*.yaml")))
            check.reject(f"suite {name!r} is not a published suite ({known}); a self-made suite "
                         "verifies only against its file (--suite FILE), into a board of its "
                         "own")  # fmt: skip
            return None
        resolved = resolve(name, env_ids=env_ids)
        check.suite_file = resolved.file
        return resolved
    except (SuiteError, KeyError) as error:
        check.reject(f"suite {name!r} cannot be resolved here: {error}")
        return None


def _check_episode_set(run: dict, records: list[dict], suite: Resolved,
                       check: Verification) -> dict[str, EpisodeSpec]:  # fmt: skip
    """The suite's episodes by key, after checking the run holds each once, as its key says."""
    claimed = run["suite"]
    if suite.version != claimed.get("version") or suite.hash != claimed.get("hash"):
        check.reject(
            f"suite mismatch: run has {suite.name} v{claimed.get('version')} "
            f"({str(claimed.get('hash'))[:12]}), here it is v{suite.version} ({suite.hash[:12]})"
        )
        return {}
    wanted = {spec.key: spec for spec in suite.episodes}
    for record in records:  # each record's own fields must be the episode its key names
        spec = wanted.get(record["key"])
        if spec is not None and (any(record.get(k) != getattr(spec, k) for k in SPEC_FIELDS)
                                 or record.get("variant", "") != spec.variant):  # fmt: skip
            check.reject(f"{record['key']}: its fields do not match its key")
    keys = [r["key"] for r in records]
    duplicates = sorted({k for k in keys if keys.count(k) > 1})
    missing, extra = sorted(set(wanted) - set(keys)), sorted(set(keys) - set(wanted))
    for label, items in (("duplicated", duplicates), ("missing", missing), ("unexpected", extra)):
        if items:
            check.reject(f"{len(items)} {label} episode(s), e.g. {items[0]}")
    return wanted


def _check_protocol(run: dict, records: list[dict], wanted: dict[str, EpisodeSpec],
                    check: Verification) -> None:  # fmt: skip
    """Step limits, episode ends, the oracle's visibility and who played, record by record."""
    spec_name = run["agent"]["spec"]
    oracle = sees_oracle(spec_name)
    if run["agent"].get("sees_oracle") is not oracle:
        check.reject(f"{RUN_FILE}: agent.sees_oracle is {run['agent'].get('sees_oracle')!r}; "
                     f"{spec_name!r} must play with the oracle {'on' if oracle else 'off'} "
                     "(a run from before the rule: play it again)")  # fmt: skip
    for record in records:
        key, trajectory, spec = record["key"], record["trajectory"], wanted.get(record["key"])
        described = record.get("agent")
        if isinstance(described, dict) and described.get("spec") != spec_name:
            check.reject(f"{key}: played by {described.get('spec')!r}, the run says {spec_name!r}")
        if record["error"] is not None:
            if trajectory is not None or record["success"] or record["score"] != 0 \
                    or record["length"] != 0:  # fmt: skip
                check.reject(f"{key}: an errored episode claims a trajectory or a result")
            continue
        if trajectory is None:
            check.reject(f"{key}: no trajectory to replay")
            continue
        steps = trajectory["steps"]
        if spec is not None and len(steps) > spec.max_steps:
            check.reject(f"{key}: {len(steps)} steps, past the suite's limit of {spec.max_steps}")
        if any(s["terminated"] or s["truncated"] for s in steps[:-1]):
            check.reject(f"{key}: steps recorded after the episode ended")
        if record["length"] != len(steps):
            check.reject(f"{key}: recorded length {record['length']} != steps recorded")
        if not oracle and any(s.get("expert_action") is not None for s in steps):
            check.reject(f"{key}: holds the oracle's actions, which only the oracle may see")
        if spec_name.startswith("openai:"):
            _check_llm_steps(key, trajectory, check)


def _check_llm_steps(key: str, trajectory: dict, check: Verification) -> None:
    """An endpoint cannot be re-run: each step must show its prompt, whose newest message holds
    the observation the step answered, and the model's raw reply, which must parse to the
    step's action."""
    from agentgym_bench.llm_agents import action_from_reply

    seen = trajectory["observation"]
    for index, step in enumerate(trajectory["steps"]):
        llm = step.get("llm")
        if not isinstance(llm, dict) or not isinstance(llm.get("reply"), str):
            check.reject(f"{key}: step {index} has no recorded prompt and reply (llm)")
            return
        messages = llm.get("messages")
        last = messages[-1] if isinstance(messages, list) and messages else llm.get("last_message")
        if not isinstance(last, dict) or not isinstance(last.get("content"), str) or (
            "messages" not in llm and not isinstance(llm.get("messages_sha256"), str)
        ):  # fmt: skip
            check.reject(f"{key}: step {index} has no recorded prompt")
            return
        if seen not in last["content"]:
            check.reject(f"{key}: step {index}'s recorded prompt does not show the observation "
                         "it answered")  # fmt: skip
            return
        if action_from_reply(llm["reply"]) != step["action"]:
            check.reject(f"{key}: step {index} action {step['action']!r} is not what the "
                         "recorded reply parses to")  # fmt: skip
            return
        seen = step["observation"]


def _check_versions(run: dict, records: list[dict], suite: Resolved, strict: bool,
                    check: Verification) -> None:  # fmt: skip
    check.replay_versions = {e: suite.env_versions.get(e, "unknown")
                             for e in sorted({r["env_id"] for r in records})}  # fmt: skip
    for env_id, here in check.replay_versions.items():
        then = check.env_versions.get(env_id)
        if not isinstance(then, str) or not then:
            check.reject(f"{RUN_FILE}: no content version for {env_id} (suite.env_versions)")
        elif strict and then != here:
            check.reject(f"{env_id}: played at {then!r}, here it is {here!r} (strict versions)")


def _check_errors(records: list[dict], suite: Resolved, check: Verification) -> None:
    check.episodes = len(records)
    check.errors = sum(r["error"] is not None for r in records)
    if records and check.errors / len(records) > suite.max_error_rate:
        reasons = sorted({str(r["error"])[:120] for r in records if r["error"] is not None})
        check.reject(f"{check.errors} of {len(records)} episodes are errors, over the suite's "
                     f"limit of {suite.max_error_rate:.0%} (e.g. {reasons[0]!r}): fix the "
                     "cause and play them again (--retry-errors)")  # fmt: skip


def _replay(record: dict, envs: dict, expert: bool, check: Verification) -> None:
    """Send the record's actions to a fresh episode of its task; compare every step."""
    import gymnasium as gym

    key, trajectory = record["key"], record["trajectory"]
    cell = (record["env_id"], record["difficulty"], record["split"])
    if cell not in envs:
        envs[cell] = gym.make(record["env_id"], difficulty=record["difficulty"],
                              split=record["split"], expert=expert)  # fmt: skip
    live = LiveEpisode(envs[cell], record["seed"], options={"task_id": record["task_id"]})
    if live.observation != trajectory["observation"]:
        hint = _version_hint(record["env_id"], check)
        check.reject(f"{key}: first observation differs (another task, or the env's content "
                     f"changed since the run{hint})")  # fmt: skip
        return
    for index, step in enumerate(trajectory["steps"]):
        live.apply(step["action"])
        if not _same_step(key, index, live.trajectory.steps[-1], step, check):
            return
    _check_outcome(record, live.info, check)


def _same_step(key: str, index: int, got: dict, step: dict, check: Verification) -> bool:
    """``got`` (a step record played here) against the run's ``step``, field by field."""
    for name in STEP_FIELDS:
        if got[name] != step.get(name):
            check.reject(f"{key}: step {index} {name} differs from the replay"
                         + (f" (the agent here chose {got[name]!r}, the run has "
                            f"{step.get(name)!r})" if name == "action" else ""))  # fmt: skip
            return False
    if not _same_number(got["reward"], step.get("reward")):
        check.reject(f"{key}: step {index} reward {step.get('reward')} != replayed "
                     f"{got['reward']}")  # fmt: skip
        return False
    check.replayed_steps += 1
    return True


def _check_outcome(record: dict, info: dict, check: Verification) -> None:
    key, trajectory = record["key"], record["trajectory"]
    score, success = float(info.get("score", 0.0)), bool(info.get("success", False))
    for name, replayed in (("score", score), ("success", success)):
        for where in (record, trajectory):
            if not _same_number(where.get(name), replayed):
                check.reject(f"{key}: recorded {name} {where.get(name)} != replayed {replayed}")
                return
    flags = check_rules(record["env_id"], trajectory, info)
    if record.get("rule_violations") != flags:
        check.reject(f"{key}: recorded rule_violations {record.get('rule_violations')} != "
                     f"replayed {flags}")  # fmt: skip
        return
    check.replayed_episodes += 1


def _reproduce(record: dict, spec: EpisodeSpec, player: Any, check: Verification) -> None:
    """Play the episode again with the agent itself (the runner's own player) and compare."""
    key = record["key"]
    again = player.play(spec)
    if again["error"] is not None:
        check.reject(f"{key}: could not reproduce it here: {again['error']}")
        return
    mine, theirs = again["trajectory"]["steps"], record["trajectory"]["steps"]
    if again["trajectory"]["observation"] != record["trajectory"]["observation"]:
        check.reject(f"{key}: first observation differs{_version_hint(record['env_id'], check)}")
        return
    for index, step in enumerate(theirs):
        if index >= len(mine):
            check.reject(f"{key}: the agent here stopped after {len(mine)} steps, the run has "
                         f"{len(theirs)}")  # fmt: skip
            return
        if not _same_step(key, index, mine[index], step, check):
            return
    if len(mine) != len(theirs):
        check.reject(f"{key}: the agent here played {len(mine)} steps, the run has {len(theirs)}")
        return
    for name in ("score", "success", "rule_violations"):
        if again.get(name) != record.get(name) and not (
            name == "score" and _same_number(again[name], record[name])
        ):  # fmt: skip
            check.reject(f"{key}: recorded {name} {record.get(name)} != replayed "
                         f"{again.get(name)} (the agent itself, played again)")  # fmt: skip
            return
    check.reproduced.append(key)
    check.replayed_episodes += 1


def _version_hint(env_id: str, check: Verification) -> str:
    """Where the run's env content version is known and differs from here, both."""
    then, now = check.env_versions.get(env_id), check.replay_versions.get(env_id)
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
        if not isinstance(got, dict):
            check.reject("summary rows must be objects")
            return
        for name, value in want.items():
            if name in LATER_FIELDS and name not in got:
                continue  # a summary written before the field existed
            same = (_same_number(got.get(name), value) if isinstance(value, float)
                    else _same_list(got.get(name), value) if isinstance(value, list)
                    else got.get(name) == value)  # fmt: skip
            if not same:
                check.reject(f"summary {want['env_id']} {want['difficulty']}/{want['split']}: "
                             f"{name} {got.get(name)} != {value} from the episodes")  # fmt: skip
                return


def _same_list(got: Any, want: list) -> bool:
    return isinstance(got, list) and len(got) == len(want) and all(
        _same_number(a, b) for a, b in zip(got, want, strict=True))  # fmt: skip


def _to_reproduce(run: dict, records: list[dict], reproduce: int | str | None,
                  real_time: set[str]) -> set[str]:  # fmt: skip
    """The keys the verifier plays again with the agent: every episode of a built-in agent;
    for ``hf:``/``run:`` agents ``reproduce`` of them (an int: spread evenly over the run, or
    "all"); none for agents that cannot run here."""
    spec_name = run["agent"]["spec"]
    playable = [r["key"] for r in records if r["error"] is None and r["key"] not in real_time]
    if spec_name in ALWAYS_REPRODUCED:
        return set(playable)
    if not reproduce or not spec_name.startswith(REPRODUCIBLE) or not playable:
        return set()
    if reproduce == "all":
        return set(playable)
    count = min(int(reproduce), len(playable))
    return {playable[(i * len(playable)) // count] for i in range(count)}


def verify_run(
    run_dir: str | Path,
    progress: bool = True,
    suite_file: str | Path | None = None,
    reproduce: int | str | None = None,
    strict_versions: bool = False,
    replay: bool = True,
) -> Verification:
    """Check ``run_dir`` (a ``suite_runner`` output, or a board submission) against its suite
    and replay it (see the module docstring). ``suite_file``: the suite of a self-made run;
    ``reproduce``: how many episodes of an ``hf:``/``run:`` agent to re-run ("all" or a count;
    built-in agents are always re-run in full); ``strict_versions``: refuse a run played on
    other env content versions than here; ``replay=False``: every check but the replay (what
    ``leaderboard build`` does to each stored submission: seconds, not minutes)."""
    check = Verification(Path(run_dir))
    loaded = _load(check.run_dir, check)
    if loaded is None:
        return check
    run, summary, records = loaded
    versions = run["suite"].get("env_versions")
    check.env_versions = dict(versions) if isinstance(versions, dict) else {}
    env_ids = sorted({r["env_id"] for r in records})
    suite = _resolve_suite(run, env_ids, Path(suite_file) if suite_file else None, check)
    if suite is None:
        return check
    wanted = _check_episode_set(run, records, suite, check)
    if check.reasons:
        return check
    _check_protocol(run, records, wanted, check)
    _check_versions(run, records, suite, strict_versions, check)
    _check_errors(records, suite, check)
    _check_summary(summary, records, check)
    if check.reasons or not replay:
        return check
    _play_back(run, records, wanted, suite, reproduce, progress, check)
    return check


def _play_back(run: dict, records: list[dict], wanted: dict[str, EpisodeSpec], suite: Resolved,
               reproduce: int | str | None, progress: bool,
               check: Verification) -> None:  # fmt: skip
    """Replay every played episode, and reproduce those ``_to_reproduce`` picks."""
    from tqdm.auto import tqdm

    from agentgym_bench.player import EpisodePlayer
    from agentgym_bench.suite_runner import RunSettings

    spec_name = run["agent"]["spec"]
    real_time = _real_time_keys(records)
    again = _to_reproduce(run, records, reproduce, real_time)
    player = None
    if again:
        prompts = {(s.env_id, s.variant): suite.prompt_for(s.env_id, s.variant)
                   for s in wanted.values()}  # fmt: skip
        options = dict(run["agent"].get("options") or {})
        player = EpisodePlayer(RunSettings(spec_name, options), prompts)
    envs: dict = {}
    try:
        for record in tqdm(records, desc="verifying", unit="episode", disable=not progress):
            if record["error"] is not None:
                continue
            if record["key"] in real_time:
                check.skipped_real_time.append(record["key"])
                continue
            try:
                if record["key"] in again:
                    _reproduce(record, wanted[record["key"]], player, check)
                else:
                    _replay(record, envs, sees_oracle(spec_name), check)
            except Exception as error:  # an env refusing the recorded episode is a verdict
                check.reject(f"{record['key']}: replay failed: {type(error).__name__}: "
                             f"{error}")  # fmt: skip
            if len(check.reasons) >= MAX_REASONS:
                break
    finally:
        for env in envs.values():
            env.close()
        if player is not None:
            player.close()


def _real_time_keys(records: list[dict]) -> set[str]:
    """The episodes of tasks their env class lists as real-time (``real_time_tasks``: their
    pages follow the wall clock, so they cannot replay exactly)."""
    from agentgym_envs.registration import env_class

    listed: dict[str, set[str]] = {}
    for env_id in {r["env_id"] for r in records}:
        listed[env_id] = set(getattr(env_class(env_id), "real_time_tasks", {}) or {})
    return {r["key"] for r in records if r["task_id"] in listed[r["env_id"]]}


__all__ = ["ALWAYS_REPRODUCED", "Verification", "verify_run"]
