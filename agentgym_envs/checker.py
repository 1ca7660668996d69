"""``check_text_env``: the env contract of docs/ARCHITECTURE.md §3, checked on one env id.

A new family's author runs ``agentgym_envs.check_text_env("AgentGym/<Name>-v0")`` (the tests run
it on one id per family, ``tests/core/test_contract.py``). Each rule is checked in turn; the first
broken one raises ``AssertionError`` whose message names the id and the rule (``ValueError`` for
an id that is not registered).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import gymnasium as gym
from gymnasium.utils.env_checker import check_env

from agentgym_envs.core import DIFFICULTIES, INFO_KEYS, SPLITS
from agentgym_envs.registration import make_vec

#: Agent text ``step`` must survive: each costs a step, earns 0 and changes nothing.
WEIRD_ACTIONS: tuple[Any, ...] = (
    "",
    "   ",
    "\n\t",
    "fly to the moon",
    "click[" * 50,
    "x" * 20_000,
    "💥 ünïcödé \x00 control",
    "search[]",
    "go to",
    None,
    123,
    b"bytes action",
    ["a", "list"],
)

#: A random agent's seeded episodes, printed as JSON, in a fresh interpreter (argv: id, kwargs).
ROLLOUT = """
import json, sys, gymnasium as gym
import agentgym_envs
from agentgym_envs.agents import RandomAgent
env = gym.make(sys.argv[1], **{**json.loads(sys.argv[2]), "difficulty": "medium", "split": "test"})
agent, out = RandomAgent(), []
for seed in (0, 1, 2):
    agent.reset(seed)
    obs, info = env.reset(seed=seed)
    out.append([obs, info])
    for _ in range(8):
        obs, r, te, tr, info = env.step(agent.act(obs, info))
        out.append([obs, r, te, tr, info])
        if te or tr:
            break
print(json.dumps(out, sort_keys=True))
"""


class _Broken(AssertionError):
    """A rule's failed requirement (re-raised by ``check_text_env`` with the id and the rule)."""


def _require(condition: object, message: str) -> None:
    if not condition:
        raise _Broken(message)


def _raises(pattern: str, call: Callable[[], object], what: str) -> None:
    """``call()`` must raise ValueError whose message contains ``pattern`` (a regex)."""
    try:
        call()
    except ValueError as exc:
        _require(
            re.search(pattern, str(exc)),
            f"{what} raised ValueError({str(exc)!r}), which does not mention {pattern}",
        )
        return
    raise _Broken(f"{what} did not raise ValueError")


@contextlib.contextmanager
def _made(env_id: str, **kwargs: Any) -> Iterator[gym.Env]:
    env = gym.make(env_id, **kwargs)
    try:
        yield env
    finally:
        env.close()


def _info_keys_and_spaces(env_id: str, kwargs: dict[str, Any]) -> None:
    with _made(env_id, **kwargs) as env:
        obs, info = env.reset(seed=0)
        missing = [k for k in INFO_KEYS if k not in info]
        _require(not missing, f"info after reset lacks {missing}")
        _require(env.observation_space.contains(obs), "reset's observation is not in the space")
        _require(info["admissible_actions"], "a fresh episode must offer actions")
        _require(
            all(isinstance(a, str) for a in info["admissible_actions"]),
            "admissible_actions are not all strings",
        )
        action = info["admissible_actions"][0]
        _require(env.action_space.contains(action), f"{action!r} is not in the action space")
        obs, reward, terminated, truncated, info = env.step(action)
        missing = [k for k in INFO_KEYS if k not in info]
        _require(not missing, f"info after a step lacks {missing}")
        _require(env.observation_space.contains(obs), "step's observation is not in the space")
        _require(
            info["action_error"] is None,
            f"an admissible action {action!r} got action_error {info['action_error']!r}",
        )
        _require(0.0 <= info["score"] <= 1.0, f"score {info['score']!r} is not in [0, 1]")


def _malformed_actions_never_raise(env_id: str, kwargs: dict[str, Any]) -> None:
    with _made(env_id, **kwargs) as env:
        _, info0 = env.reset(seed=3)
        for action in WEIRD_ACTIONS:
            shown = repr(action)[:40]
            try:
                obs, reward, terminated, truncated, info = env.step(action)
            except Exception as exc:
                raise _Broken(f"step({shown}) raised {type(exc).__name__}: {exc}") from exc
            _require(reward == 0.0, f"step({shown}) earned {reward!r}, not 0")
            _require(
                isinstance(info["action_error"], str) and info["action_error"],
                f"step({shown}) left info['action_error'] {info['action_error']!r}",
            )
            _require(env.observation_space.contains(obs), f"step({shown})'s observation")
            _require(not terminated, f"step({shown}) ended the episode")
            # the world is unchanged: the same actions are still admissible
            _require(
                info["admissible_actions"] == info0["admissible_actions"],
                f"step({shown}) changed the admissible actions",
            )


def _bad_kwargs_list_valid_values(env_id: str, kwargs: dict[str, Any]) -> None:
    _raises(
        "'medium'",
        lambda: gym.make(env_id, **{**kwargs, "difficulty": "impossible"}),
        "make(difficulty='impossible')",
    )
    _raises(
        "'adversarial'",
        lambda: gym.make(env_id, **{**kwargs, "split": "tarin"}),
        "make(split='tarin')",
    )
    with _made(env_id, **kwargs) as env:
        _raises(
            "task_ids",
            lambda: env.reset(options={"task_id": "no-such-task"}),
            "reset(options={'task_id': 'no-such-task'})",
        )
        _raises(
            "task_id",
            lambda: env.reset(options={"taskid": "typo"}),
            "reset(options={'taskid': 'typo'})",
        )


def _usable_after_a_reset_that_raised(env_id: str, kwargs: dict[str, Any]) -> None:
    # Under Gymnasium's passive env checker every later step raised TypeError here.
    with _made(env_id, **kwargs) as env:
        _raises(
            "task",
            lambda: env.reset(options={"task_id": "no-such-task"}),
            "reset(options={'task_id': 'no-such-task'})",
        )
        try:
            obs, info = env.reset(seed=0)
            obs, reward, terminated, truncated, info = env.step(info["admissible_actions"][0])
        except Exception as exc:
            hint = ""
            if env.spec is not None and not env.spec.disable_env_checker:
                hint = (
                    " (Gymnasium's passive env checker keeps the None of a reset that raised: "
                    "register the id with disable_env_checker=True)"
                )
            raise _Broken(f"then reset and step raised {type(exc).__name__}: {exc}{hint}") from exc
        _require(env.observation_space.contains(obs), "step's observation is not in the space")
        _require(info["action_error"] is None, f"action_error {info['action_error']!r}")


def _steps_after_the_end(env_id: str, kwargs: dict[str, Any]) -> None:
    with _made(env_id, **kwargs) as env:
        obs, info = env.reset(seed=0)
        terminated = truncated = False
        while not (terminated or truncated):  # the oracle plays to the end
            obs, reward, terminated, truncated, info = env.step(info["expert_action"])
        _require(info["success"] and not truncated, "the oracle's episode (seed 0) failed")
        score = info["score"]
        for action in ("look", info["admissible_actions"][:1] or "again"):
            obs, reward, terminated, truncated, info = env.step(action)
            _require(
                (reward, terminated, truncated) == (0.0, True, False),
                f"a step after the end returned {(reward, terminated, truncated)}, "
                "not (0.0, True, False)",
            )
            _require(
                str(info["action_error"]).startswith("the episode is over"),
                f"a step after the end: action_error {info['action_error']!r}",
            )
            _require(
                info["success"] and info["score"] == score and info["expert_action"] is None,
                "a step after the end changed success/score or offered an expert_action",
            )
        _, info = env.reset(seed=1)
        _, _, terminated, _, info = env.step(info["expert_action"])
        _require(info["action_error"] is None, "the first step after reset is still over")


def _close_twice(env_id: str, kwargs: dict[str, Any]) -> None:
    env = gym.make(env_id, **kwargs)
    env.reset(seed=0)
    env.close()
    env.close()


def _every_difficulty_and_split(env_id: str, kwargs: dict[str, Any]) -> None:
    for difficulty in DIFFICULTIES:
        for split in SPLITS:
            where = f"{difficulty}/{split}"
            with _made(env_id, **{**kwargs, "difficulty": difficulty, "split": split}) as env:
                ids = env.unwrapped.task_ids()  # type: ignore[attr-defined]
                _require(len(ids) > 0, f"{where} has no task_ids()")
                _require(len(ids) == len(set(ids)), f"{where}: task_ids() repeats ids")
                _, info = env.reset(seed=0)
                _require(info["task_id"] in ids, f"{where}: reset's task_id is not in task_ids()")
                _require(
                    (info["difficulty"], info["split"]) == (difficulty, split),
                    f"{where}: info says {info['difficulty']}/{info['split']}",
                )


def _gymnasium_check_env(env_id: str, kwargs: dict[str, Any]) -> None:
    with _made(env_id, **kwargs) as env:
        check_env(env.unwrapped, skip_render_check=True)


def _seeded_rollouts_identical(env_id: str, kwargs: dict[str, Any]) -> None:
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED"}
    runs = []
    for hash_seed in ("1", "2"):
        result = subprocess.run(
            [sys.executable, "-c", ROLLOUT, env_id, json.dumps(kwargs)],
            capture_output=True,
            text=True,
            env={"PYTHONHASHSEED": hash_seed, **environ},
        )
        _require(
            result.returncode == 0,
            f"the rollout process failed (exit {result.returncode}): {result.stderr[-2000:]}",
        )
        runs.append(json.loads(result.stdout))
    _require(runs[0] == runs[1], "two processes (PYTHONHASHSEED 1 and 2) played differently")
    _require(len(runs[0]) > 3, "the rollout recorded too few steps")


def _single_env_run(env_id: str, kwargs: dict[str, Any], seeds: list[int]) -> list[tuple]:
    """reset(seed) then one step with the first admissible action, env by env."""
    out = []
    for seed in seeds:
        with _made(env_id, **kwargs) as env:
            obs, info = env.reset(seed=seed)
            action = info["admissible_actions"][0]
            out.append((obs, info["task_id"], action, *env.step(action)[:2]))
    return out


def _works_inside_vector_envs(env_id: str, kwargs: dict[str, Any]) -> None:
    seeds = [5, 6]
    expected = _single_env_run(env_id, kwargs, seeds)
    plain = gym.vector.AsyncVectorEnv(
        [lambda: gym.make(env_id, **kwargs) for _ in seeds], shared_memory=False
    )
    ours = make_vec(env_id, num_envs=len(seeds), **kwargs)
    try:
        for name, vector_env in (("gym.vector.AsyncVectorEnv", plain), ("make_vec", ours)):
            obs, infos = vector_env.reset(seed=seeds)  # type: ignore[arg-type]
            actions = [infos["admissible_actions"][i][0] for i in range(len(seeds))]
            next_obs, rewards, *_ = vector_env.step(actions)
            got = list(zip(obs, infos["task_id"], actions, next_obs, rewards, strict=True))
            _require(got == expected, f"{name} disagrees with single envs on the same seeds")
    finally:
        plain.close()
        ours.close()


#: The rules, in the order they are checked (cheap and specific first).
RULES: tuple[tuple[str, Callable[[str, dict[str, Any]], None]], ...] = (
    ("info keys and spaces", _info_keys_and_spaces),
    ("malformed actions never raise", _malformed_actions_never_raise),
    ("bad make kwargs and task ids list the valid values", _bad_kwargs_list_valid_values),
    ("usable after a reset that raised", _usable_after_a_reset_that_raised),
    ("steps after the end keep reporting it until reset", _steps_after_the_end),
    ("close twice is safe", _close_twice),
    ("every difficulty and split makes and resets", _every_difficulty_and_split),
    ("gymnasium check_env passes", _gymnasium_check_env),
    ("seeded rollouts identical across processes", _seeded_rollouts_identical),
    ("works inside vector envs", _works_inside_vector_envs),
)


def _check_registered(env_id: str) -> None:
    module, _, name = env_id.rpartition(":")
    if module:  # gymnasium's "module:Id" form: the module registers the id
        importlib.import_module(module)
    if name not in gym.registry:
        raise ValueError(
            f"{env_id}: rule 'registered' broken: no such id in gymnasium's registry "
            "(AgentGym families register in agentgym_envs/registration.py; or pass 'module:Id')"
        )


def check_text_env(env_id: str, **make_kwargs: Any) -> None:
    """Check the env contract (docs/ARCHITECTURE.md §3) on ``env_id``, made with ``make_kwargs``.

    One rule replays episodes in a fresh interpreter: there ``make_kwargs`` arrive as JSON and
    the id must be registered by ``import agentgym_envs`` or be given as ``"module:Id"``.

    Rules: the id is registered; reset and step infos hold every ``INFO_KEYS`` key, observations
    and actions lie in their Text spaces, a score in [0, 1]; agent text never makes ``step``
    raise (0 reward, an ``action_error``, nothing changed); a bad difficulty, split, task id or
    reset option is a ValueError listing the valid ones; a reset that raised leaves the env
    usable; steps after the end repeat it until reset; ``close()`` twice is safe; every
    difficulty x split makes, has distinct task ids and resets into them; Gymnasium's
    ``check_env`` passes; seeded episodes are the same in two processes; the env works inside
    Gymnasium's ``AsyncVectorEnv`` and ``agentgym_envs.make_vec``.

    Raises ``ValueError`` for an unregistered id and ``AssertionError`` naming the first broken
    rule otherwise.
    """
    _check_registered(env_id)
    kwargs = dict(make_kwargs)
    for rule, check in RULES:
        try:
            check(env_id, kwargs)
        except _Broken as exc:
            raise AssertionError(f"{env_id}: rule {rule!r} broken: {exc}") from exc
        except Exception as exc:
            raise AssertionError(
                f"{env_id}: rule {rule!r} broken: {type(exc).__name__}: {exc}"
            ) from exc


__all__ = ["RULES", "WEIRD_ACTIONS", "check_text_env"]
