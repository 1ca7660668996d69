"""An env served by ``agentgym serve`` (or any OpenEnv server of AgentGym ids), as a local
``gymnasium.Env``: one WebSocket session, OpenEnv's messages.

``RemoteTextEnv(url, env_id, **make_kwargs)`` behaves as ``gymnasium.make(env_id,
**make_kwargs)`` does here: text observations, the same rewards and infos, truncation at the
registered step limit (the server's env applies it), and ``spec`` is the id's own, so episode
records name the id, not this class. What differs is failure: a server that answers
``EXECUTION_ERROR`` (its env failed or timed out) or goes away raises ``RemoteEnvError``, so a
benchmark records the episode as an error instead of a reward of 0. The oracle's move is in
``info`` only when the server was started with ``--oracle``. The bearer token, when the server
asks for one, is ``token`` or else ``$AGENTGYM_SERVE_TOKEN``. Needs ``websockets`` (the ``serve``
extra).

A client-side pool: ``url`` may list several servers, comma-separated (``http://a:8000,
http://b:8000``); each session opens on the one with the fewest open sessions that answers, so
N servers on N machines share the envs of one vector env or benchmark run.
"""

from __future__ import annotations

import contextlib
import json
import os
from typing import Any

import gymnasium as gym

from agentgym_envs.core.spaces import text_space

#: the environment variable a client's bearer token is read from when none is given
TOKEN_VARIABLE = "AGENTGYM_SERVE_TOKEN"


class RemoteEnvError(RuntimeError):
    """The server could not serve a reset or step (its message and OpenEnv error code)."""


class RemoteTextEnv(gym.Env[str, str]):
    """``env_id`` played on the server at ``url`` (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        url: str,
        env_id: str,
        token: str | None = None,
        timeout: float = 300.0,
        expert: bool = True,
        **make_kwargs: Any,
    ) -> None:
        #: the servers of a pool (``url`` may list several, comma-separated)
        self.servers = [_http(part) for part in url.split(",") if part.strip()]
        self.http_url = self.servers[0]
        self.env_id, self.make_kwargs, self.timeout = env_id, make_kwargs, timeout
        self.expert = expert  # False: drop the oracle's move even if the server sends it
        token = token or os.environ.get(TOKEN_VARIABLE)
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.spec = gym.spec(env_id)
        self.observation_space = text_space(100_000)
        self.action_space = text_space(2_000)
        self.action_help = self._metadata().get("action_help", {}).get(env_id, "")
        self._socket: Any = None

    @property
    def ws_url(self) -> str:
        return self.http_url.replace("https://", "wss://").replace("http://", "ws://") + "/ws"

    def _get(self, server: str, path: str, timeout: float) -> dict[str, Any]:
        import urllib.request

        request = urllib.request.Request(server + path, headers=self.headers)
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return dict(json.loads(answer.read()))

    def _least_busy(self) -> str:
        """The pool's server with the fewest open sessions (a server that does not answer is
        passed over): a session's home for its whole life."""
        loads = []
        for server in self.servers:
            try:
                loads.append((self._get(server, "/health", 10).get("sessions", 0), server))
            except OSError:
                continue
        if not loads:
            raise RemoteEnvError(f"no server of {', '.join(self.servers)} answers")
        return min(loads)[1]

    def _metadata(self) -> dict[str, Any]:
        """The ``/metadata`` of the pool's first server that answers (which ids it serves and
        their action help)."""
        failed = []
        for server in self.servers:
            try:
                metadata = self._get(server, "/metadata", 30)
            except OSError as error:
                failed.append(f"{server} ({error})")
                continue
            self.http_url = server
            if self.env_id not in metadata.get("env_ids", []):
                served = ", ".join(metadata.get("env_ids", []))
                raise RemoteEnvError(f"the server at {server} serves {served}, not {self.env_id}")
            return metadata
        raise RemoteEnvError(
            f"no AgentGym server answers at {', '.join(failed)}; start one with: agentgym serve "
            "ENV_ID"
        )

    def _ask(self, message: dict[str, Any]) -> dict[str, Any]:
        from websockets.exceptions import WebSocketException
        from websockets.sync.client import connect

        try:
            if self._socket is None:  # entered by hand: it lives as long as this env
                if len(self.servers) > 1:
                    self.http_url = self._least_busy()
                self._socket = connect(
                    self.ws_url, additional_headers=self.headers, max_size=2**20, open_timeout=30
                ).__enter__()
            self._socket.send(json.dumps(message))
            answer = json.loads(self._socket.recv(timeout=self.timeout))
        except (OSError, TimeoutError, WebSocketException) as error:
            self._socket = None
            raise RemoteEnvError(f"lost the session with {self.ws_url}: {error}") from error
        if answer.get("type") == "error":
            data = answer.get("data") or {}
            raise RemoteEnvError(f"{data.get('message')} ({data.get('code')})")
        return answer["data"]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        data: dict[str, Any] = {"env_id": self.env_id, **self.make_kwargs, "seed": seed}
        if options and options.get("task_id") is not None:
            data["task_id"] = options["task_id"]
        result = self._ask({"type": "reset", "data": data})
        return result["observation"]["text"], self._info(result)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        text = action if isinstance(action, str) else repr(action)
        result = self._ask({"type": "step", "data": {"action": text}})
        observation = result["observation"]
        return (
            observation["text"],
            float(result["reward"]),
            bool(observation["terminated"]),
            bool(observation["truncated"]),
            self._info(result),
        )

    def _info(self, result: dict[str, Any]) -> dict[str, Any]:
        info = dict(result["observation"]["info"])
        if not self.expert:
            info.pop("expert_action", None)
        return info

    def close(self) -> None:
        socket, self._socket = self._socket, None
        if socket is not None:
            with contextlib.suppress(Exception):  # the server may be gone already
                socket.send(json.dumps({"type": "close"}))
            socket.close()


def _http(url: str) -> str:
    """``url`` as the server's HTTP base (a ws:// or .../ws form accepted)."""
    base = url.strip().rstrip("/").removesuffix("/ws")
    return base.replace("wss://", "https://").replace("ws://", "http://")


__all__ = ["RemoteEnvError", "RemoteTextEnv"]
