"""``agentgym serve`` with OpenEnv's own client: the same seed and actions give the same
observations and rewards as in-process play on every family; sessions are separate, bounded and
closed; failures are errors, never rewards; tokens and sizes are enforced."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import gymnasium as gym
import httpx
import pytest

pytest.importorskip("uvicorn", reason="needs the serve extra: pip install 'agentgym-suite[serve]'")
pytest.importorskip("websockets", reason="needs the serve extra")
pytest.importorskip("openenv.core", reason="openenv-core is in the test extra")

import websockets
from agentgym_serve.local import ThreadServer
from agentgym_serve.sessions import ServerSettings
from openenv.core import GenericEnvClient

from agentgym_envs.core.remote import TOKEN_VARIABLE, RemoteEnvError, RemoteTextEnv
from agentgym_envs.toy.env import ToyEnv

FAMILIES = [
    ("AgentGym/Toy-v0", {"difficulty": "hard", "split": "test"}, 3),
    ("AgentGym/WebShop-v0", {"difficulty": "easy", "split": "test"}, 1),
    ("AgentGym/ALFWorld-v0", {"difficulty": "easy", "split": "test"}, 0),
    ("AgentGym/MiniWoB-click-test-2-v0", {"split": "test"}, 2),
]


@pytest.fixture
def serve():
    servers = []

    def start(*env_ids: str, **limits) -> ThreadServer:
        servers.append(ThreadServer(ServerSettings(tuple(env_ids), **limits)))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


def _client(server: ThreadServer):
    return GenericEnvClient(base_url=server.url).sync()


@pytest.mark.parametrize(("env_id", "kwargs", "seed"), FAMILIES, ids=lambda v: str(v)[:30])
def test_openenv_client_plays_as_in_process_play_does(serve, env_id, kwargs, seed):
    entry = pytest.importorskip("agentgym_envs.registration").entry_for(env_id)
    if entry.missing():
        pytest.skip(f"{env_id} needs {entry.install_hint()}")
    server = serve(env_id)
    local = gym.make(env_id, **kwargs)
    observation, info = local.reset(seed=seed)
    with _client(server) as client:
        first = client.reset(seed=seed, **kwargs)
        assert first.observation["text"] == observation and first.done is False
        assert first.observation["info"]["task_id"] == info["task_id"]
        assert "expert_action" not in first.observation["info"]  # no oracle unless served so
        done, steps = False, 0
        while not done:
            action = info["expert_action"]
            observation, reward, terminated, truncated, info = local.step(action)
            remote = client.step({"action": action})
            assert remote.observation["text"] == observation
            assert remote.reward == pytest.approx(float(reward))
            assert remote.done == (terminated or truncated)
            assert remote.observation["info"]["score"] == pytest.approx(info["score"])
            done, steps = terminated or truncated, steps + 1
        assert info["success"] and remote.observation["info"]["success"]
        state = client.state()
        assert state["step_count"] == steps and state["done"] and state["env_id"] == env_id
    local.close()


def test_sessions_are_separate_and_closed_with_their_client(serve):
    server = serve("AgentGym/Toy-v0")
    with _client(server) as a, _client(server) as b:
        a.reset(seed=1)
        b.reset(seed=2, difficulty="medium")
        a.step({"action": "look"})
        assert a.state()["step_count"] == 1 and b.state()["step_count"] == 0
        assert b.state()["make_kwargs"] == {"difficulty": "medium"}
        assert len(server.sessions.open) == 2
    deadline = time.monotonic() + 10
    while server.sessions.open and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not server.sessions.open  # closed with their clients, envs closed with them


def test_mistakes_are_errors_that_say_what_to_do(serve):
    server = serve("AgentGym/Toy-v0")
    with _client(server) as client:
        with pytest.raises(RuntimeError, match=r"no episode yet: send a reset first.*SESSION"):
            client.step({"action": "look"})
        with pytest.raises(RuntimeError, match=r"'AgentGym/Toy-v9' is not served.*Toy-v0"):
            client.reset(env_id="AgentGym/Toy-v9")
        client.reset(seed=0)  # a session whose next reset fails keeps no half-made env
        with pytest.raises(RuntimeError, match=r"difficulty='impossible' is not valid"):
            client.reset(difficulty="impossible")
        with pytest.raises(RuntimeError, match=r"takes the make keywords .*difficulty"):
            client.reset(colour="red")
        with pytest.raises(RuntimeError, match=r'a step\'s data is \{"action"'):
            client.step({"text": "look"})
        client.reset(seed=0)  # the session still works after each mistake
        assert client.step({"action": "fly away"}).observation["info"]["action_error"]


def test_capacity_is_a_clear_refusal_and_a_closed_session_frees_its_place(serve):
    server = serve("AgentGym/Toy-v0", max_sessions=1)
    with _client(server) as first:
        first.reset(seed=0)
        closed = websockets.exceptions.ConnectionClosed  # when the close outruns the message
        refused = pytest.raises((RuntimeError, ConnectionError, closed), match="capacity")
        with refused, _client(server) as second:
            second.reset(seed=0)
    deadline = time.monotonic() + 10
    while server.sessions.open and time.monotonic() < deadline:
        time.sleep(0.05)
    with _client(server) as third:
        assert third.reset(seed=0).done is False


class _Hangs(ToyEnv):
    """Toy, except that the action ``hang`` blocks until the env is closed (an env stuck in its
    backend, as a hung browser page is until its page is closed)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.closed = threading.Event()

    def step(self, action):
        if action == "hang":
            self.closed.wait(600)
        return super().step(action)

    def close(self):
        self.closed.set()
        super().close()


def test_a_hung_step_is_an_execution_error_not_a_reward(serve):
    gym.register("AgentGymTest/Hangs-v0", entry_point=_Hangs, max_episode_steps=30,
                 disable_env_checker=True)  # fmt: skip
    try:
        server = serve("AgentGymTest/Hangs-v0", step_timeout=1.0)
        with _client(server) as client:
            client.reset(seed=0)
            with pytest.raises(RuntimeError, match=r"longer than 1 s.*EXECUTION_ERROR"):
                client.step({"action": "hang"})
            with pytest.raises(RuntimeError, match="send a reset"):  # its env was dropped
                client.step({"action": "look"})
            assert client.reset(seed=0).observation["text"]  # a reset makes a fresh one
    finally:
        gym.registry.pop("AgentGymTest/Hangs-v0")


def test_the_oracle_is_served_only_when_asked(serve):
    server = serve("AgentGym/Toy-v0", oracle=True)
    with _client(server) as client:
        assert client.reset(seed=0).observation["info"]["expert_action"]


def test_an_idle_session_is_closed_with_a_message(serve):
    server = serve("AgentGym/Toy-v0", idle_timeout=0.5)

    async def idle() -> dict:
        async with websockets.connect(server.url.replace("http", "ws") + "/ws") as ws:
            await asyncio.sleep(1.5)
            return json.loads(await ws.recv())

    message = asyncio.run(idle())
    assert message["data"]["code"] == "SESSION_ERROR"
    assert "idle for 0.5 s" in message["data"]["message"]


def test_a_token_is_required_when_set_and_bodies_are_bounded(serve, monkeypatch):
    server = serve("AgentGym/Toy-v0", token="s3cret")
    assert httpx.get(server.url + "/health").status_code == 401
    good = {"Authorization": "Bearer s3cret"}
    assert httpx.get(server.url + "/health", headers=good).json()["status"] == "healthy"
    big = httpx.post(server.url + "/reset", content=b"{" + b" " * (2 << 20) + b"}", headers=good)
    assert big.status_code == 413
    first = httpx.post(server.url + "/reset", json={"seed": 0}, headers=good).json()
    assert first["observation"]["text"] and first["done"] is False

    async def ws(headers: dict) -> dict:
        async with websockets.connect(server.url.replace("http", "ws") + "/ws",
                                      additional_headers=headers) as ws:  # fmt: skip
            await ws.send(json.dumps({"type": "reset", "data": {"seed": 0}}))
            return json.loads(await ws.recv())

    with pytest.raises(websockets.exceptions.InvalidStatus, match="HTTP 403"):
        asyncio.run(ws({}))  # the handshake itself is refused
    assert asyncio.run(ws(good))["type"] == "observation"
    with pytest.raises(RemoteEnvError):
        RemoteTextEnv(server.url, "AgentGym/Toy-v0")
    monkeypatch.setenv(TOKEN_VARIABLE, "s3cret")  # what bench, the trainer and TRL tools use
    assert RemoteTextEnv(server.url, "AgentGym/Toy-v0").reset(seed=0)[0]


def test_bad_messages_are_answered_and_the_session_goes_on(serve):
    server = serve("AgentGym/Toy-v0")

    async def talk() -> list[dict]:
        answers = []
        async with websockets.connect(server.url.replace("http", "ws") + "/ws") as ws:
            sent = (
                "not json",
                "[1]",
                b'{"type": "reset"}',
                '{"type": "fly"}',
                '{"type": "reset", "data": 3}',
                '{"type": "reset", "data": {"seed": 0}}',
            )
            for raw in sent:  # a binary frame (bytes) too
                await ws.send(raw)
                answers.append(json.loads(await ws.recv()))
        return answers

    codes = [a["data"].get("code") for a in asyncio.run(talk())]
    assert codes == ["INVALID_JSON"] * 3 + ["UNKNOWN_TYPE", "VALIDATION_ERROR", None]


# ------------------------------------------------------------------------------------------ MCP
def _mcp(server: ThreadServer, calls: list[tuple[str, dict]]) -> list:
    """Each call's result, played by the mcp SDK's own client in one session."""
    from mcp import Client

    async def run() -> list:
        async with Client(server.url + "/mcp") as client:
            listed = await client.list_tools()
            results = [[tool.name for tool in listed.tools]]
            for name, args in calls:
                results.append(await client.call_tool(name, args))
            return results

    return asyncio.run(run())


def test_mcp_tools_play_the_family_actions_as_in_process_play_does(serve):
    pytest.importorskip("mcp", reason="needs the serve extra")
    server = serve("AgentGym/Toy-v0")
    local = gym.make("AgentGym/Toy-v0", difficulty="easy", split="test")
    observation, info = local.reset(seed=4)
    actions = []
    while info["expert_action"]:
        actions.append(info["expert_action"])
        *_, info = local.step(actions[-1])
    calls = [("reset", {"seed": 4, "difficulty": "easy", "split": "test"})]
    calls += [("act", {"action": a}) for a in actions[:-1]]
    verb, _, target = actions[-1].partition(" ")  # the last move through its typed tool
    typed = {
        "go": ("go_to", {"room": target.removeprefix("to ")}),
        "take": ("take", {"object": target}),
        "drop": ("drop", {"object": target}),
        "unlock": ("unlock", {"room": target}),
    }
    calls.append(typed[verb])
    tools, first, *steps = _mcp(server, calls)
    assert {"reset", "act", "go_to", "take", "drop", "unlock", "look", "inventory"} <= set(tools)
    assert first.structured_content["observation"]["text"] == observation
    assert not any(step.is_error for step in steps)
    assert steps[-1].structured_content["done"]
    assert "The episode is over (success" in steps[-1].content[0].text
    local.close()


@pytest.mark.parametrize(("env_id", "kwargs", "seed"), FAMILIES, ids=lambda v: str(v)[:30])
def test_mcp_client_plays_as_in_process_play_does(serve, env_id, kwargs, seed):
    pytest.importorskip("mcp", reason="needs the serve extra")
    from agentgym_envs.registration import entry_for

    if entry_for(env_id).missing():
        pytest.skip(f"{env_id} needs {entry_for(env_id).install_hint()}")
    server = serve(env_id)
    local = gym.make(env_id, **kwargs)
    observation, info = local.reset(seed=seed)
    expected, actions = [observation], []
    while info["expert_action"]:
        actions.append(info["expert_action"])
        observation, reward, terminated, truncated, info = local.step(actions[-1])
        expected.append((observation, float(reward), terminated or truncated))
        if terminated or truncated:
            break
    local.close()
    _, first, *steps = _mcp(server, [("reset", {"seed": seed, **kwargs}),
                                     *(("act", {"action": a}) for a in actions)])  # fmt: skip
    assert first.structured_content["observation"]["text"] == expected[0]
    got = [(s.structured_content["observation"]["text"], s.structured_content["reward"],
            s.structured_content["done"]) for s in steps]  # fmt: skip
    assert got == expected[1:] and steps[-1].structured_content["observation"]["info"]["success"]


def test_mcp_sessions_are_separate_and_errors_are_tool_errors(serve):
    pytest.importorskip("mcp", reason="needs the serve extra")
    server = serve("AgentGym/Toy-v0")
    _, early, bad, first, looked = _mcp(server, [
        ("act", {"action": "look"}), ("take", {}), ("reset", {"seed": 0}),
        ("act", {"action": "look"})])  # fmt: skip
    assert early.is_error and "SESSION_ERROR: no episode yet" in early.content[0].text
    assert bad.is_error and "VALIDATION_ERROR" in bad.content[0].text
    assert not first.is_error and not looked.is_error
    _, again = _mcp(server, [("act", {"action": "look"})])  # a new client: a new session
    assert again.is_error and "no episode yet" in again.content[0].text
    deadline = time.monotonic() + 10
    while server.sessions.open and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not server.sessions.open  # each closed with its client


def test_mcp_serves_miniwob_pointer_tools(serve):
    pytest.importorskip("mcp", reason="needs the serve extra")
    from agentgym_envs.registration import entry_for

    if entry_for("AgentGym/MiniWoB-v0").missing():
        pytest.skip("MiniWoB needs Chromium: scripts/install_miniwob.sh")
    server = serve("AgentGym/MiniWoB-click-test-2-v0")
    tools, first, clicked = _mcp(server, [("reset", {"seed": 0}),
                                          ("click_xy", {"x": 5, "y": 5})])  # fmt: skip
    assert {"drag", "draw", "click_xy", "select_text"} <= set(tools)
    assert not first.is_error and not clicked.is_error


# ------------------------------------------------------------------------------ remote play
def test_a_suite_played_on_a_served_env_keeps_the_records_and_verifies(serve, tmp_path):
    from agentgym_bench.replay import verify_run
    from agentgym_bench.suite_runner import RunSettings, read_episodes, run_suite
    from agentgym_bench.suites import resolve

    from tests.bench.support import TINY_SUITE

    server = serve("AgentGym/Toy-v0")
    suite_file = tmp_path / "suite.yaml"
    suite_file.write_text(TINY_SUITE)
    suite = resolve(str(suite_file))
    run_suite(suite, RunSettings("random"), tmp_path / "here", progress=False)
    run_suite(suite, RunSettings("random", env_url=server.url), tmp_path / "served",
              progress=False)  # fmt: skip

    def played(run_dir):
        return {r["key"]: (r["trajectory"], r["score"], r["error"]) for r in read_episodes(run_dir)}

    assert played(tmp_path / "served") == played(tmp_path / "here")
    assert verify_run(tmp_path / "served", progress=False, suite_file=suite_file).verified
    run = json.loads((tmp_path / "served" / "run.json").read_text())
    assert run["settings"]["env_url"] == server.url


def test_a_remote_env_says_when_the_server_is_not_there_or_not_serving_the_id(serve):
    server = serve("AgentGym/Toy-v0")
    with pytest.raises(RemoteEnvError, match="serves AgentGym/Toy-v0, not AgentGym/WebShop-v0"):
        RemoteTextEnv(server.url, "AgentGym/WebShop-v0")
    env = RemoteTextEnv(server.url, "AgentGym/Toy-v0", difficulty="easy")
    assert env.reset(seed=0)[0] and env.action_help == ToyEnv.action_help
    server.stop()
    with pytest.raises(RemoteEnvError, match="lost the session"):
        env.step("look")  # an infrastructure failure raises: never a reward of 0
    with pytest.raises(RemoteEnvError, match="start one with: agentgym serve"):
        RemoteTextEnv(server.url, "AgentGym/Toy-v0")


@pytest.mark.parametrize("backend", ["sync", "async"])
def test_the_trainer_rollout_envs_can_be_served(serve, backend):
    pytest.importorskip("torch", reason="needs the train extra")
    from agentgym_envs import make_vec
    from agentgym_train.config import RolloutConfig
    from agentgym_train.rollout import make_rollout_envs

    server = serve("AgentGym/Toy-v0")
    rollout = RolloutConfig(env_id="AgentGym/Toy-v0", backend=backend, env_url=server.url)
    served = make_rollout_envs(rollout, {"difficulty": "medium"}, 3)
    local = make_vec("AgentGym/Toy-v0", 3, vectorization_mode="sync", difficulty="medium")
    try:
        assert list(served.reset(seed=[5, 6, 7])[0]) == list(local.reset(seed=[5, 6, 7])[0])
        actions = ["look", "inventory", "go to kitchen"]
        got, want = served.step(actions), local.step(actions)
        assert list(got[0]) == list(want[0]) and list(got[1]) == list(want[1])
    finally:
        served.close()
        local.close()


def test_a_pool_of_servers_shares_the_sessions_and_outlives_one_of_them(serve):
    from agentgym_envs import make_vec

    first, second = serve("AgentGym/Toy-v0"), serve("AgentGym/Toy-v0")
    pool = f"{first.url},{second.url}"
    envs = [RemoteTextEnv(pool, "AgentGym/Toy-v0", difficulty="easy") for _ in range(4)]
    local = make_vec("AgentGym/Toy-v0", 4, vectorization_mode="sync", difficulty="easy")
    seeds = [0, 1, 2, 3]
    served = [env.reset(seed=seed)[0] for env, seed in zip(envs, seeds, strict=True)]
    assert served == list(local.reset(seed=seeds)[0])
    assert len(first.sessions.open) == len(second.sessions.open) == 2  # each on the least busy
    first.stop()
    for env in envs:  # a session on the stopped server is lost; the next reset finds the other
        if env.http_url == first.url:
            with pytest.raises(RemoteEnvError, match="lost the session"):
                env.step("look")
        assert env.reset(seed=9)[0] and env.http_url == second.url
        env.close()
    local.close()
    late = RemoteTextEnv(pool, "AgentGym/Toy-v0")  # made while the pool's first server is down
    assert late.reset(seed=0)[0] and late.http_url == second.url
    late.close()


KILLED_MCP_CLIENT = """
import asyncio, sys
from mcp import Client

async def main():
    async with Client(sys.argv[1]) as client:
        await client.call_tool("reset", {"seed": 0})
        print("ready", flush=True)
        await asyncio.sleep(600)

asyncio.run(main())
"""


def test_a_killed_mcp_client_leaves_no_session_behind(serve):
    pytest.importorskip("mcp", reason="needs the serve extra")
    import subprocess
    import sys

    server = serve("AgentGym/Toy-v0", idle_timeout=1.0)
    client = subprocess.Popen([sys.executable, "-c", KILLED_MCP_CLIENT, server.url + "/mcp"],
                              stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert client.stdout is not None and client.stdout.readline().strip() == "ready"
        assert len(server.sessions.open) == 1
    finally:
        client.kill()
        client.wait(30)
    deadline = time.monotonic() + 30  # HTTP has no connection to lose: the idle timeout ends it
    while server.sessions.open and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not server.sessions.open


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["AgentGym/Tyo-v0"], "unknown env id 'AgentGym/Tyo-v0'; did you mean AgentGym/Toy-v0?"),
        (["AgentGym/Toy-v0", "--max-sessions", "0"], "--max-sessions must be at least 1"),
        (["AgentGym/Toy-v0", "--token-env", "AGENTGYM_NO_SUCH_VAR"], "that variable is not set"),
    ],
)
def test_serve_mistakes_are_one_line_errors_before_serving(capsys, monkeypatch, argv, message):
    from agentgym_envs.cli import main

    monkeypatch.delenv("AGENTGYM_NO_SUCH_VAR", raising=False)
    assert main(["serve", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("agentgym: error: ") and message in err and err.count("\n") == 1
