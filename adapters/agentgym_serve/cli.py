"""``agentgym serve``: the command that starts a server (added through ``agentgym.commands``)."""

from __future__ import annotations

import argparse
from typing import Any


def cmd_serve(args: argparse.Namespace) -> int:
    import os

    import uvicorn

    from agentgym_envs.cli import UsageError
    from agentgym_serve.openenv_server import PROTOCOLS, make_app
    from agentgym_serve.sessions import MAX_MESSAGE_BYTES, ServerSettings

    if args.max_sessions < 1 or args.idle_timeout <= 0 or args.step_timeout <= 0:
        raise UsageError("--max-sessions must be at least 1 and the timeouts positive")
    token = os.environ.get(args.token_env) if args.token_env else None
    if args.token_env and not token:
        raise UsageError(f"--token-env {args.token_env}: that variable is not set")
    if args.host not in ("127.0.0.1", "localhost", "::1") and token is None:
        print(
            f"warning: serving on {args.host} without a token: anyone who reaches the port "
            "can play (and load) these envs; set --token-env"
        )
    try:
        settings = ServerSettings(
            tuple(args.env_ids),
            args.max_sessions,
            args.idle_timeout,
            args.step_timeout,
            args.oracle,
            token,
        )
        protocols = PROTOCOLS if args.protocol == "both" else (args.protocol,)
        app = make_app(settings, protocols, args.host)
    except ValueError as error:
        raise UsageError(str(error)) from error
    where = f"{args.host}:{args.port}"
    served = {
        "openenv": f"OpenEnv sessions at ws://{where}/ws",
        "mcp": f"MCP at http://{where}/mcp",
    }
    print(
        f"serving {', '.join(settings.env_ids)} on http://{where}: "
        f"{'; '.join(served[p] for p in protocols)} (up to {settings.max_sessions} sessions)",
        flush=True,
    )
    uvicorn.run(
        app, host=args.host, port=args.port, ws_max_size=MAX_MESSAGE_BYTES, log_level=args.log_level
    )
    return 0


def add_serve_command(sub: Any) -> None:
    """Add ``serve`` to the ``agentgym`` subparsers ``sub``."""
    p = sub.add_parser(
        "serve",
        help="serve env ids over the network (OpenEnv's protocol and MCP)",
        description="Serve AgentGym env ids to remote clients, one env per session: "
        "OpenEnv's WebSocket sessions at /ws (openenv-core's EnvClient, TRL's OpenEnv path), "
        "MCP tools at /mcp (the family's actions as typed tools), and /health, /metadata, "
        "/schema. An env failure or timeout is an error (EXECUTION_ERROR), never a reward.",
    )
    p.add_argument(
        "env_ids",
        nargs="+",
        metavar="ENV_ID",
        help="registered ids to serve; a reset picks one with env_id (default the "
        "first) and passes make keywords such as difficulty and split",
    )
    p.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)"
    )
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument(
        "--protocol",
        choices=("openenv", "mcp", "both"),
        default="both",
        help="OpenEnv's WebSocket sessions at /ws, MCP tools at /mcp, or both "
        "(default both; /health, /metadata and /schema always)",
    )
    p.add_argument(
        "--max-sessions",
        type=int,
        default=64,
        help="sessions open at once; one more is refused with CAPACITY_REACHED (default 64)",
    )
    p.add_argument(
        "--idle-timeout",
        type=float,
        default=600.0,
        help="seconds without a message before a session is closed (default 600)",
    )
    p.add_argument(
        "--step-timeout",
        type=float,
        default=120.0,
        help="seconds a reset or step may take before the session's env is closed "
        "and the client told EXECUTION_ERROR (default 120)",
    )
    p.add_argument(
        "--oracle",
        action="store_true",
        help="include the oracle's next move (info.expert_action): for training "
        "data, never for an agent being evaluated",
    )
    p.add_argument(
        "--token-env",
        default=None,
        metavar="VAR",
        help="the environment variable holding a bearer token every request must "
        "carry (Authorization: Bearer TOKEN)",
    )
    p.add_argument(
        "--log-level",
        default="warning",
        choices=("critical", "error", "warning", "info", "debug"),
        help="uvicorn's log level (default warning)",
    )
    p.set_defaults(func=cmd_serve)


__all__ = ["add_serve_command", "cmd_serve"]
