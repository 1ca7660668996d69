"""The sessions a server holds: one env per client, a bounded table, idle and step timeouts.

Every session owns one env (made on its first reset, made again when a reset names other make
keywords) and one thread that makes, steps and closes it, so an env is always driven from the
thread that made it and a slow step never blocks another session. A step that runs past
``step_timeout`` or raises is an *infrastructure* failure (the env contract says agent text never
raises): the session's env is dropped and the caller gets ``SessionError``, never a reward of 0.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import inspect
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

import agentgym_envs  # noqa: F401  (registers the ids)
from agentgym_envs.registration import did_you_mean, env_class

#: the largest HTTP body, WebSocket message or MCP request read (bytes)
MAX_MESSAGE_BYTES = 1 << 20
#: reset keywords that pick the episode; every other keyword is a make keyword
RESET_KEYS = ("seed", "task_id", "episode_id")


class SessionError(RuntimeError):
    """A request the server cannot serve; ``code`` is OpenEnv's error code for it."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class ServerSettings:
    """What a server serves and its limits (``agentgym serve --help`` says each)."""

    env_ids: tuple[str, ...]
    max_sessions: int = 64
    idle_timeout: float = 600.0  # seconds without a request before a session is closed
    step_timeout: float = 120.0  # seconds a reset or step may take
    oracle: bool = False  # include info["expert_action"] (the oracle's next move)
    token: str | None = None  # bearer token every request must carry (None: none asked)


@dataclass
class Session:
    """One client's env and where its episode stands."""

    sid: str
    thread: concurrent.futures.ThreadPoolExecutor
    env: Any = None
    made_with: tuple[str, tuple[tuple[str, Any], ...]] | None = None  # (id, make keywords)
    episode_id: str | None = None
    seed: int | None = None
    steps: int = 0
    done: bool = False
    last_used: float = field(default_factory=time.monotonic)

    def state(self) -> dict[str, Any]:
        env_id, kwargs = self.made_with or (None, ())
        return {
            "episode_id": self.episode_id,
            "step_count": self.steps,
            "env_id": env_id,
            "make_kwargs": dict(kwargs),
            "seed": self.seed,
            "done": self.done,
        }


class Sessions:
    """The server's sessions (see the module docstring)."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.open: dict[str, Session] = {}
        for env_id in settings.env_ids:  # an unknown id fails at start, with close matches
            if env_id not in gym.registry:
                raise ValueError(
                    f"unknown env id {env_id!r}{did_you_mean(env_id, sorted(gym.registry))}"
                )

    def start(self) -> Session:
        """A new session, or ``SessionError`` (CAPACITY_REACHED) when the table is full."""
        if len(self.open) >= self.settings.max_sessions:
            raise SessionError(
                f"server at capacity: {len(self.open)}/"
                f"{self.settings.max_sessions} sessions open; close one or start "
                "the server with a larger --max-sessions",
                "CAPACITY_REACHED",
            )
        sid = uuid.uuid4().hex
        self.open[sid] = Session(sid, _thread(sid))
        return self.open[sid]

    async def reset(self, session: Session, data: dict[str, Any]) -> dict[str, Any]:
        """Reset ``session``'s env (made or remade as ``data``'s make keywords say): the first
        observation as a result."""
        data = dict(data)
        env_id = data.pop("env_id", None) or self.settings.env_ids[0]
        if env_id not in self.settings.env_ids:
            served = ", ".join(self.settings.env_ids)
            hint = did_you_mean(env_id, self.settings.env_ids, "")
            raise SessionError(
                f"env_id {env_id!r} is not served here{hint}; this server serves {served}",
                "VALIDATION_ERROR",
            )
        picks = {key: data.pop(key) for key in RESET_KEYS if key in data}
        made_with = (env_id, tuple(sorted(data.items())))

        def reset() -> tuple[str, dict]:
            if session.made_with != made_with or session.env is None:
                self._close_env(session)
                session.made_with = None  # until the new one is made
                session.env = _make(env_id, data, self.settings.oracle)
                session.made_with = made_with
            options = {"task_id": picks["task_id"]} if picks.get("task_id") else None
            return session.env.reset(seed=picks.get("seed"), options=options)

        observation, info = await self._run(session, reset)
        session.episode_id = str(picks.get("episode_id") or uuid.uuid4().hex[:12])
        session.seed, session.steps, session.done = picks.get("seed"), 0, False
        return result(observation, 0.0, False, False, info, self.settings.oracle)

    async def step(self, session: Session, action: Any) -> dict[str, Any]:
        """One step of ``session``'s episode with the agent's text ``action``."""
        if session.env is None:
            raise SessionError("no episode yet: send a reset first", "SESSION_ERROR")
        if not isinstance(action, str):
            raise SessionError(
                f"action must be text, got {type(action).__name__}", "VALIDATION_ERROR"
            )
        if session.done:
            raise SessionError(
                "the episode is over: send a reset to start the next", "SESSION_ERROR"
            )
        observation, reward, terminated, truncated, info = await self._run(
            session, lambda: session.env.step(action)
        )
        session.steps += 1
        session.done = bool(terminated or truncated)
        return result(observation, reward, terminated, truncated, info, self.settings.oracle)

    async def _run(self, session: Session, call: Any) -> Any:
        """``call()`` on the session's own thread, bounded by the step timeout; a failure drops
        the session's env and is reported as EXECUTION_ERROR."""
        session.last_used = time.monotonic()
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(session.thread, call)
        try:
            return await asyncio.wait_for(future, self.settings.step_timeout)
        except SessionError:
            raise
        except TimeoutError:
            self._drop_env(session)
            raise SessionError(
                f"the env took longer than {self.settings.step_timeout:g} s; "
                "its env was closed: send a reset",
                "EXECUTION_ERROR",
            ) from None
        except ValueError as error:  # a bad make keyword, difficulty, split or task id
            raise SessionError(str(error), "VALIDATION_ERROR") from None
        except Exception as error:
            self._drop_env(session)
            raise SessionError(
                f"the env failed ({type(error).__name__}: {error}); its env "
                "was closed: send a reset",
                "EXECUTION_ERROR",
            ) from None
        finally:
            session.last_used = time.monotonic()

    def _drop_env(self, session: Session) -> None:
        """Forget a failed env: closed on a thread of its own (which unblocks a hung call) and
        the session given a fresh thread, so its next reset is not queued behind the hung one."""
        env, session.env, session.made_with, session.done = session.env, None, None, True
        if env is not None:
            threading_close(env)
        session.thread.shutdown(wait=False)
        session.thread = _thread(session.sid)

    def _close_env(self, session: Session) -> None:
        if session.env is not None:
            with contextlib.suppress(Exception):
                session.env.close()
            session.env = None

    def close(self, sid: str) -> None:
        """End session ``sid``: close its env on its thread, then the thread."""
        session = self.open.pop(sid, None)
        if session is None:
            return
        session.thread.submit(self._close_env, session)
        session.thread.shutdown(wait=False)

    def idle(self) -> list[str]:
        """The sessions idle past the idle timeout."""
        limit = time.monotonic() - self.settings.idle_timeout
        return [sid for sid, s in self.open.items() if s.last_used < limit]

    def close_all(self) -> None:
        for sid in list(self.open):
            self.close(sid)


def action_sets(env_ids: tuple[str, ...]) -> dict[str, Any]:
    """The action set of each served id's env class (ids without one have only ``act``)."""
    sets = {}
    for env_id in env_ids:
        action_set = getattr(env_class(env_id), "action_set", None)
        if action_set is not None:
            sets[env_id] = action_set
    return sets


def _thread(sid: str) -> concurrent.futures.ThreadPoolExecutor:
    return concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix=f"session-{sid[:8]}")


def threading_close(env: Any) -> None:
    """Close ``env`` on a thread of its own: a hung env must not hang the server."""

    def close() -> None:
        with contextlib.suppress(Exception):
            env.close()

    threading.Thread(target=close, daemon=True).start()


def _make(env_id: str, kwargs: dict[str, Any], oracle: bool) -> gym.Env:
    """``gymnasium.make`` with a wrong keyword answered by the env's own keywords."""
    try:
        return gym.make(env_id, expert=oracle, **kwargs)
    except TypeError as error:
        names = [n for n in inspect.signature(env_class(env_id)).parameters if n != "expert"]
        raise ValueError(
            f"{env_id} takes the make keywords {', '.join(names)} (and reset's "
            f"{', '.join(RESET_KEYS)}): {error}"
        ) from None


def result(
    observation: str, reward: Any, terminated: bool, truncated: bool, info: dict, oracle: bool
) -> dict[str, Any]:
    """A reset's or step's answer in OpenEnv's shape: the observation (text, flags, info),
    reward and done."""
    shown = {k: v for k, v in info.items() if oracle or k != "expert_action"}
    return {
        "observation": {
            "text": observation,
            "terminated": bool(terminated),
            "truncated": bool(truncated),
            "info": _json(shown),
        },
        "reward": float(reward),
        "done": bool(terminated or truncated),
    }


def _json(value: Any) -> Any:
    """``value`` with what JSON cannot hold (numpy numbers, tuples, sets) made plain."""
    if isinstance(value, dict):
        return {str(k): _json(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_json(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    item = getattr(value, "item", None)
    return item() if callable(item) else str(value)
