"""The ``openai:`` agent against a real OpenAI-compatible server: llama-cpp-python's server
(from PyPI, the ``test`` extra) serving the SmolLM2-135M-Instruct GGUF the project installs,
started by the test. The run's records must let a person debug it (every prompt and raw reply,
``finish_reason``, token counts, the served model id, the server's own token counts for the
history budget), and the verifier must accept it as *replayed*."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

import pytest
from agentgym_bench.leaderboard import submit
from agentgym_bench.replay import verify_run
from agentgym_bench.suite_runner import RunSettings, read_episodes, run_suite
from agentgym_bench.suites import resolve

pytestmark = pytest.mark.slow
pytest.importorskip("llama_cpp.server", reason="llama-cpp-python[server] (the test extra)")
pytest.importorskip("openai")

MODEL = "smollm2-135m-instruct"
CONTEXT = 2048
SUITE = """\
name: llama-smoke
version: 1
description: two Toy episodes, five steps at most
envs:
  AgentGym/Toy-v0:
    difficulties: [easy]
    splits: [test]
    episodes: 2
    max_steps: 5
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    """llama-cpp-python's server on a free port; its /v1 base URL."""
    from agentgym_train.smollm import SmolLM2Unavailable, gguf_source

    try:
        model = gguf_source()
    except SmolLM2Unavailable as error:
        pytest.skip(str(error))
    port = _free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model),
               "--model_alias", MODEL, "--host", "127.0.0.1", "--port", str(port),
               "--n_ctx", str(CONTEXT), "--n_threads", "1"]  # fmt: skip
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(600):  # loading takes seconds; a loaded CI machine, more
            if process.poll() is not None:
                pytest.fail(f"the llama.cpp server exited: {log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(base + "/models", timeout=2):
                    break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail(f"the llama.cpp server did not answer in 300 s: {log.read_text()[-2000:]}")
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_run_against_a_real_server_can_be_read_back_and_verifies(server, tmp_path):
    suite_file = tmp_path / "llama-smoke.yaml"
    suite_file.write_text(SUITE)
    out = tmp_path / "run"
    options = {"base_url": server, "max_tokens": 48, "context_length": CONTEXT,
               "stop": "\nObservation:", "timeout": 120, "retries": 1}  # fmt: skip
    run_suite(resolve(str(suite_file)), RunSettings(f"openai:{MODEL}", options), out,
              progress=False)  # fmt: skip
    records = read_episodes(out)
    assert len(records) == 2 and all(r["error"] is None for r in records), records[0]["error"]
    agent = records[0]["agent"]
    assert agent["served_models"] == [MODEL] and agent["count_tokens"] == "server"
    steps = [s for r in records for s in r["trajectory"]["steps"]]
    assert steps
    for step in steps:
        llm = step["llm"]
        assert llm["messages"][0]["role"] == "system" and llm["messages"][-1]["role"] == "user"
        assert isinstance(llm["reply"], str) and llm["finish_reason"] in ("stop", "length")
        assert llm["model"] == MODEL and llm["prompt_tokens"] <= CONTEXT - 48
        assert llm["completion_tokens"] <= 48
        assert llm.get("cut_off", False) == (llm["finish_reason"] == "length")
    check = verify_run(out, progress=False, suite_file=suite_file)
    assert check.verified and check.method == "replayed", check.reasons
    accepted, message = submit(out, tmp_path / "board", progress=False, suite_file=suite_file)
    assert accepted, message
    readme = (tmp_path / "board" / "README.md").read_text()
    assert f"openai:{MODEL}" in readme and "| replayed |" in readme
