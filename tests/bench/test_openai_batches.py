"""``openai:`` agents in batched play (``--batch-size B``): each turn's requests go out at once
(the stub server counts how many it holds), each episode keeps its own history and its own
agent's prompt settings, the records are those of one-at-a-time play, and a failed request ends
only its own episode."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest
from agentgym_bench.llm_agents import AgentError, OpenAIChatAgent, make_llm_agent
from agentgym_bench.lockstep import can_batch
from agentgym_bench.replay import verify_run
from agentgym_bench.suite_runner import RunSettings, read_episodes, run_suite
from agentgym_bench.suites import EpisodeSpec, Resolved, resolve

import agentgym_envs  # noqa: F401  (registers the envs)
from agentgym_envs.core.episode import play_episode
from tests.bench.support import Stub, same

pytest.importorskip("openai")

AGENT = "openai:stub-model"
TOY = "AgentGym/Toy-v0"
#: easy Toy episodes end at the first room entered, medium ones run to the step limit under the
#: stub's first-admissible answers, so the prompt variants' history limits show
SUITE = """\
name: openai-batches
version: 1
description: easy and medium Toy, two lists, two tasks each, two history variants
envs:
  AgentGym/Toy-v0:
    difficulties: [easy, medium]
    splits: [test, ood]
    episodes: 2
    max_steps: 4
variants:
  - name: all-turns
    prompt: {max_history_turns: null}
  - name: last-turn
    prompt: {max_history_turns: 1}
"""


@pytest.fixture
def suite(tmp_path: Path) -> Resolved:
    path = tmp_path / "suite.yaml"
    path.write_text(SUITE)
    return resolve(str(path))


def _run(suite: Resolved, stub: Stub, out: Path, size: int, **options: Any) -> list[dict]:
    """``suite`` played by one worker with batches of ``size`` against ``stub``."""
    options = {"base_url": stub.url, "timeout": 10, "retries": 0, **options}
    settings = RunSettings(AGENT, options, workers=1, batch_size=size)
    run_suite(suite, settings, out, progress=False)
    assert json.loads((out / "run.json").read_text())["settings"].get("batch_size", 1) == size
    return read_episodes(out)


def _bodies(stub: Stub) -> list[str]:
    """The requests the stub received, in a canonical order (concurrent ones arrive in any)."""
    return sorted(json.dumps(body, sort_keys=True) for body in stub.requests)


def test_a_batch_sends_its_requests_at_once_and_plays_as_one_at_a_time(stub, suite, tmp_path):
    runs, bodies, most = {}, {}, {}
    for size, delay in ((1, 0.02), (4, 0.3)):  # the delay keeps a turn's requests in flight
        stub.requests.clear()
        stub.delay, stub.max_in_flight = delay, 0
        runs[size] = _run(suite, stub, tmp_path / f"batch-{size}", size)
        bodies[size], most[size] = _bodies(stub), stub.max_in_flight
    assert most == {1: 1, 4: 4}  # up to the batch size in flight at once, never more
    assert same(runs[4]) == same(runs[1])  # actions, observations, scores, trajectories
    assert len(runs[4]) == 16 and all(r["error"] is None for r in runs[4])
    assert bodies[4] == bodies[1]  # the very prompts: each episode's history, its variant's limit
    assert sum(r["length"] for r in runs[4]) == len(bodies[4])
    longest = max(len(json.loads(b)["messages"]) for b in bodies[4])
    assert longest == 2 + 2 * 3  # the all-turns variant's fourth turn; last-turn keeps one
    assert all(r["agent"]["prompt"]["max_history_turns"] == {"all-turns": None, "last-turn": 1}[
        r["variant"]] for r in runs[4])  # fmt: skip
    assert verify_run(tmp_path / "batch-4", progress=False, suite_file=suite.file).verified


def _first_line(spec: EpisodeSpec) -> str:
    """The task line of ``spec``'s first observation (only that observation has it)."""
    env = gym.make(spec.env_id, difficulty=spec.difficulty, split=spec.split)
    try:
        observation, _ = env.reset(seed=spec.seed, options={"task_id": spec.task_id})
    finally:
        env.close()
    return observation.splitlines()[0]


def _turn_of(line: str, turn: int) -> Callable[[dict[str, Any]], bool]:
    """Picks the request of the ``turn``-th turn (0: the first) of the episode whose first
    observation starts with ``line`` (both variants keep turn 0 in the prompt of turn 1)."""

    def picks(body: dict[str, Any]) -> bool:
        users = [m["content"] for m in body["messages"] if m["role"] == "user"]
        return len(body["messages"]) == 2 + 2 * turn and line in users[0]

    return picks


def test_a_failed_request_ends_only_its_own_episode(stub, suite, tmp_path):
    specs = {(s.difficulty, s.split, s.seed): s for s in suite.episodes}  # a variant's spec
    lines = {spec.key: _first_line(spec) for spec in suite.episodes}
    assert len(set(lines.values())) == 8  # each task's line picks only its own episodes
    server_error = _first_line(specs["medium", "test", 1])  # at its second turn
    malformed = _first_line(specs["medium", "ood", 0])  # at its first turn
    stub.rules = [(_turn_of(server_error, 1), ("status", 500)),
                  (_turn_of(malformed, 0), "malformed")]  # fmt: skip
    runs = {size: _run(suite, stub, tmp_path / f"batch-{size}", size, retries=1)
            for size in (1, 4)}  # fmt: skip
    assert same(runs[4]) == same(runs[1])  # the reasons word for word
    failed = {(r["difficulty"], r["split"], r["seed"], r["variant"]): r["error"]
              for r in runs[4] if r["error"]}  # fmt: skip
    variants = ("all-turns", "last-turn")
    assert sorted(failed) == sorted([("medium", "test", 1, v) for v in variants]
                                    + [("medium", "ood", 0, v) for v in variants])  # fmt: skip
    reasons = {"test": f"AgentError: HTTP 500 from {stub.url} after 1 retries: server exploded",
               "ood": f"AgentError: malformed reply from {stub.url}"}  # fmt: skip
    for (_, split, _, _), error in failed.items():
        assert error.startswith(reasons[split]), error
    assert all(r["trajectory"] is None for r in runs[4] if r["error"])
    finished = [r for r in runs[4] if not r["error"]]
    assert len(finished) == 12 and all(r["trajectory"]["steps"] for r in finished)


def _agent(stub: Stub, split: str, **options: Any) -> OpenAIChatAgent:
    env = gym.make(TOY, difficulty="medium", split=split)
    agent = make_llm_agent(AGENT, env, base_url=stub.url, timeout=10, retries=0, **options)
    env.close()
    assert isinstance(agent, OpenAIChatAgent)
    return agent


def test_act_batch_sends_what_act_sends_per_slot(stub):
    """Three slots of two agents (splits, history limits) that share a batch: one call sends
    the three requests at once, each built from its slot's own history and agent; a slot whose
    request fails gets the ``AgentError`` in place of its action and remembers no turn."""
    test, ood = _agent(stub, "test"), _agent(stub, "ood")
    ood.formatter.max_history_turns = 0
    assert can_batch(test) and test.batch_with == ood.batch_with
    assert _agent(stub, "test", temperature=0.5).batch_with != test.batch_with
    plays = [(test, "test", 0), (ood, "ood", 0), (test, "test", 1)]  # slots 0, 1, 2
    envs = [gym.make(TOY, difficulty="medium", split=split) for _, split, _ in plays]
    now = [env.reset(seed=seed) for env, (_, _, seed) in zip(envs, plays, strict=True)]
    for slot, (agent, _, seed) in enumerate(plays):
        agent.start_slot(slot, seed)

    def turn() -> list[str | Exception]:
        actions = ood.act_batch([0, 1, 2], [o for o, _ in now], [i for _, i in now])
        for slot, action in enumerate(actions):
            if isinstance(action, str):
                observation, _, _, _, info = envs[slot].step(action)
                now[slot] = (observation, info)
        return actions

    stub.delay = 0.25  # the three requests of a call overlap
    for _ in range(2):
        assert all(isinstance(action, str) for action in turn())
    assert stub.max_in_flight == 3
    batched = _bodies(stub)
    histories = [agent.slot_history(slot) for slot, (agent, _, _) in enumerate(plays)]
    assert [len(history) for history in histories] == [2, 2, 2]

    # the same episodes one at a time through ``act``: the same requests
    stub.requests.clear()
    stub.delay = 0.0
    for agent, split, seed in plays:
        solo = _agent(stub, split)
        solo.formatter.max_history_turns = agent.formatter.max_history_turns
        play_episode(gym.make(TOY, difficulty="medium", split=split), solo, seed, max_steps=2)
    assert _bodies(stub) == batched

    # slot 1's request (the only one without history) fails: only slot 1 gets no action
    stub.rules = [(lambda body: len(body["messages"]) == 2, ("status", 400))]
    actions = turn()
    assert isinstance(actions[1], AgentError)
    assert str(actions[1]) == f"HTTP 400 from {stub.url}: server exploded"
    assert isinstance(actions[0], str) and isinstance(actions[2], str)
    assert [len(history) for history in histories] == [3, 2, 3]
    for slot, (agent, _, _) in enumerate(plays):
        agent.end_slot(slot)
        with pytest.raises(KeyError):
            agent.slot_history(slot)
