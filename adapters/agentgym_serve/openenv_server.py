"""OpenEnv's protocol over HTTP and WebSocket, one env per WebSocket session.

Meta's OpenEnv clients (``openenv.core.EnvClient`` and its ``GenericEnvClient``; TRL's OpenEnv
path) speak JSON messages on ``/ws``: ``{"type": "reset", "data": {...}}`` -> ``{"type":
"observation", "data": {"observation": ..., "reward": r, "done": d}}``; ``step`` with ``data``
``{"action": "<text>"}``; ``state``; ``close``; a failure is ``{"type": "error", "data":
{"message", "code"}}`` with OpenEnv's codes. Reset data holds reset keywords (``seed``,
``task_id``, ``episode_id``), the id to play (``env_id``, default the first served) and make
keywords (``difficulty``, ``split``, ...). The observation is ``{"text", "terminated",
"truncated", "info"}``. ``/health``, ``/metadata`` and ``/schema`` answer over HTTP, and
``POST /reset`` as OpenEnv's stateless HTTP does (a fresh env, reset, closed); a step needs the
session, so ``POST /step`` says to use ``/ws``.

Deviation from openenv-core's own server, on purpose: many sessions per process by default
(openenv-core allows one unless told), an idle session is closed with a message saying so,
and an env failure or step timeout is an ``EXECUTION_ERROR``, never a reward of 0.
"""

from __future__ import annotations

import asyncio
import hmac
import json
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from agentgym_serve.sessions import (
    MAX_MESSAGE_BYTES,
    ServerSettings,
    Session,
    SessionError,
    Sessions,
    action_sets,
)

PROTOCOLS = ("openenv", "mcp")

ACTION_SCHEMA = {
    "type": "object",
    "properties": {"action": {"type": "string"}},
    "required": ["action"],
    "additionalProperties": False,
}
OBSERVATION_SCHEMA = {
    "type": "object",
    "properties": {
        "text": {"type": "string"},
        "terminated": {"type": "boolean"},
        "truncated": {"type": "boolean"},
        "info": {"type": "object"},
    },
}
STATE_SCHEMA = {
    "type": "object",
    "properties": {
        "episode_id": {"type": ["string", "null"]},
        "step_count": {"type": "integer"},
        "env_id": {"type": ["string", "null"]},
        "make_kwargs": {"type": "object"},
        "seed": {"type": ["integer", "null"]},
        "done": {"type": "boolean"},
    },
}


def authorized(settings: ServerSettings, header: str | None) -> bool:
    """True when no token is asked, or ``header`` is ``Bearer <token>``."""
    if settings.token is None:
        return True
    return hmac.compare_digest((header or "").encode(), f"Bearer {settings.token}".encode())


def make_app(
    settings: ServerSettings, protocols: tuple[str, ...] = PROTOCOLS, host: str = "127.0.0.1"
) -> Any:
    """The FastAPI app serving ``settings.env_ids``: OpenEnv's sessions (see the module
    docstring) and MCP's tools at ``/mcp`` (``mcp_server``), as ``protocols`` says; ``host``
    is the address it is served on."""
    import contextlib

    sessions = Sessions(settings)
    tools = None
    if "mcp" in protocols:
        from agentgym_serve.mcp_server import mcp_app

        tools = mcp_app(settings, sessions, host)

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> Any:
        async with contextlib.AsyncExitStack() as stack:
            if tools is not None:  # a mounted app's own lifespan does not run
                await stack.enter_async_context(tools[0].session_manager.run())
            yield
        sessions.close_all()

    app = FastAPI(title="AgentGym envs", docs_url=None, redoc_url=None, lifespan=lifespan)
    app.state.sessions = sessions

    @app.middleware("http")
    async def guard(request: Request, call_next: Any) -> Any:
        if not authorized(settings, request.headers.get("authorization")):
            return JSONResponse({"detail": "missing or wrong bearer token"}, status_code=401)
        size = request.headers.get("content-length")
        if size is not None and (not size.isdigit() or int(size) > MAX_MESSAGE_BYTES):
            return JSONResponse({"detail": f"body over {MAX_MESSAGE_BYTES} bytes"}, 413)
        return await call_next(request)

    @app.get("/health")
    async def health() -> dict[str, Any]:
        return {
            "status": "healthy",
            "sessions": len(sessions.open),
            "max_sessions": settings.max_sessions,
        }

    @app.get("/metadata")
    async def metadata() -> dict[str, Any]:
        return {
            "name": "agentgym",
            "env_ids": list(settings.env_ids),
            "action_help": {i: a.describe() for i, a in action_sets(settings.env_ids).items()},
            "oracle": settings.oracle,
            "idle_timeout_s": settings.idle_timeout,
            "step_timeout_s": settings.step_timeout,
        }

    @app.get("/schema")
    async def schema() -> dict[str, Any]:
        return {"action": ACTION_SCHEMA, "observation": OBSERVATION_SCHEMA, "state": STATE_SCHEMA}

    if "openenv" in protocols:
        _openenv_routes(app, settings, sessions)
    if tools is not None:
        app.mount("/", tools[1])  # after every route above: it answers /mcp
    return app


def _openenv_routes(app: Any, settings: ServerSettings, sessions: Sessions) -> None:
    """OpenEnv's stateless ``/reset`` and ``/step`` and its sessions on ``/ws``."""

    @app.post("/reset")
    async def reset(request: Request) -> Any:
        try:
            data = await _body(request)
            session = sessions.start()
        except SessionError as error:
            return _http_error(error)
        try:
            return await sessions.reset(session, data)
        except SessionError as error:
            return _http_error(error)
        finally:
            sessions.close(session.sid)

    @app.post("/step")
    async def step() -> Any:
        return _http_error(
            SessionError(
                "a step needs an episode: open a session on /ws (as "
                "OpenEnv's EnvClient does), reset, then step",
                "SESSION_ERROR",
            )
        )

    @app.websocket("/ws")
    async def ws(websocket: WebSocket) -> None:
        if not authorized(settings, websocket.headers.get("authorization")):
            await websocket.close(code=1008, reason="missing or wrong bearer token")
            return
        await websocket.accept()
        try:
            session = sessions.start()
        except SessionError as error:
            await websocket.send_json(_error(error))
            await websocket.close(code=1013, reason="server at capacity")
            return
        try:
            await _serve(websocket, sessions, session, settings)
        except WebSocketDisconnect:
            pass
        finally:
            sessions.close(session.sid)


async def _serve(
    websocket: Any, sessions: Sessions, session: Session, settings: ServerSettings
) -> None:
    """Answer one session's messages until it closes, disconnects or idles out."""
    while True:
        try:
            raw = await asyncio.wait_for(_receive(websocket), settings.idle_timeout)
        except TimeoutError:
            await websocket.send_json(
                _error(
                    SessionError(
                        f"idle for {settings.idle_timeout:g} s: session closed", "SESSION_ERROR"
                    )
                )
            )
            await websocket.close(code=1001, reason="idle timeout")
            return
        try:
            reply = await _answer(sessions, session, raw)
        except SessionError as error:
            reply = _error(error)
        if reply is None:
            await websocket.close()
            return
        await websocket.send_json(reply)


async def _receive(websocket: Any) -> str | None:
    """The next message's text; None for a binary frame (answered as a mistake, where
    ``receive_text`` would raise and drop the connection without a word)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    return message.get("text")


async def _answer(sessions: Sessions, session: Session, raw: str | None) -> dict[str, Any] | None:
    """One message's reply (None: the client closed the session)."""
    if raw is None:
        raise SessionError("a message is a JSON text frame, not a binary one", "INVALID_JSON")
    if len(raw) > MAX_MESSAGE_BYTES:
        raise SessionError(f"message over {MAX_MESSAGE_BYTES} bytes", "INVALID_JSON")
    try:
        message = json.loads(raw)
    except json.JSONDecodeError as error:
        raise SessionError(f"not JSON: {error.msg}", "INVALID_JSON") from None
    if not isinstance(message, dict):
        raise SessionError("a message is a JSON object with a type", "INVALID_JSON")
    kind, data = message.get("type"), message.get("data") or {}
    if not isinstance(data, dict):
        raise SessionError("data must be a JSON object", "VALIDATION_ERROR")
    if kind == "reset":
        return {"type": "observation", "data": await sessions.reset(session, data)}
    if kind == "step":
        if set(data) != {"action"}:
            raise SessionError('a step\'s data is {"action": "<text>"}', "VALIDATION_ERROR")
        return {"type": "observation", "data": await sessions.step(session, data["action"])}
    if kind == "state":
        return {"type": "state", "data": session.state()}
    if kind == "close":
        return None
    raise SessionError(
        f"unknown message type {kind!r}: reset, step, state or close", "UNKNOWN_TYPE"
    )


async def _body(request: Any) -> dict[str, Any]:
    body = await request.body()
    if len(body) > MAX_MESSAGE_BYTES:
        raise SessionError(f"body over {MAX_MESSAGE_BYTES} bytes", "INVALID_JSON")
    try:
        data = json.loads(body or b"{}")
    except json.JSONDecodeError as error:
        raise SessionError(f"not JSON: {error.msg}", "INVALID_JSON") from None
    if not isinstance(data, dict):
        raise SessionError("the body is a JSON object", "VALIDATION_ERROR")
    return data


def _error(error: SessionError) -> dict[str, Any]:
    return {"type": "error", "data": {"message": str(error), "code": error.code}}


def _http_error(error: SessionError) -> Any:
    status = {"CAPACITY_REACHED": 503, "EXECUTION_ERROR": 500}.get(error.code, 400)
    return JSONResponse({"detail": str(error), "code": error.code}, status_code=status)


__all__ = ["make_app"]
