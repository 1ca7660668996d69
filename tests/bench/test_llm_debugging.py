"""LLM runs a user can debug and trust in their settings: every step keeps the prompt and the
raw reply (what the verifier audits for an endpoint it cannot re-run), options are checked
before a file is written, secrets never reach disk, and the prompt fits the server's context."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from agentgym_bench.llm_agents import prompt_digest
from agentgym_bench.replay import verify_run
from agentgym_bench.stats import summarize
from agentgym_bench.suite_runner import RunMismatch, RunSettings, read_episodes, run_suite
from agentgym_bench.suites import resolve

from agentgym_envs.cli import main
from agentgym_envs.wrappers.prompt import CHAT_TOKENS_PER_MESSAGE, CHAT_TOKENS_PER_PROMPT
from tests.bench.support import Stub, words

pytest.importorskip("openai")

SECRET = "sk-never-on-disk-42"


def _play(stub: Stub, suite_file: Path, out: Path, **options: Any) -> list[dict[str, Any]]:
    options = {"base_url": stub.url, "timeout": 10, "retries": 0, **options}
    run_suite(resolve(str(suite_file)), RunSettings("openai:stub-model", options), out,
              progress=False)  # fmt: skip
    return read_episodes(out)


def _rewrite(run_dir: Path, records: list[dict[str, Any]]) -> None:
    (run_dir / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    summary = json.loads((run_dir / "summary.json").read_text())
    summary["rows"] = summarize(records)
    (run_dir / "summary.json").write_text(json.dumps(summary))


def test_every_step_keeps_its_prompt_and_raw_reply_and_the_verifier_reads_them(
    stub, suite_file, tmp_path
):
    records = _play(stub, suite_file, tmp_path / "run")
    steps = [s for r in records for s in r["trajectory"]["steps"]]
    assert len(steps) == len(stub.requests)
    sent = {json.dumps(body["messages"]) for body in stub.requests}
    for step in steps:
        llm = step["llm"]
        assert json.dumps(llm["messages"]) in sent  # the very prompt sent
        assert llm["reply"].startswith("Thought: the first one looks fine.\nAction: ")
        assert llm["reply"].endswith(step["action"])
        assert (llm["finish_reason"], llm["prompt_tokens"], llm["completion_tokens"],
                llm["model"]) == ("stop", 11, 7, "stub-model")  # fmt: skip
        assert "cut_off" not in llm
    run = json.loads((tmp_path / "run" / "run.json").read_text())
    assert records[0]["agent"]["served_models"] == ["stub-model"]  # GET /v1/models
    assert run["agent"]["sees_oracle"] is False
    check = verify_run(tmp_path / "run", progress=False, suite_file=suite_file)
    assert check.verified and check.method == "replayed", check.reasons
    # a reply edited to make the action look chosen, and a prompt that never showed the page
    edited = [json.loads(json.dumps(r)) for r in records]
    edited[0]["trajectory"]["steps"][0]["llm"]["reply"] = "Action: something else"
    _rewrite(tmp_path / "run", edited)
    reasons = verify_run(tmp_path / "run", progress=False, suite_file=suite_file).reasons
    assert any("is not what the recorded reply parses to" in r for r in reasons), reasons
    edited = [json.loads(json.dumps(r)) for r in records]
    edited[1]["trajectory"]["steps"][0]["llm"]["messages"][-1]["content"] = "Observation: x"
    _rewrite(tmp_path / "run", edited)
    reasons = verify_run(tmp_path / "run", progress=False, suite_file=suite_file).reasons
    assert any("does not show the observation it answered" in r for r in reasons), reasons


def test_a_prompt_can_be_kept_as_its_hash(stub, suite_file, tmp_path):
    records = _play(stub, suite_file, tmp_path / "run", record_prompt="hash")
    digests = {prompt_digest(body["messages"]) for body in stub.requests}
    for step in (s for r in records for s in r["trajectory"]["steps"]):
        assert "messages" not in step["llm"] and step["llm"]["messages_sha256"] in digests
        assert step["llm"]["last_message"]["role"] == "user"
    assert verify_run(tmp_path / "run", progress=False, suite_file=suite_file).verified


def test_a_reply_cut_at_max_tokens_is_flagged(stub, suite_file, tmp_path):
    stub.default = ("cut_off", "Thought: I will first look around the")
    records = _play(stub, suite_file, tmp_path / "run", max_tokens=8)
    llm = records[0]["trajectory"]["steps"][0]["llm"]
    assert llm["finish_reason"] == "length" and llm["cut_off"] is True


def test_stop_sequences_reach_the_server(stub, suite_file, tmp_path):
    _play(stub, suite_file, tmp_path / "one", stop="\nObservation:")
    assert all(body["stop"] == ["\nObservation:"] for body in stub.requests)
    stub.requests.clear()
    _play(stub, suite_file, tmp_path / "none")
    assert all("stop" not in body for body in stub.requests)


def test_prompts_fit_the_context_counted_by_the_servers_tokenizer(stub, suite_file, tmp_path):
    stub.tokenize = True
    stub.default = ("reply", "Thought: " + "let me think this through once more " * 8 + "\n"
                    "Action: look")  # long replies, a long history  # fmt: skip
    records = _play(stub, suite_file, tmp_path / "run", context_length=260, max_tokens=60,
                    formatter_kwargs={"max_history_tokens": 10_000})  # fmt: skip
    assert records[0]["agent"]["count_tokens"] == "server" and stub.tokenized
    sizes = [sum(words(m["content"]) + CHAT_TOKENS_PER_MESSAGE for m in body["messages"])
             + CHAT_TOKENS_PER_PROMPT for body in stub.requests]  # fmt: skip
    assert max(sizes) <= 260 - 60
    assert any("earlier turn(s) omitted" in b["messages"][1]["content"] for b in stub.requests)


def test_a_wrong_option_fails_in_one_line_before_any_file(stub, suite_file, tmp_path, capsys):
    out = tmp_path / "run"
    argv = ["bench", "run", "--suite", str(suite_file), "--agent", "openai:stub-model",
            "--agent-option", f"base_url={stub.url}", "--agent-option", "temprature=0.2",
            "--out", str(out)]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "takes no option 'temprature'" in err[0]
    assert "temperature" in err[0] and "stop" in err[0]  # the valid ones are named
    assert not out.exists() and not stub.requests
    argv = ["bench", "run", "--suite", str(suite_file), "--agent", "random", "--agent-option",
            "seed=1", "--out", str(out)]  # fmt: skip
    assert main(argv) == 2
    assert "takes no option 'seed'; its options: none" in capsys.readouterr().err


def test_secrets_never_reach_disk(stub, suite_file, tmp_path):
    url = stub.url.replace("http://", f"http://user:{SECRET}-pw@")
    _play(stub, suite_file, tmp_path / "run", base_url=url, api_key=SECRET)
    assert stub.requests  # it played, with the secret in use
    for path in (tmp_path / "run").iterdir():
        assert SECRET not in path.read_text(), path.name
    options = json.loads((tmp_path / "run" / "run.json").read_text())["agent"]["options"]
    assert "api_key" not in options and options["base_url"] == stub.url


def test_resuming_with_other_options_is_refused_unless_allowed(stub, suite_file, tmp_path):
    out = tmp_path / "run"
    _play(stub, suite_file, out, temperature=0.0)
    with open(out / "episodes.jsonl") as handle:
        kept = handle.readlines()[:2]
    (out / "episodes.jsonl").write_text("".join(kept))  # as if stopped after two episodes
    with pytest.raises(RunMismatch, match="--allow-changed-options"):
        _play(stub, suite_file, out, temperature=0.7)
    settings = RunSettings("openai:stub-model", {"base_url": stub.url, "temperature": 0.7,
                                                 "timeout": 10, "retries": 0})  # fmt: skip
    run_suite(resolve(str(suite_file)), settings, out, progress=False, changed_options=True)
    agent = json.loads((out / "run.json").read_text())["agent"]
    assert agent["options"]["temperature"] == 0.7
    assert agent["earlier_options"][0]["temperature"] == 0.0
    assert len(read_episodes(out)) == 6
