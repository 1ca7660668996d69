"""Prompt settings and variants in suites: parsing, hashing, the history ablation played by an
OpenAI-compatible agent against a stub server (the prompts it sent, per variant), its report,
replay and board; agents that take no prompts refused on variants."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agentgym_bench.leaderboard import submit
from agentgym_bench.replay import verify_run
from agentgym_bench.site import load_submissions
from agentgym_bench.suite_runner import (
    PromptVariantsRefused,
    RunSettings,
    read_episodes,
    run_suite,
)
from agentgym_bench.suites import SuiteError, resolve

from agentgym_envs.cli import main
from agentgym_envs.wrappers.prompt import PromptFormatter, Turn

TOY = ["AgentGym/Toy-v0"]
LIMITS = {"history-0": 0, "history-1": 1, "history-all": None}
PLAIN = """\
name: plain
version: 1
description: one Toy task
envs:
  AgentGym/Toy-v0:
    difficulties: [easy]
    splits: [test]
    episodes: 1
    max_steps: 4
"""
VARIANTS = """\
variants:
  - name: short
    prompt: {max_history_turns: 1}
  - name: long
    prompt: {max_history_turns: null}
"""


def _suite(tmp_path: Path, text: str) -> str:
    path = tmp_path / "suite.yaml"
    path.write_text(text)
    return str(path)


def test_formatter_keeps_at_most_max_history_turns():
    history = [Turn(f"room {i}", f"Action: go {i}") for i in range(5)]
    for limit, kept in ((0, 0), (1, 1), (3, 3), (None, 5)):
        formatter = PromptFormatter("go X", max_history_turns=limit)
        messages = formatter.messages(history, "room 5")
        assert (len(messages) - 2) // 2 == kept
        if kept:  # the newest turns are kept
            assert messages[-2]["content"] == "Action: go 4"
        if kept < 5:
            note = f"[{5 - kept} earlier turn(s) omitted]"
            assert note in (messages[1]["content"] if kept else messages[-1]["content"])
    tight = PromptFormatter("go X", max_history_tokens=20, max_history_turns=None)
    assert len(tight.messages(history, "room 5")) < 12  # the token budget still applies


def test_variants_multiply_episodes_and_are_hashed(tmp_path):
    plain = resolve(_suite(tmp_path, PLAIN))
    assert [e.variant for e in plain.episodes] == [""] and not plain.variants
    assert "variant" not in plain.episodes[0].fields()  # records and hashes as before variants
    suite = resolve(_suite(tmp_path, PLAIN + VARIANTS))
    assert list(suite.variants) == ["short", "long"]
    assert [e.variant for e in suite.episodes] == ["short", "long"]
    assert [e.key for e in suite.episodes] == [plain.episodes[0].key + "|short",
                                               plain.episodes[0].key + "|long"]  # fmt: skip
    assert suite.prompt_for("AgentGym/Toy-v0", "short") == {"max_history_turns": 1}
    assert suite.hash != plain.hash
    changed = resolve(_suite(tmp_path, PLAIN + VARIANTS.replace("turns: 1}", "turns: 2}")))
    assert changed.hash != suite.hash  # a variant's settings are hashed
    top = resolve(_suite(tmp_path, PLAIN + "prompt: {show_admissible: false}\n" + VARIANTS))
    assert top.hash != suite.hash and top.prompts == {"AgentGym/Toy-v0": {"show_admissible": False}}
    assert top.prompt_for("AgentGym/Toy-v0", "long") == {
        "show_admissible": False, "max_history_turns": None}  # fmt: skip
    assert top.describe()["variants"] == {"short": {"max_history_turns": 1},
                                          "long": {"max_history_turns": None}}  # fmt: skip


@pytest.mark.parametrize(
    "extra, message",
    [
        ("prompt: {history: 3}\n", r"unknown prompt setting 'history'.*max_history_turns"),
        ("prompt: {max_history_turns: -1}\n", r"max_history_turns must be an int >= 0"),
        ("variants: []\n", r"variants is a non-empty list"),
        ("variants:\n  - {name: a b}\n", r"name must be letters"),
        ("variants:\n  - {name: a}\n  - {name: a}\n", r"variant 'a' appears twice"),
        ("variants:\n  - {name: a, prompt: {turns: 1}}\n", r"variants\[0\]: prompt: unknown"),
    ],
)
def test_bad_prompt_settings_and_variants_say_what_to_fix(tmp_path, extra, message):
    with pytest.raises(SuiteError, match=message):
        resolve(_suite(tmp_path, PLAIN + extra))


def test_shipped_history_ablation_suite():
    suite = resolve("ablation-history", env_ids=TOY)
    assert suite.variants == {name: {"max_history_turns": n} for name, n in LIMITS.items()}
    assert len(suite.episodes) == 3 * 6 and len({e.key for e in suite.episodes}) == 18


def _prompt_step(trajectory: dict, k: int) -> str:
    """The observation the agent saw at step ``k``."""
    return trajectory["observation"] if k == 0 else trajectory["steps"][k - 1]["observation"]


def test_history_ablation_plays_each_variant_with_its_history(stub, tmp_path):
    suite = resolve("ablation-history", env_ids=TOY)
    run_dir = tmp_path / "run"
    options = {"base_url": stub.url, "timeout": 5, "retries": 0}
    run_suite(suite, RunSettings("openai:stub-model", options, workers=1), run_dir,
              progress=False)  # fmt: skip
    records = read_episodes(run_dir)  # one worker: in the order the requests came
    assert len(records) == 18 and all(r["error"] is None for r in records), records[0]["error"]
    assert sum(r["length"] for r in records) == len(stub.requests)
    requests = iter(stub.requests)
    longest = 0
    for record in records:
        limit = LIMITS[record["variant"]]
        assert record["prompt"] == {
            "settings": {"max_history_tokens": 4096, "max_history_turns": limit},
            "applied": True,
        }
        assert record["agent"]["prompt"]["max_history_turns"] == limit
        trajectory = record["trajectory"]
        for k in range(record["length"]):
            messages = next(requests)["messages"]
            kept = k if limit is None else min(k, limit)
            assert len(messages) == 2 + 2 * kept, (record["key"], k)
            users = [m["content"] for m in messages if m["role"] == "user"]
            seen = [_prompt_step(trajectory, j) for j in range(k - kept, k + 1)]
            for content, observation in zip(users, seen, strict=True):
                assert f"Observation: {observation}" in content
            if kept < k:
                assert f"[{k - kept} earlier turn(s) omitted]" in users[0]
            longest = max(longest, record["length"])
    assert longest >= 3  # long enough to tell 1 turn from all
    summary = json.loads((run_dir / "summary.json").read_text())
    cells = [(r["difficulty"], r["variant"]) for r in summary["rows"]]
    assert sorted(cells) == sorted((d, v) for d in ("easy", "medium", "hard") for v in LIMITS)
    assert summary["suite"]["variants"] == {n: {"max_history_turns": v} for n, v in LIMITS.items()}
    report = (run_dir / "report.md").read_text()
    assert "| difficulty | split | variant | episodes |" in report
    for variant in LIMITS:
        assert f"| easy | test | {variant} | 2 |" in report
        assert f"variant `{variant}`: max_history_turns=" in report
    check = verify_run(run_dir, progress=False)
    assert check.verified, check.reasons
    assert check.replayed_episodes == 18
    board = tmp_path / "board"
    accepted, message = submit(run_dir, board, progress=False)
    assert accepted, message
    labels = sorted(s.agent for s in load_submissions(board))
    assert labels == sorted(f"openai:stub-model ({v})" for v in LIMITS)
    assert "openai:stub-model (history-1)" in (board / "README.md").read_text()


def test_agents_without_prompts_are_refused_variants_and_told_they_ignore_settings(
    tmp_path, capsys
):
    ablation = resolve("ablation-history", env_ids=TOY)
    with pytest.raises(PromptVariantsRefused, match=r"agent 'random' takes no prompts"):
        run_suite(ablation, RunSettings("random"), tmp_path / "refused", progress=False)
    assert not (tmp_path / "refused").exists()  # refused before anything is written
    argv = ["bench", "run", "--suite", "ablation-history", "--env", TOY[0], "--agent", "oracle",
            "--out", str(tmp_path / "cli")]  # fmt: skip
    assert main(argv) == 2
    assert "takes no prompts" in capsys.readouterr().err
    suite = resolve(_suite(tmp_path, PLAIN + "prompt: {max_history_turns: 1}\n"))
    run_suite(suite, RunSettings("random"), tmp_path / "plain", progress=False)
    (record,) = read_episodes(tmp_path / "plain")
    assert record["prompt"] == {"settings": {"max_history_turns": 1}, "applied": False}
    report = (tmp_path / "plain" / "report.md").read_text()
    assert "random takes no prompts: it played without these settings." in report
    assert verify_run(tmp_path / "plain", progress=False, suite_file=suite.file).verified
