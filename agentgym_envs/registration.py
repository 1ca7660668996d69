"""The one table of AgentGym env ids. Registering is cheap: entry points are strings, so no env
module (and none of its heavy dependencies) is imported until ``gymnasium.make``."""

from __future__ import annotations

import difflib
import importlib.util
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

from agentgym_envs.core.async_worker import text_env_worker
from agentgym_envs.core.splits import DIFFICULTIES, SPLITS
from agentgym_envs.miniwob.tasks import registration_entries as miniwob_registration_entries
from agentgym_envs.miniwob.tasks import task_splits as miniwob_task_splits


@dataclass(frozen=True)
class EnvEntry:
    """One registered id: where its class lives, its step budget, its default kwargs."""

    id: str
    entry_point: str
    max_episode_steps: int
    kwargs: dict[str, Any] = field(default_factory=dict)
    extra: str | None = None  # the pip extra it needs, for helpful messages
    #: what pip's extra cannot install (a source build, a browser), in words
    system_setup: str = ""
    requires: tuple[str, ...] = ()  # modules that must be importable (checked without importing)
    summary: str = ""
    #: "module:function" returning (ready, why) for needs beyond Python modules (a browser binary)
    probe: str | None = None
    #: the difficulties this id can be made with (one MiniWoB task has its own tier only)
    difficulties: tuple[str, ...] = DIFFICULTIES
    #: the splits this id serves, its default first (a held-out MiniWoB task: ood only)
    splits: tuple[str, ...] = SPLITS
    #: "module:Class" of the family's own VectorEnv (``make_vec(..., vectorization_mode=
    #: "vector_entry_point")``), None where Gymnasium's sync/async vector envs are the way
    vector_entry_point: str | None = None

    def missing(self) -> list[str]:
        """What is not installed (empty when the env can be made): modules, then the probe's why."""
        absent = [name for name in self.requires if importlib.util.find_spec(name) is None]
        if not absent and self.probe is not None:
            module, _, function = self.probe.partition(":")
            ready, why = getattr(importlib.import_module(module), function)()
            if not ready:
                absent.append(why)
        return absent

    @property
    def family(self) -> str:
        """The env family: the package its class lives in (toy, webshop, alfworld, miniwob)."""
        return self.entry_point.partition(":")[0].split(".")[1]

    def install_hint(self) -> str:
        """How to install what this id needs, for a wheel install and a source checkout alike."""
        if not self.extra:
            return ""
        hint = f"pip install 'agentgym-suite[{self.extra}]'"
        return f"{hint}, then {self.system_setup}" if self.system_setup else hint


ENTRIES: list[EnvEntry] = [
    EnvEntry(
        id="AgentGym/Toy-v0",
        entry_point="agentgym_envs.toy.env:ToyEnv",
        max_episode_steps=30,
        summary="Built-in text house: go to a room, carry an object, unlock a door.",
    ),
    EnvEntry(
        id="AgentGym/WebShop-v0",
        entry_point="agentgym_envs.webshop.env:WebShopEnv",
        max_episode_steps=100,  # the original's evaluation limit
        extra="webshop",
        requires=("bm25s", "Stemmer"),
        summary="Offline WebShop: search a 100k-product catalog, pick options, buy.",
    ),
    EnvEntry(
        id="AgentGym/ALFWorld-v0",
        entry_point="agentgym_envs.alfworld.env:ALFWorldEnv",
        max_episode_steps=50,  # ALFWorld's own limit
        extra="alfworld",
        system_setup=(
            "build the fast-downward-textworld 20.6.4 planner from source (gcc, g++, make, "
            "cmake) and add alfworld 0.4.2 with --no-deps: scripts/install_alfworld.sh in the "
            "AgentGym sources does both"
        ),
        requires=("textworld", "fast_downward", "alfworld"),
        summary="ALFWorld households (6 task types) played by TextWorld's PDDL engine.",
    ),
    *(
        EnvEntry(
            **row,
            extra="miniwob",
            system_setup=(
                "pip install --no-deps miniwob==1.1.0 and a Chromium (apt-get install "
                "chromium, or AGENTGYM_CHROMIUM=/path/to/chrome): scripts/install_miniwob.sh in "
                "the AgentGym sources does both"
            ),
            requires=("playwright", "miniwob"),
            probe="agentgym_envs.miniwob.browser:browser_available",
            vector_entry_point="agentgym_envs.miniwob.vector:MiniWoBVectorEnv",
            summary="MiniWoB++ in text: Farama's task pages driven by Playwright and Chromium.",
        )
        for row in miniwob_registration_entries()
    ),
]


def one_per_family(entries: list[EnvEntry] | None = None) -> list[EnvEntry]:
    """The first id of each env family in ``entries`` (default: all): the family's main id
    (MiniWoB's tier env, not one of its single-task ids)."""
    seen: dict[str, EnvEntry] = {}
    for entry in ENTRIES if entries is None else entries:
        seen.setdefault(entry.family, entry)
    return list(seen.values())


def register_all() -> None:
    """Register every entry with Gymnasium (idempotent)."""
    for entry in ENTRIES:
        if entry.id in gym.registry:
            continue
        gym.register(
            id=entry.id,
            entry_point=entry.entry_point,
            vector_entry_point=entry.vector_entry_point,
            max_episode_steps=entry.max_episode_steps,
            kwargs=dict(entry.kwargs),
            # Gymnasium 1.4's passive checker keeps None from a reset that raised (a bad task_id)
            # and then fails every later step; tests run the full check_env on every family.
            disable_env_checker=True,
        )


def entry_for(env_id: str) -> EnvEntry:
    """The table entry for ``env_id``; ValueError naming the closest ids otherwise."""
    for entry in ENTRIES:
        if entry.id == env_id:
            return entry
    raise ValueError(f"unknown env id {env_id!r}{did_you_mean(env_id, [e.id for e in ENTRIES])}")


def env_class(env_id: str) -> Any:
    """The class (or function) registered ``env_id`` makes, loaded without making an env: what
    its keywords and class attributes (``action_set``, ``real_time_tasks``) are read from."""
    from gymnasium.envs.registration import load_env_creator

    entry_point = gym.spec(env_id).entry_point
    return entry_point if callable(entry_point) else load_env_creator(str(entry_point))


def served_splits(env_id: str, env_kwargs: Mapping[str, Any] | None = None) -> tuple[str, ...]:
    """The splits ``env_id`` made with ``env_kwargs`` serves, its default first: the entry's,
    narrowed to the task's own where the kwargs pick one task (``AgentGym/MiniWoB-v0`` with
    ``task="click-test-2"`` serves what ``AgentGym/MiniWoB-click-test-2-v0`` serves)."""
    entry = entry_for(env_id)
    task = (env_kwargs or {}).get("task")
    if task is None or entry.family != "miniwob":
        return entry.splits
    return tuple(split for split in miniwob_task_splits(task) if split in entry.splits)


def close_matches(name: str, known: Sequence[str]) -> list[str]:
    """Up to three names in ``known`` that ``name`` was probably meant to be."""
    lowered = name.lower()
    return (
        difflib.get_close_matches(name, known, n=3, cutoff=0.85)
        or [k for k in known if lowered in k.lower()][:3]
        or difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    )


def did_you_mean(
    name: str, known: Sequence[str], otherwise: str = "; `agentgym list` shows them all"
) -> str:
    """'; did you mean A or B?' for the names closest to ``name``; else ``otherwise``."""
    close = close_matches(name, known)
    return f"; did you mean {' or '.join(close)}?" if close else otherwise


def make_vec(
    env_id: str | gym.envs.registration.EnvSpec,
    num_envs: int = 1,
    vectorization_mode: str = "async",
    **kwargs: Any,
) -> gym.vector.VectorEnv:
    """``gymnasium.make_vec`` with the one setting text envs need.

    Gymnasium's async shared memory reads non-array observations once, when the vector env is built
    (Gymnasium issue #1164), so Text observations would stay stale; async envs here send them
    through the worker pipes instead (``shared_memory=False``), served by
    ``core.async_worker.text_env_worker`` (Gymnasium's worker in that mode lets a ``reset_mask``
    reset of an ended env be undone by the next step).
    """
    vector_kwargs = dict(kwargs.pop("vector_kwargs", None) or {})
    if vectorization_mode == "async":
        vector_kwargs.setdefault("shared_memory", False)
        if not vector_kwargs["shared_memory"]:
            vector_kwargs.setdefault("worker", text_env_worker)
    return gym.make_vec(
        env_id,
        num_envs=num_envs,
        vectorization_mode=vectorization_mode,
        vector_kwargs=vector_kwargs,
        **kwargs,
    )
