"""Soak of ``agentgym serve`` in a process of its own: 32 concurrent sessions × 1,000 steps on
Toy and WebShop and 8 × 200 on MiniWoB, each session playing seeded random admissible actions
and resetting when an episode ends; the same through MCP clients; then clients killed
(``SIGKILL``) mid-episode, and clients frozen (``SIGSTOP``: half-open connections that never
close) until the idle timeout ends their sessions. Afterwards the
server holds no session and its RSS, open file descriptors, threads and Chromium processes are
flat against a warm baseline, taken after one warm-up round (so the caches, the allocator's
arenas, the catalog and the session threads' first use are in it)."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="needs the serve extra: pip install 'agentgym-suite[serve]'")
pytest.importorskip("websockets", reason="needs the serve extra")
pytest.importorskip("psutil")

import httpx
import psutil
import websockets
from agentgym_serve.local import ProcessServer

from agentgym_envs.registration import entry_for

pytestmark = pytest.mark.slow

MB = 1 << 20
#: fds a settled server may hold over its warm baseline: uvicorn's listening and accepted sockets
#: close with their clients, so what is left is an in-flight /health probe or a lazily opened
#: file (a log, a cache page); a leak of one fd per session would show as 32 or more.
FD_MARGIN = 16
#: threads over the warm baseline: each session owns one thread, which ends with its session;
#: a leak shows as one per session (32 or more).
THREAD_MARGIN = 8


def _rss_bound(baseline: int) -> int:
    """The RSS a settled server may reach after a soak: its warm baseline + max(30 %, 200 MB).

    Why this bound: the warm-up round has already made the allocations a soak repeats (each
    session's env and thread, glibc's per-thread malloc arenas, WebShop's caches, the browser),
    so a settled server measured -2 to +5 MB over it after the soaks here, and +50 MB after the
    killed clients (whose warm-up is short); freed memory is not always given back to the OS
    (glibc keeps freed arena pages, Python its pools), so the bound leaves room for that. A leak
    of 10 kB a step would be 320 MB over the 32,000 steps of a soak and fail it.
    """
    return baseline + max(int(0.3 * baseline), 200 * MB)


class ServeProcess:
    """``agentgym serve ENV_ID`` as a process of its own (``local.ProcessServer``), its log kept,
    and its figures."""

    def __init__(self, env_id: str, *args: str) -> None:
        self.log = tempfile.TemporaryFile("w+")  # noqa: SIM115  (closed in stop)
        self.server = ProcessServer((env_id,), "--max-sessions", "64", *args, log=self.log)
        self.url, self.popen = self.server.url, self.server.popen
        self.ws_url = f"ws://127.0.0.1:{self.server.port}/ws"
        self.process = psutil.Process(self.popen.pid)

    def output(self, tail: int = 4000) -> str:
        """The server's log (its last ``tail`` characters)."""
        self.log.flush()
        self.log.seek(0)
        return self.log.read()[-tail:]

    def assert_quiet(self) -> None:
        """Nothing the server could not answer: no traceback in its log (uvicorn prints one for
        an exception that escapes a connection's handler)."""
        log = self.output(tail=1 << 30)
        assert "Traceback" not in log and "ERROR" not in log, log[-4000:]

    def sessions(self) -> int:
        return httpx.get(self.url + "/health", timeout=30).json()["sessions"]

    def figures(self) -> dict[str, int]:
        """The server's open sessions, RSS, fds, threads, Chromium processes and all live
        descendant processes (a zombie counts among ``zombies``, not the live ones)."""
        chromium = live = zombies = 0
        for child in self.process.children(recursive=True):
            try:
                if child.status() == psutil.STATUS_ZOMBIE:
                    zombies += 1
                    continue
                live += 1
                name = (child.name() + " " + " ".join(child.cmdline())).lower()
            except (psutil.NoSuchProcess, psutil.ZombieProcess, psutil.AccessDenied):
                continue
            chromium += "chrom" in name
        return {
            "sessions": self.sessions(),
            "rss_mb": round(self.process.memory_info().rss / MB),
            "fds": self.process.num_fds(),
            "threads": self.process.num_threads(),
            "chromium": chromium,
            "children": live,
            "zombies": zombies,
        }

    def settled(self, baseline: dict[str, int], timeout: float = 60.0) -> dict[str, int]:
        """The figures once no session is open and fds, threads and processes are back within
        their margins of ``baseline`` (closes run on the sessions' threads after the socket
        closes, and Chromium exits after its last page), or the last figures after
        ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            now = self.figures()
            flat = (
                now["sessions"] == 0
                and now["fds"] <= baseline["fds"] + FD_MARGIN
                and now["threads"] <= baseline["threads"] + THREAD_MARGIN
                and now["chromium"] <= baseline["chromium"]
                and now["children"] <= baseline["children"]
                and now["zombies"] <= baseline["zombies"]
            )
            if flat or time.monotonic() > deadline:
                return now
            time.sleep(0.5)

    def idle(self, timeout: float = 60.0) -> dict[str, int]:
        """The figures once no session is open and the counts stop moving (the warm baseline)."""
        deadline, last = time.monotonic() + timeout, None
        while True:
            now = self.figures()
            keys = ("sessions", "fds", "threads", "chromium", "children")
            if now["sessions"] == 0 and last and all(now[k] == last[k] for k in keys):
                return now
            assert time.monotonic() < deadline, f"never idle: {now}\n{self.output()}"
            last = now
            time.sleep(1.0)

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.server.stop()
        self.log.close()


@pytest.fixture
def serve():
    servers: list[ServeProcess] = []

    def start(env_id: str, *args: str) -> ServeProcess:
        entry = entry_for(env_id)
        if entry.missing():
            pytest.skip(f"{env_id} needs {entry.install_hint()}")
        servers.append(ServeProcess(env_id, *args))
        return servers[-1]

    yield start
    for server in servers:  # always, whatever the test did
        server.stop()


# ----------------------------------------------------------------------------------- clients
@dataclass
class Tally:
    steps: int = 0
    episodes: int = 0
    errors: list[Any] = field(default_factory=list)


async def _play_randomly(reset_with, step_with, index: int, steps: int, reset: dict,
                         tally: Tally) -> None:  # fmt: skip
    """One client's episodes over its protocol (``reset_with(data)``, ``step_with(action)``):
    reset, then ``steps`` seeded random admissible actions, resetting when an episode ends."""
    rng = random.Random(index)
    seeds = iter(range(index * 100_000, (index + 1) * 100_000))
    data = await reset_with({"seed": next(seeds), **reset})
    tally.episodes += 1
    for _ in range(steps):
        if data["done"]:
            data = await reset_with({"seed": next(seeds), **reset})
            tally.episodes += 1
        action = rng.choice(data["observation"]["info"]["admissible_actions"])
        data = await step_with(action)
        tally.steps += 1


async def _session(server: ServeProcess, index: int, steps: int, reset: dict,
                   tally: Tally) -> None:  # fmt: skip
    """One OpenEnv WebSocket client playing randomly; every error message is kept in
    ``tally.errors``."""
    async with websockets.connect(server.ws_url, max_size=1 << 20, open_timeout=60) as ws:

        async def ask(kind: str, data: dict) -> dict:
            await ws.send(json.dumps({"type": kind, "data": data}))
            reply = json.loads(await ws.recv())
            if reply["type"] != "observation":
                tally.errors.append(reply)
                raise RuntimeError(reply)
            return reply["data"]

        await _play_randomly(lambda data: ask("reset", data),
                             lambda action: ask("step", {"action": action}),
                             index, steps, reset, tally)  # fmt: skip
        await ws.send(json.dumps({"type": "close"}))


def play(server: ServeProcess, sessions: int, steps: int, reset: dict,
         client=_session) -> tuple[Tally, float]:  # fmt: skip
    """``sessions`` concurrent ``client``s (OpenEnv WebSocket ones by default) of ``steps`` steps
    each: their tally and wall seconds."""
    tally = Tally()

    async def run() -> list:
        return await asyncio.gather(
            *(client(server, i, steps, reset, tally) for i in range(sessions)),
            return_exceptions=True,
        )

    start = time.perf_counter()
    failures = [r for r in asyncio.run(run()) if isinstance(r, BaseException)]
    elapsed = time.perf_counter() - start
    assert not failures, f"{len(failures)} sessions failed: {failures[:3]}\n{server.output()}"
    assert not tally.errors and tally.steps == sessions * steps
    return tally, elapsed


class Peak:
    """The highest figures seen while the block runs (sampled every second in a thread)."""

    def __init__(self, server: ServeProcess) -> None:
        self.server, self.figures = server, {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(1.0):
            try:
                now = self.server.figures()
            except Exception:  # a probe racing the load: the next one counts
                continue
            for key, value in now.items():
                self.figures[key] = max(value, self.figures.get(key, value))

    def __enter__(self) -> Peak:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(30)


def assert_flat(label: str, before: dict, after: dict) -> None:
    """Print and check the figures against the warm baseline."""
    print(f"\n{label}: warm {before}\n{' ' * len(label)}  after {after}")
    assert after["sessions"] == 0
    assert after["fds"] <= before["fds"] + FD_MARGIN, (before, after)
    assert after["threads"] <= before["threads"] + THREAD_MARGIN, (before, after)
    assert after["chromium"] <= before["chromium"], (before, after)
    assert after["children"] <= before["children"], (before, after)
    assert after["zombies"] <= before["zombies"], (before, after)
    assert after["rss_mb"] * MB <= _rss_bound(before["rss_mb"] * MB), (before, after)


# ------------------------------------------------------------------------------------- soaks
SOAKS = [
    # (env id, reset data, sessions, steps per session); the warm-up round is one round of the
    # same size: WebShop's server grew from 96 to 392 MB in its first round (the catalog and
    # index loaded, then ~100 MB of caches filling past a 50-step warm-up) and was then flat
    # (392 -> 395 MB over five more rounds of 32 x 1,000)
    pytest.param("AgentGym/Toy-v0", {}, 32, 1000, id="Toy"),
    pytest.param("AgentGym/WebShop-v0", {"difficulty": "easy"}, 32, 1000, id="WebShop"),
    pytest.param("AgentGym/MiniWoB-click-test-2-v0", {}, 8, 200, id="MiniWoB"),
]


@pytest.mark.parametrize(("env_id", "reset", "sessions", "steps"), SOAKS)
def test_soak_leaves_the_server_flat(serve, env_id, reset, sessions, steps):
    server = serve(env_id)
    play(server, sessions, steps, reset)  # the warm-up round
    before = server.idle()
    with Peak(server) as peak:
        tally, elapsed = play(server, sessions, steps, reset)
    after = server.settled(before)
    print(
        f"\n{env_id}: {sessions} sessions x {steps} steps = {tally.steps} steps, "
        f"{tally.episodes} episodes in {elapsed:.1f} s ({tally.steps / elapsed:.0f} steps/s); "
        f"peak {peak.figures}"
    )
    assert peak.figures.get("sessions", sessions) <= sessions
    if "MiniWoB" in env_id:  # the sessions' pages did run on a browser of the server's
        assert peak.figures["chromium"] > before["chromium"]
    assert_flat(env_id, before, after)
    server.assert_quiet()


# ----------------------------------------------------------------------------- killed clients
#: A client process: ``N`` sessions that reset, then step seeded random admissible actions
#: forever; it prints ``ready`` once every session has stepped, and is killed mid-episode.
KILLED_CLIENTS = r"""
import asyncio, json, random, sys
import websockets

url, count, reset = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
ready = set()

async def one(index):
    rng = random.Random(index)
    async with websockets.connect(url, open_timeout=60) as ws:
        async def ask(message):
            await ws.send(json.dumps(message))
            reply = json.loads(await ws.recv())
            assert reply["type"] == "observation", reply
            return reply["data"]
        seed = index * 1000
        data = await ask({"type": "reset", "data": {"seed": seed, **reset}})
        while True:
            if data["done"]:
                seed += 1
                data = await ask({"type": "reset", "data": {"seed": seed, **reset}})
            action = rng.choice(data["observation"]["info"]["admissible_actions"])
            data = await ask({"type": "step", "data": {"action": action}})
            ready.add(index)
            if len(ready) == count:
                print("ready", flush=True)
                ready.add(-1)

async def main():
    await asyncio.gather(*(one(i) for i in range(count)))

asyncio.run(main())
"""

KILLS = [
    pytest.param("AgentGym/Toy-v0", {}, 32, id="Toy"),
    pytest.param("AgentGym/WebShop-v0", {"difficulty": "easy"}, 16, id="WebShop"),
    pytest.param("AgentGym/MiniWoB-click-test-2-v0", {}, 8, id="MiniWoB"),
]


def _wait_ready(clients: subprocess.Popen, timeout: float = 120.0) -> None:
    """Wait for the client process's ``ready`` line (read in a thread: a pipe read blocks)."""
    line: list[str] = []
    reader = threading.Thread(target=lambda: line.append(clients.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    assert line and line[0].strip() == "ready", f"the clients never got going: {line}"


@pytest.mark.parametrize(("env_id", "reset", "count"), KILLS)
def test_clients_killed_mid_episode_leave_nothing_behind(serve, env_id, reset, count):
    server = serve(env_id)
    play(server, count, 10, reset)  # the warm-up round
    before = server.idle()
    for round_ in range(2):  # twice: a leak would grow from one round to the next
        clients = subprocess.Popen(
            [sys.executable, "-c", KILLED_CLIENTS, server.ws_url, str(count), json.dumps(reset)],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            _wait_ready(clients)
            during = server.figures()
            assert during["sessions"] == count
            if "MiniWoB" in env_id:
                assert during["chromium"] > before["chromium"]
            time.sleep(0.5)  # steps in flight when the kill lands
        finally:
            clients.kill()  # SIGKILL: no close frame, the kernel just drops the sockets
            clients.wait(30)
        after = server.settled(before)
        print(f"\n{env_id} killed round {round_}: during {during}")
        assert_flat(f"{env_id} killed", before, after)
        server.assert_quiet()
    # and the server still serves
    tally, _ = play(server, 2, 5, reset)
    assert tally.steps == 10


# ------------------------------------------------------------------------------ MCP clients
async def _mcp_session(server: ServeProcess, index: int, steps: int, reset: dict,
                       tally: Tally) -> None:  # fmt: skip
    """One mcp SDK client playing randomly through ``reset`` and ``act``; a tool error is kept in
    ``tally.errors``."""
    from mcp import Client

    async with Client(server.url + "/mcp") as client:

        async def call(name: str, args: dict) -> dict:
            result = await client.call_tool(name, args)
            if result.is_error:
                tally.errors.append(result.content[0].text)
                raise RuntimeError(result.content[0].text)
            return dict(result.structured_content)

        await _play_randomly(lambda data: call("reset", data),
                             lambda action: call("act", {"action": action}),
                             index, steps, reset, tally)  # fmt: skip


MCP_SOAKS = [
    # an MCP call is an HTTP request (streamable HTTP), ~10x an OpenEnv WebSocket step here, so
    # the rounds are shorter than the WebSocket soaks'
    pytest.param("AgentGym/Toy-v0", {}, 16, 200, id="Toy"),
    pytest.param("AgentGym/WebShop-v0", {"difficulty": "easy"}, 16, 200, id="WebShop"),
    pytest.param("AgentGym/MiniWoB-click-test-2-v0", {}, 4, 50, id="MiniWoB"),
]


@pytest.mark.parametrize(("env_id", "reset", "sessions", "steps"), MCP_SOAKS)
def test_mcp_soak_leaves_the_server_flat(serve, env_id, reset, sessions, steps):
    pytest.importorskip("mcp", reason="needs the serve extra")
    server = serve(env_id)
    play(server, sessions, steps, reset, _mcp_session)  # the warm-up round
    before = server.idle()
    tally, elapsed = play(server, sessions, steps, reset, _mcp_session)
    after = server.settled(before)
    print(f"\nMCP {env_id}: {sessions} sessions x {steps} steps in {elapsed:.1f} s "
          f"({tally.steps / elapsed:.0f} steps/s)")  # fmt: skip
    assert_flat(f"MCP {env_id}", before, after)
    server.assert_quiet()


# ----------------------------------------------------------------------------- frozen clients
def test_frozen_clients_are_closed_by_the_idle_timeout(serve):
    """Clients stopped mid-episode (``SIGSTOP``) keep their connections open and never send
    again, as a client whose machine vanished does (a half-open connection: no close frame, no
    FIN). The server cannot tell that from a slow client, so ``--idle-timeout`` ends their
    sessions (envs and Chromium pages closed); the clients, resumed, find themselves closed."""
    import signal

    env_id, reset, count = "AgentGym/MiniWoB-click-test-2-v0", {}, 4
    server = serve(env_id, "--idle-timeout", "3")
    play(server, count, 10, reset)  # the warm-up round
    before = server.idle()
    clients = subprocess.Popen(
        [sys.executable, "-c", KILLED_CLIENTS, server.ws_url, str(count), json.dumps(reset)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_ready(clients)
        clients.send_signal(signal.SIGSTOP)
        assert server.figures()["sessions"] == count  # the connections are still open
        after = server.settled(before, timeout=60)
        assert_flat("frozen clients", before, after)
        clients.send_signal(signal.SIGCONT)  # they learn why they were closed, and fail
        _, errors = clients.communicate(timeout=60)
        # a client reads either the server's error message or, sending first, the close reason
        assert clients.returncode != 0, errors[-2000:]
        assert "idle for 3 s" in errors or "idle timeout" in errors, errors[-2000:]
    finally:
        clients.kill()
        clients.wait(30)
    server.assert_quiet()
    tally, _ = play(server, 2, 5, reset)  # and the server still serves
    assert tally.steps == 10
