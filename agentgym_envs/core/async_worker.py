"""The worker process of ``make_vec(..., vectorization_mode="async")``.

Text observations cannot go through Gymnasium's shared memory (Gymnasium issue #1164), so our
async vector envs send them through the worker pipes. In that mode Gymnasium's own worker
(1.2-1.4) never clears its pending next-step autoreset on ``reset``: an env that ended and was
then reset with ``options={"reset_mask": ...}`` (to start its next episode with a chosen seed)
is reset again, seedless, by the following ``step``, which also drops that step's action. This
worker speaks the same pipe protocol (commands ``reset``, ``reset-noop``, ``step``, ``close``,
``_call``, ``_setattr``, ``_check_spaces``; replies ``(result, success)``; errors on the error
queue) and clears the pending autoreset on every reset.
"""

from __future__ import annotations

import sys
import traceback
from typing import Any

from gymnasium.vector import AutoresetMode

from agentgym_envs.core.vector import AutoresetSlot


def text_env_worker(
    index: int,
    env_fn: Any,
    pipe: Any,
    parent_pipe: Any,
    shared_memory: Any,
    error_queue: Any,
    autoreset_mode: AutoresetMode,
    semaphore: Any = None,
) -> None:
    """Serve one env over ``pipe`` until ``close`` (``AsyncVectorEnv``'s ``worker`` argument;
    ``shared_memory`` is unused: observations travel through the pipe)."""
    env = env_fn()
    parent_pipe.close()
    observation: Any = None
    slot = AutoresetSlot(env, autoreset_mode)
    try:
        while True:
            command, data = pipe.recv()
            held = semaphore is not None and command in ("reset", "step")
            if held:
                semaphore.acquire()
            try:
                if command == "reset":
                    observation, info = slot.reset(**data)
                    result: Any = (observation, info)
                elif command == "reset-noop":
                    result = (observation, {})
                elif command == "step":
                    result = slot.step(data)
                    observation = result[0]
                elif command == "close":
                    pipe.send((None, True))
                    break
                elif command == "_call":
                    result = _call(env, *data)
                elif command == "_setattr":
                    env.set_wrapper_attr(*data)
                    result = None
                elif command == "_check_spaces":
                    from gymnasium.spaces.utils import is_space_dtype_shape_equiv

                    mode, observation_space, action_space = data
                    same = (observation_space == env.observation_space if mode == "same"
                            else is_space_dtype_shape_equiv(observation_space,
                                                            env.observation_space))  # fmt: skip
                    result = (same, action_space == env.action_space)
                else:
                    raise RuntimeError(f"unknown command {command!r} sent to an env worker")
            finally:
                if held:  # before send, which waits for the main process to read the pipe
                    semaphore.release()
            pipe.send((result, True))
    except (KeyboardInterrupt, Exception):
        error_type, error, _ = sys.exc_info()
        error_queue.put((index, error_type, error, traceback.format_exc()))
        pipe.send((None, False))
    finally:
        env.close()


def _call(env: Any, name: str, args: tuple, kwargs: dict) -> Any:
    if name in ("reset", "step", "close", "_setattr", "_check_spaces"):
        raise ValueError(f"call {name!r} directly, not through call()")
    attr = env.get_wrapper_attr(name)
    return attr(*args, **kwargs) if callable(attr) else attr


__all__ = ["text_env_worker"]
