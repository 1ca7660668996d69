"""A server on this machine, started from Python: in a thread of this process (a notebook, a
test) or as a process of its own (measurable and killable, as a deployment runs it).

    with ThreadServer(ServerSettings(("AgentGym/Toy-v0",))) as server:
        env = RemoteTextEnv(server.url, "AgentGym/Toy-v0")
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from typing import IO, Any

from agentgym_serve.openenv_server import PROTOCOLS, make_app
from agentgym_serve.sessions import MAX_MESSAGE_BYTES, ServerSettings, Sessions


def free_port() -> int:
    """A TCP port of 127.0.0.1 free right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ThreadServer:
    """``make_app(settings)`` under uvicorn on a free port of 127.0.0.1, in a daemon thread."""

    def __init__(self, settings: ServerSettings, protocols: tuple[str, ...] = PROTOCOLS) -> None:
        import uvicorn

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.app = make_app(settings, protocols)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="error",
                                ws_max_size=MAX_MESSAGE_BYTES)  # fmt: skip
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError(f"the server on port {self.port} did not start")
            time.sleep(0.05)

    @property
    def sessions(self) -> Sessions:
        return self.app.state.sessions

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)

    def __enter__(self) -> ThreadServer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


class ProcessServer:
    """``agentgym serve ENV_ID... --port <free> ARGS`` as a process of its own, its output in
    ``log`` (a file object; None: discarded); ready once ``/health`` answers."""

    def __init__(self, env_ids: tuple[str, ...], *args: str, log: IO[str] | None = None,
                 timeout: float = 180.0) -> None:  # fmt: skip
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "agentgym_envs.cli", "serve", *env_ids,
                   "--port", str(self.port), *args]  # fmt: skip
        self.popen = subprocess.Popen(command, stdout=log or subprocess.DEVNULL,
                                      stderr=subprocess.STDOUT if log else subprocess.DEVNULL,
                                      env={**os.environ, "PYTHONUNBUFFERED": "1"})  # fmt: skip
        deadline = time.monotonic() + timeout  # imports and the env registry take a while
        while not self.healthy():
            if self.popen.poll() is not None:
                raise RuntimeError(f"agentgym serve exited with code {self.popen.returncode}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"agentgym serve did not answer /health in {timeout:g} s")
            time.sleep(0.25)

    def health(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + "/health", timeout=30) as answer:
            return dict(json.loads(answer.read()))

    def healthy(self) -> bool:
        try:
            return self.health().get("status") == "healthy"
        except OSError:
            return False

    def stop(self) -> None:
        """SIGTERM (uvicorn closes every session and env), then a kill after 30 s."""
        self.popen.send_signal(signal.SIGTERM)
        try:
            self.popen.wait(30)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait(30)

    def __enter__(self) -> ProcessServer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


__all__ = ["ProcessServer", "ThreadServer", "free_port"]
