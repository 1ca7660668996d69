"""Benchmark suites: a versioned YAML protocol resolved into a fixed, hashed list of episodes.

A suite file (``benchmarks/suites/<name>.yaml``) names env ids and, per id, the difficulties,
splits, how many tasks of each fixed task list (``episodes``: a count or ``all``, or explicit
``task_ids``), an optional ``max_steps`` (default: the id's registered limit) and prompt settings
for LLM agents (``prompt``: ``PromptFormatter`` fields, see ``PROMPT_KEYS``; a top-level
``prompt`` applies to every env, an env's own overrides it). Resolving it asks each env for its
task lists, so the result is exact: one ``EpisodeSpec`` per (env, difficulty, split, task), with
the task's position in its list as its seed. The hash of the resolved list is what a result and a
leaderboard submission are checked against; ``version`` is bumped whenever a change alters it.
Envs whose dependencies are not installed are skipped with the reason (``Resolved.skipped``).

An ablation suite adds ``variants``: a list of ``{name, prompt, description}``, each overriding
the prompt settings. Every episode is then played once per variant (``EpisodeSpec.variant``,
part of its key), and summaries and reports give one row per variant per env x difficulty x
split. Prompt settings and variants are part of the hash; a suite without them hashes as before.
Only agents that build prompts (``openai:``, ``hf:``, ``run:``, or a custom agent exposing a
``PromptFormatter``) use them.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import yaml

import agentgym_envs  # noqa: F401  (registers the ids)
from agentgym_envs.core.episode import episode_key
from agentgym_envs.core.splits import DIFFICULTIES, HELD_OUT, SPLITS
from agentgym_envs.registration import entry_for

SUITES_DIR = Path(__file__).resolve().parents[1] / "suites"
SUITE_KEYS = {"name", "version", "description", "envs", "prompt", "variants", "max_error_rate"}
#: the share of a run's episodes that may be errors before the verifier refuses the run (a
#: suite's ``max_error_rate`` overrides it): errors are failures on the board, but a run made
#: mostly of them says more about the agent's set-up (a server down, a wrong option) than its skill
MAX_ERROR_RATE = 0.1
#: what a published suite's name may be (it names a file in ``SUITES_DIR`` and board folders)
SUITE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
ENV_KEYS = {"difficulties", "splits", "episodes", "task_ids", "max_steps", "prompt"}
VARIANT_KEYS = {"name", "prompt", "description"}
#: the ``PromptFormatter`` fields a suite may set, and the check each value must pass
PROMPT_KEYS: dict[str, tuple[str, Any]] = {
    "max_history_tokens": ("a positive int", lambda v: _is_int(v) and v > 0),
    "max_history_turns": ("an int >= 0, or null for all turns",
                          lambda v: v is None or (_is_int(v) and v >= 0)),
    "show_admissible": ("true or false", lambda v: isinstance(v, bool)),
    "reasoning": ("true or false", lambda v: isinstance(v, bool)),
    "system_template": ("a string with {action_help}, or null",
                        lambda v: v is None or isinstance(v, str)),
}  # fmt: skip
_VARIANT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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
    #: the suite variant (prompt settings) it is played under; "" in a suite without variants
    variant: str = ""

    @property
    def key(self) -> str:
        """Identifies the episode in result files (resume, replay, leaderboards); a variant's
        episode adds ``|<variant>``."""
        key = episode_key(self.env_id, self.difficulty, self.split, self.task_id, self.seed)
        return f"{key}|{self.variant}" if self.variant else key

    def fields(self) -> dict[str, Any]:
        """The spec as a record's fields (no ``variant`` in a suite without variants, so such
        records and hashes are what they were before variants existed)."""
        fields = asdict(self)
        if not self.variant:
            del fields["variant"]
        return fields


@dataclass
class Resolved:
    """A suite with its exact episode list."""

    name: str
    version: int
    description: str
    episodes: list[EpisodeSpec]
    prompts: dict[str, dict[str, Any]] = field(default_factory=dict)  # env id -> prompt settings
    #: variant name -> the prompt settings it overrides, in the suite's order (empty: none)
    variants: dict[str, dict[str, Any]] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)  # env id -> why
    file: str = ""  # the YAML it came from
    #: env id -> its ``content_version()`` here (source digest, catalog, page package)
    env_versions: dict[str, str] = field(default_factory=dict)
    #: the share of errored episodes above which the verifier refuses a run (not in the hash:
    #: it judges runs, it does not change what is played)
    max_error_rate: float = MAX_ERROR_RATE

    @property
    def hash(self) -> str:
        """SHA-256 of the resolved episodes, prompt settings and variants (canonical JSON)."""
        payload: dict[str, Any] = {
            "episodes": [e.fields() for e in self.episodes],
            "prompts": self.prompts,
        }
        if self.variants:
            payload["variants"] = self.variants
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def prompt_for(self, env_id: str, variant: str = "") -> dict[str, Any]:
        """The prompt settings an episode of ``env_id`` under ``variant`` is played with."""
        return {**self.prompts.get(env_id, {}), **self.variants.get(variant, {})}

    def describe(self) -> dict[str, Any]:
        described = {"name": self.name, "version": self.version, "hash": self.hash,
                     "episodes": len(self.episodes), "skipped": self.skipped,
                     "file": self.file, "env_versions": self.env_versions}  # fmt: skip
        if self.prompts:
            described["prompts"] = self.prompts
        if self.variants:
            described["variants"] = self.variants
        return described

    @property
    def published(self) -> bool:
        """True when this is the suite of that name in ``SUITES_DIR`` (the board's suites)."""
        return self.file == str(SUITES_DIR / f"{self.name}.yaml")


def published_suite(name: Any) -> Path | None:
    """The published suite file named ``name`` (None: no such suite; a name that is not a
    plain suite name, such as a path, is never one)."""
    if not isinstance(name, str) or not SUITE_NAME.fullmatch(name):
        return None
    path = SUITES_DIR / f"{name}.yaml"
    return path if path.is_file() else None


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
    if not isinstance(data["name"], str) or not SUITE_NAME.fullmatch(data["name"]):
        raise SuiteError(f"{path}: name must be lower-case letters, digits, '-' or '_' "
                         f"(64 at most), got {data['name']!r}")  # fmt: skip
    rate = data.get("max_error_rate", MAX_ERROR_RATE)
    if isinstance(rate, bool) or not isinstance(rate, int | float) or not 0 <= rate < 1:
        raise SuiteError(f"{path}: max_error_rate must be a share in [0, 1), got {rate!r}")
    _check_prompt(data.get("prompt"), f"{path}: prompt")
    _check_variants(data.get("variants"), path)
    for env_id, spec in data["envs"].items():
        _check_prompt((spec or {}).get("prompt"), f"{path}: {env_id}: prompt")
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


def _check_prompt(prompt: Any, where: str) -> None:
    if prompt is None:
        return
    if not isinstance(prompt, dict):
        raise SuiteError(f"{where}: a mapping of prompt settings ({sorted(PROMPT_KEYS)})")
    for key, value in prompt.items():
        if key not in PROMPT_KEYS:
            raise SuiteError(f"{where}: unknown prompt setting {key!r}; "
                             f"allowed: {sorted(PROMPT_KEYS)}")  # fmt: skip
        what, valid = PROMPT_KEYS[key]
        if not valid(value):
            raise SuiteError(f"{where}: {key} must be {what}, got {value!r}")


def _check_variants(variants: Any, path: Path) -> None:
    if variants is None:
        return
    if not isinstance(variants, list) or not variants:
        raise SuiteError(f"{path}: variants is a non-empty list of {{name, prompt}} mappings")
    names = []
    for index, variant in enumerate(variants):
        where = f"{path}: variants[{index}]"
        if not isinstance(variant, dict) or not set(variant) <= VARIANT_KEYS:
            raise SuiteError(f"{where}: a mapping with keys {sorted(VARIANT_KEYS)}")
        name = variant.get("name")
        if not isinstance(name, str) or not _VARIANT_NAME.fullmatch(name):
            raise SuiteError(f"{where}: name must be letters, digits, '.', '_' or '-' "
                             f"(it is part of episode keys), got {name!r}")  # fmt: skip
        if name in names:
            raise SuiteError(f"{where}: variant {name!r} appears twice")
        names.append(name)
        _check_prompt(variant.get("prompt"), f"{where}: prompt")


def resolve(name_or_path: str, env_ids: list[str] | None = None) -> Resolved:
    """The suite's episodes on the installed envs (``env_ids`` keeps only those)."""
    data = load_suite(name_or_path)
    resolved = Resolved(data["name"], int(data["version"]), data.get("description", ""), [],
                        file=str(suite_path(name_or_path).resolve()),
                        max_error_rate=float(data.get("max_error_rate",
                                                      MAX_ERROR_RATE)))  # fmt: skip
    resolved.variants = {v["name"]: dict(v.get("prompt") or {}) for v in data.get("variants") or []}
    variants = list(resolved.variants) or [""]
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
        prompt = {**(data.get("prompt") or {}), **(spec.get("prompt") or {})}
        if prompt:
            resolved.prompts[env_id] = prompt
        found: set[str] = set()
        for difficulty in spec.get("difficulties", list(entry.difficulties)):
            if difficulty not in entry.difficulties:
                continue
            for split in spec.get("splits", list(HELD_OUT)):
                if split not in entry.splits:  # a held-out MiniWoB task serves ood only
                    continue
                ids, version = _task_ids(env_id, difficulty, split, spec)
                resolved.env_versions.setdefault(env_id, version)
                for seed, task_id in enumerate(ids):
                    found.add(task_id)
                    resolved.episodes.extend(  # a task's variants side by side
                        EpisodeSpec(env_id, difficulty, split, task_id, seed, max_steps, variant)
                        for variant in variants
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
        ids = list(env.unwrapped.task_ids())  # type: ignore[attr-defined]  # every TextEnv has it
        content = getattr(env.unwrapped, "content_version", None)
        version = content() if callable(content) else "unknown"
    finally:
        env.close()
    if spec.get("task_ids"):
        return [t for t in spec["task_ids"] if t in set(ids)], version
    episodes = spec.get("episodes", "all")
    return (ids if episodes == "all" else ids[: int(episodes)]), version


__all__ = [
    "MAX_ERROR_RATE",
    "PROMPT_KEYS",
    "EpisodeSpec",
    "Resolved",
    "SuiteError",
    "load_suite",
    "published_suite",
    "resolve",
    "suite_path",
]
