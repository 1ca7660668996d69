"""Benchmark suites: a versioned YAML protocol resolved into a fixed, hashed list of episodes.

A suite file (``benchmarks/suites/<name>.yaml``) names env ids and, per id, the difficulties,
splits, how many tasks of each fixed task list (``episodes``: a count or ``all``, or explicit
``task_ids``), an optional ``max_steps`` (default: the id's registered limit) and prompt settings
for LLM agents (``prompt``: ``PromptFormatter`` fields). Resolving it asks each env for its task
lists, so the result is exact: one ``EpisodeSpec`` per (env, difficulty, split, task), with the
task's position in its list as its seed. The hash of the resolved list is what a result and a
leaderboard submission are checked against; ``version`` is bumped whenever a change alters it.
Envs whose dependencies are not installed are skipped with the reason (``Resolved.skipped``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import yaml

import agentgym_envs  # noqa: F401  (registers the ids)
from agentgym_envs.core.episode import episode_key
from agentgym_envs.core.splits import DIFFICULTIES, SPLITS
from agentgym_envs.registration import entry_for

SUITES_DIR = Path(__file__).resolve().parents[1] / "suites"
SUITE_KEYS = {"name", "version", "description", "envs"}
ENV_KEYS = {"difficulties", "splits", "episodes", "task_ids", "max_steps", "prompt"}


class SuiteError(ValueError):
    """A suite file that cannot be used, with what to change."""


@dataclass(frozen=True)
class EpisodeSpec:
    """One episode of a suite: which task, with which seed and step limit."""

    env_id: str
    difficulty: str
    split: str
    task_id: str
    seed: int
    max_steps: int

    @property
    def key(self) -> str:
        """Identifies the episode in result files (resume, replay, leaderboards)."""
        return episode_key(self.env_id, self.difficulty, self.split, self.task_id, self.seed)


@dataclass
class Resolved:
    """A suite with its exact episode list."""

    name: str
    version: int
    description: str
    episodes: list[EpisodeSpec]
    prompts: dict[str, dict[str, Any]] = field(default_factory=dict)  # env id -> prompt settings
    skipped: dict[str, str] = field(default_factory=dict)  # env id -> why
    file: str = ""  # the YAML it came from
    #: env id -> its ``content_version()`` here (source digest, catalog, page package)
    env_versions: dict[str, str] = field(default_factory=dict)

    @property
    def hash(self) -> str:
        """SHA-256 of the resolved episodes and prompt settings (canonical JSON)."""
        payload = {
            "episodes": [asdict(e) for e in self.episodes],
            "prompts": self.prompts,
        }
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "hash": self.hash,
                "episodes": len(self.episodes), "skipped": self.skipped,
                "file": self.file, "env_versions": self.env_versions}  # fmt: skip


def suite_path(name_or_path: str) -> Path:
    """A suite by name (``quick``, ``full``) or by path to a YAML file."""
    path = Path(name_or_path)
    if path.suffix in (".yaml", ".yml") or path.exists():
        if not path.exists():
            raise SuiteError(f"no suite file {path}")
        return path
    candidate = SUITES_DIR / f"{name_or_path}.yaml"
    if not candidate.exists():
        known = ", ".join(sorted(p.stem for p in SUITES_DIR.glob("*.yaml")))
        raise SuiteError(f"unknown suite {name_or_path!r}; known: {known} (or a path to a YAML)")
    return candidate


def load_suite(name_or_path: str) -> dict[str, Any]:
    """The suite's YAML, checked for shape (unknown keys and bad values name the fix)."""
    path = suite_path(name_or_path)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not set(data) <= SUITE_KEYS or "envs" not in data:
        raise SuiteError(f"{path}: a suite is a mapping with keys {sorted(SUITE_KEYS)}")
    for key in ("name", "version"):
        if key not in data:
            raise SuiteError(f"{path}: missing {key!r}")
    for env_id, spec in data["envs"].items():
        unknown = set(spec or {}) - ENV_KEYS
        if unknown:
            raise SuiteError(f"{path}: {env_id}: unknown keys {sorted(unknown)}; "
                             f"allowed: {sorted(ENV_KEYS)}")  # fmt: skip
        for key, valid in (("difficulties", DIFFICULTIES), ("splits", SPLITS)):
            bad = [v for v in (spec or {}).get(key, []) if v not in valid]
            if bad:
                raise SuiteError(f"{path}: {env_id}: {key} {bad} not among {list(valid)}")
        episodes = (spec or {}).get("episodes", "all")
        if episodes != "all" and (not isinstance(episodes, int) or episodes < 1):
            raise SuiteError(f"{path}: {env_id}: episodes must be a positive int or 'all'")
    return data


def resolve(name_or_path: str, env_ids: list[str] | None = None) -> Resolved:
    """The suite's episodes on the installed envs (``env_ids`` keeps only those)."""
    data = load_suite(name_or_path)
    resolved = Resolved(data["name"], int(data["version"]), data.get("description", ""), [],
                        file=str(suite_path(name_or_path)))  # fmt: skip
    for env_id, spec in data["envs"].items():
        if env_ids is not None and env_id not in env_ids:
            continue
        spec = spec or {}
        entry = entry_for(env_id)
        missing = entry.missing()
        if missing:
            resolved.skipped[env_id] = f"missing {', '.join(missing)} ({entry.install_hint()})"
            continue
        max_steps = int(spec.get("max_steps") or entry.max_episode_steps)
        if spec.get("prompt"):
            resolved.prompts[env_id] = dict(spec["prompt"])
        found: set[str] = set()
        for difficulty in spec.get("difficulties", list(entry.difficulties)):
            if difficulty not in entry.difficulties:
                continue
            for split in spec.get("splits", ["test", "ood", "adversarial"]):
                if split not in entry.splits:  # a held-out MiniWoB task serves ood only
                    continue
                ids, version = _task_ids(env_id, difficulty, split, spec)
                resolved.env_versions.setdefault(env_id, version)
                for seed, task_id in enumerate(ids):
                    found.add(task_id)
                    resolved.episodes.append(
                        EpisodeSpec(env_id, difficulty, split, task_id, seed, max_steps)
                    )
        unknown = [t for t in spec.get("task_ids") or [] if t not in found]
        if unknown:
            raise SuiteError(f"{env_id}: task_ids {unknown[:3]} are in none of its "
                             "difficulty/split lists (see env.unwrapped.task_ids())")  # fmt: skip
    return resolved


def _task_ids(
    env_id: str, difficulty: str, split: str, spec: dict[str, Any]
) -> tuple[list[str], str]:
    """The list's tasks the suite plays, and the env's content version."""
    env = gym.make(env_id, difficulty=difficulty, split=split)
    try:
        ids = list(env.unwrapped.task_ids())
        content = getattr(env.unwrapped, "content_version", None)
        version = content() if callable(content) else "unknown"
    finally:
        env.close()
    if spec.get("task_ids"):
        return [t for t in spec["task_ids"] if t in set(ids)], version
    episodes = spec.get("episodes", "all")
    return (ids if episodes == "all" else ids[: int(episodes)]), version


__all__ = ["EpisodeSpec", "Resolved", "SuiteError", "load_suite", "resolve", "suite_path"]
