"""The verifier and the board against someone who wants a better number or wants to attack the
person who opens the board: each test is one attack an outside tester made on the board before
these checks (played past the step limit, read the oracle, relabelled another agent's run,
replaced a row, escaped the board folder, hid rule breaks as errors, broke the board for
everyone with one bad line or name) and asserts it is refused or harmless now."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest
from agentgym_bench.leaderboard import PUBLISHED_BOARD, submit
from agentgym_bench.replay import verify_run
from agentgym_bench.site import build_site
from agentgym_bench.stats import summarize
from agentgym_bench.suite_runner import RunSettings, read_episodes, run_suite
from agentgym_bench.suites import resolve

from agentgym_envs.cli import main

#: two Toy lists of three tasks, at most 3 steps an episode: random fails most of them
SHORT_SUITE = """\
name: short
version: 1
description: Toy easy and medium, three tasks each, 3 steps at most
envs:
  AgentGym/Toy-v0:
    difficulties: [easy, medium]
    splits: [test]
    episodes: 3
    max_steps: 3
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """A random and an oracle run of the short suite (and the suite file, "suite")."""
    folder = tmp_path_factory.mktemp("attacks")
    suite = folder / "short.yaml"
    suite.write_text(SHORT_SUITE)
    made = {"suite": suite}
    for agent in ("random", "oracle"):
        made[agent] = folder / agent
        run_suite(resolve(str(suite)), RunSettings(agent), made[agent], progress=False)
    return made


def _copy(run_dir: Path, to: Path) -> Path:
    to.mkdir(parents=True)
    for name in ("run.json", "episodes.jsonl", "summary.json"):
        shutil.copyfile(run_dir / name, to / name)
    return to


def _write(run_dir: Path, records: list[dict[str, Any]], run: dict | None = None) -> None:
    """Rewrite the run's episodes (and run.json) and a summary that agrees with them, as a
    careful attacker would."""
    (run_dir / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    if run is not None:
        (run_dir / "run.json").write_text(json.dumps(run))
    summary = json.loads((run_dir / "summary.json").read_text())
    summary["rows"] = summarize(records)
    (run_dir / "summary.json").write_text(json.dumps(summary))


def _verify(run_dir: Path, runs: dict[str, Path], **kwargs: Any):
    return verify_run(run_dir, progress=False, suite_file=runs["suite"], **kwargs)


def _reasons(check) -> str:
    assert not check.verified, "the attack verified"
    return " | ".join(check.reasons)


def test_both_honest_runs_verify_and_are_reproduced(runs):
    for agent in ("random", "oracle"):
        check = _verify(runs[agent], runs)
        assert check.verified, check.reasons
        assert check.method == "reproduced" and len(check.reproduced) == 6


def test_playing_past_the_step_limit_is_refused(runs, tmp_path):
    run_dir = _copy(runs["random"], tmp_path / "long")
    records = read_episodes(run_dir)
    failed = next(r for r in records if not r["success"] and r["length"] == 3)
    env = gym.make("AgentGym/Toy-v0", difficulty=failed["difficulty"], split="test")
    observation, info = env.reset(seed=failed["seed"], options={"task_id": failed["task_id"]})
    steps = []
    for step in failed["trajectory"]["steps"]:  # the recorded steps, then the oracle's
        observation, reward, terminated, truncated, info = env.step(step["action"])
    steps = list(failed["trajectory"]["steps"])
    while not (terminated or truncated) and len(steps) < 30:
        action = info["expert_action"]
        observation, reward, terminated, truncated, info = env.step(action)
        steps.append({"action": action, "observation": observation, "reward": float(reward),
                      "terminated": terminated, "truncated": truncated,
                      "action_error": info["action_error"], "expert_action": None,
                      "admissible": None})  # fmt: skip
    assert info["success"]
    failed["trajectory"].update(steps=steps, score=info["score"], success=True)
    failed.update(score=info["score"], success=True, length=len(steps), complete=True)
    _write(run_dir, records)
    assert "past the suite's limit of 3" in _reasons(_verify(run_dir, runs))


def test_no_agent_but_the_oracle_sees_the_oracle(runs, tmp_path):
    out = tmp_path / "copycat"
    run_suite(resolve(str(runs["suite"])),
              RunSettings("tests.bench.agents_for_tests:copies_the_oracle"), out,
              progress=False)  # fmt: skip
    records = read_episodes(out)
    assert all(r["error"] is None for r in records)
    assert all(r["trajectory"]["steps"][0]["action"] == "no oracle" for r in records)
    assert json.loads((out / "run.json").read_text())["agent"]["sees_oracle"] is False
    # a record that still holds the oracle's moves (or a run.json that says it saw them)
    tampered = _copy(runs["random"], tmp_path / "leaky")
    records = read_episodes(tampered)
    records[0]["trajectory"]["steps"][0]["expert_action"] = "go west"
    _write(tampered, records)
    assert "only the oracle may see" in _reasons(_verify(tampered, runs))
    run = json.loads((runs["random"] / "run.json").read_text())
    run["agent"]["sees_oracle"] = True
    claims = _copy(runs["random"], tmp_path / "claims")
    _write(claims, read_episodes(claims), run)
    assert "must play with the oracle off" in _reasons(_verify(claims, runs))


def _relabel(source: Path, to: Path, agent: str) -> Path:
    run_dir = _copy(source, to)
    run = json.loads((run_dir / "run.json").read_text())
    run["agent"].update(spec=agent, sees_oracle=agent == "oracle", options={})
    records = read_episodes(run_dir)
    for record in records:
        record["agent"] = {"spec": agent}
        for step in record["trajectory"]["steps"]:
            step["expert_action"] = None
    _write(run_dir, records, run)
    return run_dir


@pytest.mark.parametrize(
    ("source", "claimed", "reason"),
    [
        ("oracle", "random", "the agent here chose"),  # the oracle's moves under random's name
        ("random", "oracle", "the agent here chose"),  # a random run sold as the oracle's row
        ("oracle", "openai:some-model", "no recorded prompt and reply"),
    ],
)
def test_a_relabelled_run_is_refused(runs, tmp_path, source, claimed, reason):
    run_dir = _relabel(runs[source], tmp_path / "relabelled", claimed)
    assert reason in _reasons(_verify(run_dir, runs))


def test_a_submission_never_replaces_another_agents_row(runs, tmp_path):
    board = tmp_path / "board"
    assert submit(runs["random"], board, progress=False, suite_file=runs["suite"])[0]
    assert submit(runs["random"], board, progress=False, suite_file=runs["suite"])[0]
    names = sorted(p.name for p in (board / "submissions").iterdir())
    assert names == ["random-short-v1", "random-short-v1.r2"]  # a revision, the first kept
    other = _copy(runs["random"], tmp_path / "other")  # the same spec with other options
    run = json.loads((other / "run.json").read_text())
    run["agent"]["options"] = {"temperature": 0.7}
    (other / "run.json").write_text(json.dumps(run))
    accepted, message = submit(other, board, progress=False, suite_file=runs["suite"])
    assert not accepted and "another agent's" in message and "--tag" in message
    readme = (board / "README.md").read_text()
    assert readme.count("| random [^") == 2  # the newest revision only (one row per table)


def test_no_name_escapes_the_board_folder(runs, tmp_path):
    board, outside = tmp_path / "board", tmp_path / "outside"
    (outside / "keep").mkdir(parents=True)
    run_dir = _copy(runs["random"], tmp_path / "escape")
    run = json.loads((run_dir / "run.json").read_text())
    run["suite"].update(name="../../../outside/keep", file=str(runs["suite"]))
    run["agent"]["spec"] = "../../outside"
    (run_dir / "run.json").write_text(json.dumps(run))
    accepted, message = submit(run_dir, board, progress=False)
    assert not accepted and "is not a published suite" in message
    assert (outside / "keep").is_dir() and not list((outside / "keep").iterdir())
    assert not (board / "submissions").exists() or not list((board / "submissions").iterdir())


def test_a_self_made_suite_cannot_pass_as_published(runs, tmp_path):
    fake = tmp_path / "quick.yaml"
    fake.write_text(SHORT_SUITE.replace("name: short", "name: quick"))
    run_dir = _copy(runs["random"], tmp_path / "fake-quick")
    run = json.loads((run_dir / "run.json").read_text())
    run["suite"]["name"] = "quick"
    (run_dir / "run.json").write_text(json.dumps(run))
    assert "is a published suite" in _reasons(verify_run(run_dir, progress=False, suite_file=fake))
    assert "suite mismatch" in _reasons(verify_run(run_dir, progress=False))
    accepted, message = submit(runs["random"], PUBLISHED_BOARD, suite_file=runs["suite"])
    assert not accepted and "published suites only" in message


def test_symlinked_files_are_refused(runs, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("do not copy me\n")
    run_dir = _copy(runs["random"], tmp_path / "linked")
    (run_dir / "summary.json").unlink()
    (run_dir / "summary.json").symlink_to(runs["random"] / "summary.json")
    assert "symbolic link" in _reasons(_verify(run_dir, runs))
    board = tmp_path / "board"
    board.mkdir()
    (board / "submissions").symlink_to(tmp_path, target_is_directory=True)
    accepted, message = submit(runs["random"], board, progress=False, suite_file=runs["suite"])
    assert not accepted and "symbolic link" in message


def test_errors_cannot_hide_results(runs, tmp_path):
    run_dir = _copy(runs["random"], tmp_path / "errors")
    records = read_episodes(run_dir)
    records[0].update(error="RuntimeError: hidden", trajectory=None, score=0.0, success=False,
                      length=0, invalid_actions=0, complete=False)  # fmt: skip
    _write(run_dir, records)
    assert "1 of 6 episodes are errors, over the suite's limit of 10%" in _reasons(
        _verify(run_dir, runs))  # fmt: skip
    # an error counts as breaking every rule of its env (WebShop's price bound)
    base = {"env_id": "AgentGym/WebShop-v0", "difficulty": "easy", "split": "test",
            "length": 3, "score": 1.0, "success": True}  # fmt: skip
    played = [{**base, "error": None, "rule_violations": {"price_bound": b}}
              for b in (False, False, True)]  # fmt: skip
    (row,) = summarize([*played, {**base, "error": "hidden", "score": 0.0, "success": False}])
    assert row["errors"] == 1 and row["rule_episodes"] == 4
    assert row["rule_violation_rate"] == 0.5 and row["success_rate"] == 0.75


def test_a_run_where_every_episode_errored_exits_non_zero(runs, tmp_path, capsys):
    out = tmp_path / "all-errors"
    argv = ["bench", "run", "--suite", str(runs["suite"]), "--agent",
            "tests.bench.agents_for_tests:raises", "--out", str(out)]  # fmt: skip
    assert main(argv) == 1
    assert "every episode (6) ended in an error" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda text: text + "not json\n", "episodes.jsonl line 7: not valid JSON"),
        (lambda text: text + "[1, 2]\n", "episodes.jsonl line 7: is not a JSON object"),
        (lambda text: text.replace('"score": ', '"scor": ', 1), "record 1: no 'score'"),
        (lambda text: text + "[" * 100_000 + "\n", "line 7: JSON nested too deeply"),
        (lambda text: text.replace('"success": false', '"success": 0', 1), "success is int"),
    ],
)
def test_a_bad_line_rejects_the_run_with_file_and_line(runs, tmp_path, damage, reason):
    run_dir = _copy(runs["random"], tmp_path / "bad")
    path = run_dir / "episodes.jsonl"
    path.write_text(damage(path.read_text()))
    assert reason in _reasons(_verify(run_dir, runs))


def test_bytes_that_are_not_text_or_not_what_their_name_says(runs, tmp_path):
    run_dir = _copy(runs["random"], tmp_path / "bytes")
    path = run_dir / "episodes.jsonl"
    path.write_bytes(gzip.compress(path.read_bytes()))
    assert "is gzip-compressed, which its name does not say" in _reasons(_verify(run_dir, runs))
    path.write_bytes(b"\xff\xfe" + b"x" * 10)
    assert "not UTF-8 text" in _reasons(_verify(run_dir, runs))


def test_one_bad_submission_never_stops_the_board(runs, tmp_path, capsys):
    board = tmp_path / "board"
    assert submit(runs["random"], board, progress=False, suite_file=runs["suite"])[0]
    assert submit(runs["oracle"], board, progress=False, suite_file=runs["suite"])[0]
    edited = board / "submissions" / "oracle-short-v1"
    summary = json.loads((edited / "summary.json").read_text())
    summary["rows"][0]["success_rate"] = 0.01  # edited by hand after the verdict
    (edited / "summary.json").write_text(json.dumps(summary))
    broken = board / "submissions" / "zz-broken"
    broken.mkdir()
    (broken / "verification.json").write_text('{"verified": true}')
    (broken / "episodes.jsonl.gz").write_bytes(gzip.compress(b"{not json\n"))
    with pytest.warns(UserWarning, match="skipping submission"):
        paths = build_site(board)
    skipped = " | ".join(paths["skipped"])
    assert "oracle-short-v1: summary.json differs from the file that was verified" in skipped
    assert "zz-broken:" in skipped
    readme = (board / "README.md").read_text()
    assert "| random [^" in readme and "oracle" not in readme.split("[^1]:")[0]
    assert main(["leaderboard", "build", "--to", str(board)]) == 0
    assert "not shown: oracle-short-v1" in capsys.readouterr().out


def test_committed_submissions_are_not_self_made():
    for verdict in PUBLISHED_BOARD.glob("submissions/*/verification.json"):
        assert json.loads(verdict.read_text()).get("self_made_suite") is not True
