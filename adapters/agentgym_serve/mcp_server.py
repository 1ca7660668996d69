"""The envs as MCP tools: a session per MCP client, the observation as each tool's result.

Tools: ``reset`` (``env_id``, ``seed``, ``task_id`` and make keywords such as ``difficulty``);
``act`` (any action as text); and each served family's actions as typed tools, generated from
its ``ActionSet`` (MiniWoB's pointer actions included), so a tool-calling agent sees the same
action set the TRL tools show. Each result's text is the observation (with the action's error,
when it had one, and the episode's end); its structured content is the OpenEnv-shaped result.
An env failure or timeout is a tool error (``is_error``) naming ``EXECUTION_ERROR``, never a
reward of 0. Served over streamable HTTP at ``/mcp``; sessions keep their env until the client
ends the session or it idles out.

mcp 2.x clients first try the stateless 2026-07-28 protocol, in which no session survives a
request; this server answers only the session protocol (it does not serve ``server/discover``),
so they fall back to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agentgym_serve.sessions import MAX_MESSAGE_BYTES, SessionError, action_sets

if TYPE_CHECKING:
    from agentgym_envs.core.actions import ActionSet
    from agentgym_serve.sessions import ServerSettings, Session, Sessions

_SESSION_KEY = "agentgym_session"


def tool_list(settings: ServerSettings) -> list[dict[str, Any]]:
    """The tools' names, descriptions and input schemas (see the module docstring)."""
    reset = {
        "name": "reset",
        "description": "Start an episode (call it first, and again after one ends); returns the "
        "first observation.",
        "input_schema": {
            "type": "object",
            "properties": {
                "env_id": {
                    "type": "string",
                    "enum": list(settings.env_ids),
                    "description": "The env to play (default the first served).",
                },
                "seed": {"type": "integer", "description": "Picks the episode."},
                "task_id": {"type": "string", "description": "A task id of the env's list."},
                "difficulty": {"type": "string", "enum": ["easy", "medium", "hard"]},
                "split": {
                    "type": "string",
                    "enum": ["train", "valid", "test", "ood", "adversarial"],
                },
            },
        },
    }
    act = {
        "name": "act",
        "description": "Take one action, written as the env's action text (see reset's "
        "observation and the typed tools).",
        "input_schema": {
            "type": "object",
            "required": ["action"],
            "properties": {"action": {"type": "string"}},
        },
    }
    tools, seen = [reset, act], {"reset", "act"}
    for action_set in dict.fromkeys(action_sets(settings.env_ids).values()):
        for tool in action_set.tools():
            function = tool["function"]
            if function["name"] not in seen:
                seen.add(function["name"])
                tools.append(
                    {
                        "name": function["name"],
                        "description": function["description"],
                        "input_schema": function["parameters"],
                    }
                )
    return tools


def make_mcp_server(settings: ServerSettings, sessions: Sessions) -> Any:
    """The low-level MCP server (``mcp.server.Server``) with the tools above."""
    import jsonschema
    import mcp_types as types
    from mcp.server import Server

    tools = {tool["name"]: tool for tool in tool_list(settings)}
    sets = action_sets(settings.env_ids)

    async def list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=[types.Tool(**tool) for tool in tools.values()])

    async def call_tool(ctx: Any, params: Any) -> Any:
        tool, args = tools.get(params.name), dict(params.arguments or {})
        try:
            if tool is None:
                raise SessionError(
                    f"no tool {params.name!r}; tools: {', '.join(tools)}", "VALIDATION_ERROR"
                )
            try:
                jsonschema.validate(args, tool["input_schema"])
            except jsonschema.ValidationError as error:
                raise SessionError(f"{params.name}: {error.message}", "VALIDATION_ERROR") from None
            session = _session(ctx, sessions)
            if params.name == "reset":
                answer = await sessions.reset(session, args)
            else:
                answer = await sessions.step(
                    session, _action_text(session, sets, params.name, args)
                )
        except SessionError as error:
            text = f"{error.code}: {error}"
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=text)], is_error=True
            )
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=_text(answer))], structured_content=answer
        )

    server = Server("agentgym", on_list_tools=list_tools, on_call_tool=call_tool)
    server._request_handlers.pop("server/discover", None)  # sessions: see the module docstring
    return server


def _action_text(session: Session, sets: dict[str, ActionSet], name: str, args: dict) -> str:
    """The text of tool ``name`` called with ``args`` for the session's env."""
    if name == "act":
        return str(args["action"])
    env_id = session.made_with[0] if session.made_with else None
    action_set = sets.get(env_id or "")
    if action_set is None or name not in action_set.names():
        raise SessionError(
            f"{name} is not an action of {env_id or 'this session (no reset yet)'}",
            "VALIDATION_ERROR",
        )
    return action_set.to_text(name, **args)


def _session(ctx: Any, sessions: Sessions) -> Session:
    """The session of the MCP connection ``ctx`` belongs to, made on its first call and closed
    when the connection ends."""
    connection = ctx.session._connection  # mcp keeps per-connection state only here
    session = connection.state.get(_SESSION_KEY)
    if session is None or session.sid not in sessions.open:
        session = sessions.start()
        connection.state[_SESSION_KEY] = session
        sid = session.sid

        async def close() -> None:
            sessions.close(sid)

        connection.exit_stack.push_async_callback(close)
    return session


def _text(answer: dict[str, Any]) -> str:
    """A result as a model reads it: the observation, its action error, the episode's end."""
    observation, info = answer["observation"], answer["observation"]["info"]
    text = observation["text"]
    if info.get("action_error"):
        text = f"Invalid action: {info['action_error']}\n\n{text}"
    if answer["done"]:
        outcome = "success" if info.get("success") else "failure"
        text += f"\n\nThe episode is over ({outcome}, score {info.get('score', 0.0):.2f})."
    return text


def mcp_app(settings: ServerSettings, sessions: Sessions, host: str = "127.0.0.1") -> Any:
    """``(server, Starlette app)`` serving the tools over streamable HTTP at ``/mcp``."""
    server = make_mcp_server(settings, sessions)
    app = server.streamable_http_app(
        streamable_http_path="/mcp",
        max_request_body_size=MAX_MESSAGE_BYTES,
        session_idle_timeout=settings.idle_timeout,
        max_sessions=settings.max_sessions,
        host=host,
    )
    return server, app


__all__ = ["make_mcp_server", "mcp_app", "tool_list"]
