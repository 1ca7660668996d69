"""The cached engine against TextWorld's stock PddlEnv and ALFWorld's own play path."""

from __future__ import annotations

import io
import random
import sys

import pytest

from tests.alfworld.support import needs_engine

pytestmark = needs_engine


def _game(engine, difficulty: str, split: str, index: int):
    from agentgym_envs.alfworld.games import get_game

    return get_game(engine, difficulty, split, index)


def _commands(built, rng: random.Random, admissible: list[str]) -> str:
    return rng.choice([*admissible, "jump", "put it somewhere"])


def test_same_commands_give_byte_identical_output_to_stock_pddl_env(engine) -> None:
    import textworld
    from alfworld.agents.environment.alfred_tw_env import AlfredDemangler
    from textworld.envs.pddl import PddlEnv

    from agentgym_envs.alfworld.engine import GameEngine, isolated

    built = _game(engine, "hard", "train", 1)
    with isolated():
        stock = AlfredDemangler(PddlEnv(textworld.EnvInfos(admissible_commands=True, won=True)))
        stock.load(built.game)
        state = stock.reset()
    ours = GameEngine(verify_commands=True)  # recompute every command text and compare
    try:
        ours.load(built.game)
        assert ours.reset() == state.feedback
        rng = random.Random(0)
        commands = built.walkthrough[:3] + [None] * 40
        for command in commands:
            command = command or _commands(built, rng, state["admissible_commands"])
            assert ours.admissible_commands() == state["admissible_commands"]
            with isolated():
                state, _, _ = stock.step(command)
            feedback, _ = ours.step(command)
            assert feedback == state.feedback
            assert ours.won == state["won"]
    finally:
        ours.close()


def test_alfworld_own_play_path_agrees(engine, tmp_path) -> None:
    """Play one generated game through ALFWorld's AlfredTWEnv wrappers (textworld.gym) and ours."""
    import json

    import textworld
    import textworld.gym
    from alfworld.agents.environment.alfred_tw_env import AlfredDemangler, AlfredInfos

    from agentgym_envs.alfworld.engine import GameEngine, isolated

    built = _game(engine, "medium", "valid", 0)
    path = tmp_path / "game.tw-pddl"
    path.write_text(json.dumps(built.game))
    infos = textworld.EnvInfos(won=True, admissible_commands=True, extras=["gamefile"])
    with isolated():
        env_id = textworld.gym.register_games(
            [str(path)],
            infos,
            batch_size=1,
            asynchronous=False,
            max_episode_steps=50,
            wrappers=[AlfredDemangler(shuffle=False), AlfredInfos],
        )
        env = textworld.gym.make(env_id)
        obs, info = env.reset()
    ours = GameEngine()
    try:
        ours.load(built.game)
        assert ours.reset() == obs[0]
        assert ours.admissible_commands() == info["admissible_commands"][0]
        for command in built.walkthrough:
            with isolated():
                obs, _, dones, info = env.step([command])
            feedback, _ = ours.step(command)
            assert feedback == obs[0]
        assert info["won"][0] and ours.won
    finally:
        ours.close()
        env.close()


def test_loading_never_leaks_argv_or_stdout(engine) -> None:
    from agentgym_envs.alfworld.engine import GameEngine, translate

    built = _game(engine, "easy", "test", 3)
    argv_object, argv, stdout = sys.argv, list(sys.argv), sys.stdout
    captured = io.StringIO()
    sys.stdout = captured
    try:
        fresh = GameEngine()
        translate(built.game["pddl_domain"], built.game["pddl_problem"] + "\n")  # forces pddl2sas
        fresh.load(built.game)
        fresh.reset()
        fresh.close()
        assert sys.stdout is captured
    finally:
        sys.stdout = stdout
    assert sys.argv is argv_object and sys.argv == argv
    assert captured.getvalue() == ""


def test_command_text_depends_only_on_the_grounded_action(engine) -> None:
    from agentgym_envs.alfworld.engine import static_predicates

    built = _game(engine, "medium", "train", 0)
    engine.load(built.game, built.translation)
    engine.reset()
    assert not engine.verify_commands  # templates only read static predicates
    static = {p.lower() for p in static_predicates(built.translation.task)}
    assert "receptacleatlocation" in static and "inreceptacle" not in static


def test_fast_downward_agrees_the_small_games_are_solvable(engine) -> None:
    from agentgym_envs.alfworld.games import verify

    built = _game(engine, "easy", "valid", 5)
    plan = verify(engine, built.game, built.meta["task"], use_fast_downward=True)
    assert plan is not None and len(plan) <= len(built.walkthrough)


@pytest.mark.slow
def test_fast_downward_solves_medium_games(engine) -> None:
    from agentgym_envs.alfworld.games import verify

    for index in range(3):
        built = _game(engine, "medium", "test", index)
        if built.meta["num_receptacles"] <= 12:
            assert verify(engine, built.game, built.meta["task"], use_fast_downward=True)


def test_switching_games_and_back_replays_identically(engine) -> None:
    first, second = _game(engine, "easy", "train", 0), _game(engine, "easy", "train", 1)

    def play(built) -> list[str]:
        engine.load(built.game, built.translation)
        transcript = [engine.reset()]
        for command in built.walkthrough:
            transcript.append(engine.step(command)[0])
            transcript.extend(engine.admissible_commands())
        assert engine.won
        return transcript

    reference = play(first)
    play(second)
    assert play(first) == reference
    engine.load(second.game, second.translation)
    engine.reset()
    assert engine.plan()  # fast-downward's replan task was reloaded for this game
