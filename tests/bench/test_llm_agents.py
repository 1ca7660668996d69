"""The OpenAI-compatible LLM agent against a scripted stub server on 127.0.0.1."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import gymnasium as gym
import pytest
from agentgym_bench.llm_agents import (
    AgentError,
    ChatAgent,
    OpenAIChatAgent,
    make_llm_agent,
    public_url,
)

import agentgym_envs  # noqa: F401  (registers the envs)
from agentgym_envs.core.episode import play_episode
from agentgym_envs.wrappers.prompt import PromptFormatter
from tests.bench.support import Stub, first_admissible

pytest.importorskip("openai")

SECRET = "sk-test-secret-123"


@pytest.fixture
def env() -> Iterator[gym.Env]:
    env = gym.make("AgentGym/Toy-v0", difficulty="easy", split="test")
    yield env
    env.close()


def agent_for(stub: Stub, env: gym.Env, **options: Any) -> OpenAIChatAgent:
    options = {"base_url": stub.url, "timeout": 10, "retries": 1, "api_key": SECRET, **options}
    agent = make_llm_agent("openai:stub-model", env, **options)
    assert isinstance(agent, OpenAIChatAgent)
    return agent


def test_plays_a_whole_episode(stub: Stub, env: gym.Env) -> None:
    agent = agent_for(stub, env)
    trajectory = play_episode(env, agent, seed=0, max_steps=30)
    assert trajectory.complete
    assert trajectory.length == len(stub.requests) >= 1
    assert [s["action"] for s in trajectory.steps] == [first_admissible(r) for r in stub.requests]
    assert trajectory.invalid_actions == 0
    assert trajectory.success  # seed 0: the first admissible action reaches the goal


def test_request_carries_model_decoding_and_prompt(stub: Stub, env: gym.Env) -> None:
    agent = agent_for(stub, env, temperature=0.25, max_tokens=77, seed=5)
    observation, info = env.reset(seed=0)
    agent.reset(0)
    agent.act(observation, info)
    (body,) = stub.requests
    assert body["model"] == "stub-model"
    assert body["temperature"] == 0.25
    assert body["max_tokens"] == 77
    assert body["seed"] == 5
    expected = PromptFormatter(action_help=env.unwrapped.action_help).messages(
        [], observation, info["admissible_actions"]
    )
    assert body["messages"] == expected
    assert body["messages"][0]["role"] == "system"
    assert env.unwrapped.action_help in body["messages"][0]["content"]
    assert stub.authorization == [f"Bearer {SECRET}"]


def test_seed_omitted_when_none(stub: Stub, env: gym.Env) -> None:
    agent = agent_for(stub, env)
    observation, info = env.reset(seed=0)
    agent.act(observation, info)
    assert "seed" not in stub.requests[0]


def test_history_and_unparsable_reply(stub: Stub, env: gym.Env) -> None:
    """A reply without an action is sent raw (the env calls it invalid) and kept in the history;
    ``reset`` forgets the history."""
    stub.script = [("reply", "Thought: I am not sure yet.")]
    agent = agent_for(stub, env)
    trajectory = play_episode(env, agent, seed=0, max_steps=30)
    assert trajectory.steps[0]["action"] == "Thought: I am not sure yet."
    assert trajectory.steps[0]["action_error"] is not None
    assert trajectory.complete and trajectory.success
    second = stub.requests[1]["messages"]
    assert [m["role"] for m in second] == ["system", "user", "assistant", "user"]
    assert second[2]["content"] == "Thought: I am not sure yet."
    agent.reset(1)
    assert agent.history == []


@pytest.mark.parametrize(
    ("behaviour", "reason"),
    [
        (("delay", 60.0), "timed out after 1 retries"),
        (("status", 500), "HTTP 500 from {url} after 1 retries"),
        ("malformed", "malformed reply"),
        ("no_choices", "malformed reply: no choices"),
        ("null_content", "malformed reply: content is null"),
        (("reply", "   "), "empty reply"),
        (("status", 400), "HTTP 400 from {url}: server exploded"),
    ],
    ids=["timeout", "http500", "malformed-json", "no-choices", "null-content", "empty", "http400"],
)
def test_failures_raise_agent_error(stub: Stub, env: gym.Env, behaviour: Any, reason: str) -> None:
    stub.default = behaviour
    # Only the timeout case times out soon: a loaded machine may take a while to answer the rest.
    agent = agent_for(stub, env, **({"timeout": 0.5} if behaviour == ("delay", 60.0) else {}))
    observation, info = env.reset(seed=0)
    start = time.monotonic()
    with pytest.raises(AgentError) as caught:
        agent.act(observation, info)
    assert time.monotonic() - start < 30.0  # the client gave up: it did not wait out a reply
    message = str(caught.value)
    assert reason.format(url=stub.url) in message
    assert "\n" not in message
    assert SECRET not in message
    assert agent.history == []  # a failed turn is not remembered


def test_one_500_then_success_recovers(stub: Stub, env: gym.Env) -> None:
    stub.script = [("status", 500)]
    agent = agent_for(stub, env)
    observation, info = env.reset(seed=0)
    assert agent.act(observation, info) == info["admissible_actions"][0]
    assert len(stub.requests) == 2  # the client retried once


def test_describe_has_no_secret(stub: Stub, env: gym.Env) -> None:
    url = stub.url.replace("http://", "http://user:pw@") + "?api-key=abc"
    agent = agent_for(stub, env, base_url=url, temperature=0.5, max_tokens=64, seed=3)
    description = agent.describe()
    json.dumps(description)  # JSON-able
    assert description["class"] == "OpenAIChatAgent"
    assert description["model"] == "stub-model"
    assert description["base_url"] == stub.url
    assert (description["temperature"], description["max_tokens"], description["seed"]) == (
        0.5,
        64,
        3,
    )
    assert description["prompt"]["max_history_tokens"] == 2048
    text = json.dumps(description)
    for secret in (SECRET, "pw", "abc"):
        assert secret not in text


def test_base_url_from_env_or_clear_error(monkeypatch: pytest.MonkeyPatch, env: gym.Env) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ValueError, match=r"--base-url.*OPENAI_BASE_URL"):
        make_llm_agent("openai:m", env)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    assert make_llm_agent("openai:m", env).describe()["base_url"] == "http://127.0.0.1:9/v1"


def test_unknown_backend(env: gym.Env) -> None:
    for spec in ("nope:x", "gpt-4o"):
        with pytest.raises(ValueError, match="openai"):
            make_llm_agent(spec, env)


def test_public_url() -> None:
    assert public_url("https://u:p@host.example:8443/v1?key=1#f") == "https://host.example:8443/v1"
    assert public_url("http://[::1]:8000/v1") == "http://[::1]:8000/v1"


def test_chat_agent_subclass_needs_only_complete() -> None:
    class Echo(ChatAgent):
        def complete(self, messages: list[dict[str, str]]) -> str:
            return "Action: look"

    agent = Echo(action_help="look", formatter_kwargs={"reasoning": False})
    assert agent.act("You are here.", {"admissible_actions": ["look"]}) == "look"
    assert agent.describe()["prompt"]["reasoning"] is False
    assert agent.describe()["class"] == "Echo"
