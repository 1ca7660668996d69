"""Build, verify and cache the game behind each task id.

A game is built lazily the first time its id is played: generated, written as ``game.tw-pddl``,
loaded into the engine, rejected if its goal already holds at reset or the planner finds no plan,
and its plan replayed to check that it wins. The plan is stored as the game's walkthrough (the
oracle). The next attempt seed is tried on rejection, so every id maps to one fixed game.

Cache: ``$AGENTGYM_CACHE/alfworld/v<GENERATOR_VERSION>/<difficulty>/<split>/<index>/`` (default
root ``~/.cache/agentgym``) holds ``game.tw-pddl``, ``translation.pkl`` and ``manifest.json`` with
the SHA-256 of both; an entry whose manifest is missing or whose hashes differ is rebuilt.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pickle
import shutil
import tempfile
from collections import OrderedDict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from agentgym_envs.alfworld.generator import GENERATOR_VERSION, GenerationError, generate
from agentgym_envs.alfworld.household import Household
from agentgym_envs.alfworld.pddl_writer import game_json
from agentgym_envs.core.cache import cache_home

MAX_ATTEMPTS = 200


def cache_root() -> Path:
    return cache_home() / "alfworld" / f"v{GENERATOR_VERSION}"


@dataclass
class BuiltGame:
    game: dict[str, Any]  # game.tw-pddl content, with our metadata under "agentgym"
    translation: Any  # engine.Translation

    @property
    def walkthrough(self) -> list[str]:
        return list(self.game["walkthrough"])

    @property
    def meta(self) -> dict[str, Any]:
        return self.game["agentgym"]


def _seed(difficulty: str, split: str, index: int, attempt: int) -> str:
    return f"{difficulty}:{split}:{index}:{attempt}"


def verify(
    engine: Any, game: dict[str, Any], task: dict[str, Any], use_fast_downward: bool = False
) -> list[str] | None:
    """A winning walkthrough, or None if the game is unfit (goal true at reset, or unsolved).

    The walkthrough comes from the task-aware planner (``expert``) or, if asked, fast-downward;
    either way it is replayed through the engine, whose PDDL goal check must end up true.
    """
    engine.load(game)
    engine.reset()
    if engine.won:
        return None
    plan = engine.plan() if use_fast_downward else engine.expert_plan(task)
    if not plan:
        return None
    for command in plan:
        _, applied = engine.step(command)
        if not applied:
            return None
    return plan if engine.won else None


def build(engine: Any, difficulty: str, split: str, index: int) -> BuiltGame:
    """Generate attempts for this id until one verifies."""
    from agentgym_envs.alfworld.engine import translate

    for attempt in range(MAX_ATTEMPTS):
        try:
            house = generate(
                _seed(difficulty, split, index, attempt),
                difficulty,
                ood=split == "ood",
                adversarial=split == "adversarial",
            )
        except GenerationError:
            continue
        name = f"agentgym_{difficulty}_{split}_{index}"
        game = game_json(house, name)
        walkthrough = verify(engine, game, asdict(house.task))
        if walkthrough is None:
            continue
        game["solvable"], game["walkthrough"] = True, walkthrough
        game["agentgym"] = _metadata(house, difficulty, split, index, attempt)
        return BuiltGame(game, translate(game["pddl_domain"], game["pddl_problem"]))
    raise RuntimeError(
        f"no valid ALFWorld game for {difficulty}/{split}/{index} in {MAX_ATTEMPTS} attempts"
    )


def _metadata(
    house: Household, difficulty: str, split: str, index: int, attempt: int
) -> dict[str, Any]:
    return {
        "generator_version": GENERATOR_VERSION,
        "difficulty": difficulty,
        "split": split,
        "index": index,
        "attempt": attempt,
        "layout": house.layout,
        "room": house.room,
        "num_receptacles": len(house.receptacles),
        "num_closed_receptacles": sum(r.openable for r in house.receptacles),
        "task": asdict(house.task),
        "decoys": list(house.decoy_classes),
        "fingerprint": hashlib.sha256(repr(house.fingerprint()).encode()).hexdigest(),
    }


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load_cached(folder: Path) -> BuiltGame | None:
    """The cached game in ``folder``, or None if it is missing, partial or corrupt."""
    try:
        manifest = json.loads((folder / "manifest.json").read_text())
        game_file, translation_file = folder / "game.tw-pddl", folder / "translation.pkl"
        if manifest.get("generator_version") != GENERATOR_VERSION:
            return None
        if (
            _digest(game_file) != manifest["game_sha256"]
            or _digest(translation_file) != manifest["translation_sha256"]
        ):
            return None
        game = json.loads(game_file.read_text())
        with open(translation_file, "rb") as handle:
            translation = pickle.load(handle)
        return BuiltGame(game, translation)
    except (OSError, ValueError, KeyError, pickle.UnpicklingError, EOFError, AttributeError):
        return None


def save(folder: Path, built: BuiltGame) -> None:
    """Write atomically: a temporary sibling folder is renamed into place when complete."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=folder.name + ".tmp-", dir=folder.parent))
    try:
        (tmp / "game.tw-pddl").write_text(json.dumps(built.game))
        with open(tmp / "translation.pkl", "wb") as handle:
            pickle.dump(built.translation, handle, protocol=pickle.HIGHEST_PROTOCOL)
        manifest = {
            "generator_version": GENERATOR_VERSION,
            "game_sha256": _digest(tmp / "game.tw-pddl"),
            "translation_sha256": _digest(tmp / "translation.pkl"),
        }
        (tmp / "manifest.json").write_text(json.dumps(manifest))
        if folder.exists():
            shutil.rmtree(folder, ignore_errors=True)
        os.replace(tmp, folder)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


_RECENT: OrderedDict[tuple, BuiltGame] = OrderedDict()
_RECENT_SIZE = 64


def get_game(
    engine: Any, difficulty: str, split: str, index: int, use_cache: bool = True
) -> BuiltGame:
    """The game for one task id: from memory or a valid disk entry, else built and cached."""
    folder = cache_root() / difficulty / split / f"{index:05d}"
    key = (str(folder), use_cache)
    if key in _RECENT:
        _RECENT.move_to_end(key)
        return _RECENT[key]
    built = _get_game(engine, folder, difficulty, split, index, use_cache)
    _RECENT[key] = built
    while len(_RECENT) > _RECENT_SIZE:
        _RECENT.popitem(last=False)
    return built


def _get_game(
    engine: Any, folder: Path, difficulty: str, split: str, index: int, use_cache: bool
) -> BuiltGame:
    if use_cache:
        cached = load_cached(folder)
        if cached is not None:
            return cached
    built = build(engine, difficulty, split, index)
    if use_cache:
        with contextlib.suppress(OSError):  # a read-only cache only costs rebuild time
            save(folder, built)
    return built


def prebuild(difficulties: list[str], splits: list[str], limit: int | None = None) -> int:
    """Build (or check) every cached game of the given lists; returns how many were handled."""
    from tqdm import tqdm

    from agentgym_envs.alfworld.engine import GameEngine
    from agentgym_envs.alfworld.splits import TASK_TABLE

    engine = GameEngine()
    jobs = [
        (d, s, i)
        for d in difficulties
        for s in splits
        for i in range(min(TASK_TABLE.size(d, s), limit or TASK_TABLE.size(d, s)))
    ]
    try:
        for difficulty, split, index in tqdm(jobs, desc="ALFWorld games", unit="game"):
            get_game(engine, difficulty, split, index)
            _RECENT.clear()
    finally:
        engine.close()
    return len(jobs)


def main(argv: list[str] | None = None) -> None:
    """``python -m agentgym_envs.alfworld.games``: fill the cache ahead of time."""
    import argparse

    from agentgym_envs.core import DIFFICULTIES, SPLITS

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--difficulty", nargs="+", default=list(DIFFICULTIES), choices=DIFFICULTIES)
    parser.add_argument("--split", nargs="+", default=[s for s in SPLITS if s != "train"])
    parser.add_argument("--limit", type=int, default=None, help="at most this many ids per list")
    args = parser.parse_args(argv)
    for split in args.split:
        if split not in SPLITS:
            parser.error(f"--split {split!r}: choose from {', '.join(SPLITS)}")
    count = prebuild(args.difficulty, args.split, args.limit)
    print(f"{count} games ready under {cache_root()}")


if __name__ == "__main__":
    main()
