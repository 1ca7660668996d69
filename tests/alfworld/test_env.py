"""ALFWorldEnv: contract behaviour, the oracle winning, the invalid-action path, the cache."""

from __future__ import annotations

import pytest

from tests.alfworld.support import needs_engine

pytestmark = needs_engine


@pytest.fixture
def make_env():
    from agentgym_envs.alfworld.env import ALFWorldEnv

    envs = []

    def make(difficulty: str = "medium", split: str = "train", **kwargs):
        envs.append(ALFWorldEnv(difficulty=difficulty, split=split, **kwargs))
        return envs[-1]

    yield make
    for env in envs:
        env.close()


def _play_oracle(env, task_id: str, limit: int = 60) -> tuple[bool, float, int]:
    _, info = env.reset(options={"task_id": task_id})
    total, steps, terminated = 0.0, 0, False
    while not terminated and steps < limit:
        _, reward, terminated, _, info = env.step(info["expert_action"])
        total += reward
        steps += 1
    return info["success"], total, steps


def _sample_ids(env, per_type: int, scan: int) -> list[str]:
    """Up to ``per_type`` ids of every task type among the first ``scan`` ids."""
    from agentgym_envs.alfworld.splits import TASK_TABLE

    chosen: dict[str, list[str]] = {}
    for task_id in env.task_ids()[:scan]:
        _, split, index = TASK_TABLE.parse(task_id)
        env.reset(options={"task_id": task_id})  # builds and caches the game
        task_type = env.task.task_type
        if len(chosen.setdefault(task_type, [])) < per_type:
            chosen[task_type].append(task_id)
    return [t for ids in chosen.values() for t in ids]


@pytest.mark.parametrize(
    ("difficulty", "split", "scan"),
    [
        ("easy", "train", 2),
        ("easy", "ood", 2),
        ("medium", "valid", 14),
        ("hard", "adversarial", 10),
    ],
)
def test_oracle_wins_each_task_type(make_env, difficulty: str, split: str, scan: int) -> None:
    env = make_env(difficulty, split)
    ids = _sample_ids(env, per_type=1, scan=scan)
    for task_id in ids:
        success, total, _ = _play_oracle(env, task_id)
        assert success and total == 1.0, task_id


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
@pytest.mark.parametrize("split", ["train", "valid", "test", "ood", "adversarial"])
def test_oracle_wins_everywhere(make_env, difficulty: str, split: str) -> None:
    env = make_env(difficulty, split)
    for task_id in _sample_ids(env, per_type=2, scan=24):
        assert _play_oracle(env, task_id)[0], task_id


def test_medium_covers_all_six_task_types(make_env) -> None:
    from agentgym_envs.alfworld.household import TASK_TYPES

    env = make_env("medium", "test")
    seen = set()
    for task_id in env.task_ids()[:30]:
        env.reset(options={"task_id": task_id})
        seen.add(env.task.task_type)
    assert seen == set(TASK_TYPES)


def test_invalid_text_says_nothing_happens_and_costs_a_step(make_env) -> None:
    env = make_env("easy", "test")
    obs, info = env.reset(seed=3)
    assert "Your task is to: " in obs and info["goal"] in obs
    obs2, reward, terminated, truncated, info2 = env.step("fly to the moon")
    assert obs2 == "Nothing happens."
    assert reward == 0.0 and not terminated and not truncated
    assert "not an admissible command" in info2["action_error"]
    assert info2["admissible_actions"] == info["admissible_actions"]


def test_put_in_is_an_alias_for_move_to(make_env) -> None:
    env = make_env("easy", "train")
    _, info = env.reset(options={"task_id": "alfworld-easy-train-00000"})
    plan = env.task.built.walkthrough
    for command in plan[:-1]:
        _, _, _, _, info = env.step(command)
    last = plan[-1]
    assert last.startswith("move ")
    obj, dest = last[len("move ") :].split(" to ")
    _, reward, terminated, _, info = env.step(f"put {obj} in/on {dest}")
    assert info["action_error"] is None and terminated and reward == 1.0


def test_oracle_replans_after_a_deviation(make_env) -> None:
    env = make_env("medium", "train")
    _, info = env.reset(options={"task_id": "alfworld-medium-train-00004"})
    first = info["expert_action"]
    detour = next(a for a in info["admissible_actions"] if a.startswith("go to") and a != first)
    _, _, _, _, info = env.step(detour)
    _, _, _, _, info = env.step("look")  # does not change the world: plan kept
    steps, terminated = 0, False
    while not terminated and steps < 60:
        _, _, _, _, info = env.step(info["expert_action"])
        steps += 1
    assert info["success"]


def test_same_seed_same_episode(make_env) -> None:
    a, b = make_env("hard", "test"), make_env("hard", "test")
    obs_a, info_a = a.reset(seed=11)
    obs_b, info_b = b.reset(seed=11)
    assert (obs_a, info_a) == (obs_b, info_b)
    for _ in range(3):
        step_a, step_b = a.step(info_a["expert_action"]), b.step(info_b["expert_action"])
        assert step_a == step_b
        info_a, info_b = step_a[4], step_b[4]


def test_splits_are_disjoint(make_env) -> None:
    from agentgym_envs.alfworld.games import get_game

    env = make_env("easy", "train")
    engine = env._engine or __import__("agentgym_envs.alfworld.engine", fromlist=["x"]).GameEngine()
    prints = {}
    for split in ("train", "valid", "test"):
        prints[split] = {get_game(engine, "easy", split, i).meta["fingerprint"] for i in range(8)}
    assert not prints["train"] & prints["valid"]
    assert not prints["train"] & prints["test"]
    assert not prints["valid"] & prints["test"]


def test_corrupt_cache_entry_is_rebuilt(make_env, alfworld_cache) -> None:
    from agentgym_envs.alfworld import games
    from agentgym_envs.alfworld.games import cache_root, get_game, load_cached

    env = make_env("easy", "valid")
    env.reset(options={"task_id": "alfworld-easy-valid-00007"})
    folder = cache_root() / "easy" / "valid" / "00007"
    good = (folder / "game.tw-pddl").read_text()
    (folder / "game.tw-pddl").write_text(good[: len(good) // 2])  # a partial write
    assert load_cached(folder) is None
    games._RECENT.clear()  # forget the in-memory copy so the disk entry is read again
    rebuilt = get_game(env._engine, "easy", "valid", 7)
    assert (folder / "game.tw-pddl").read_text() == good
    assert rebuilt.walkthrough


def test_bad_choices_raise_value_error() -> None:
    from agentgym_envs.alfworld.env import ALFWorldEnv

    with pytest.raises(ValueError, match="difficulty"):
        ALFWorldEnv(difficulty="extreme")
    with pytest.raises(ValueError, match="split"):
        ALFWorldEnv(split="dev")


def test_passes_gymnasium_env_checker(make_env) -> None:
    from gymnasium.utils.env_checker import check_env

    check_env(make_env("easy", "adversarial"), skip_render_check=True)


ENV_ID = "AgentGym/ALFWorld-v0"


def _register() -> None:
    import gymnasium as gym

    if ENV_ID not in gym.registry:  # the lead's table registers it; tests must not depend on that
        gym.register(
            ENV_ID, entry_point="agentgym_envs.alfworld.env:ALFWorldEnv", max_episode_steps=50
        )


def test_gymnasium_make_and_async_vector_env() -> None:
    import gymnasium as gym

    _register()
    env = gym.make(ENV_ID, difficulty="hard", split="ood")
    obs, info = env.reset(seed=0)
    assert info["task_id"].startswith("alfworld-hard-ood-") and "Your task is to: " in obs
    env.close()
    vec = gym.vector.AsyncVectorEnv(
        [lambda: gym.make(ENV_ID, difficulty="easy", split="test")] * 2, shared_memory=False
    )
    try:
        observations, infos = vec.reset(seed=[1, 2])
        assert len(observations) == 2
        actions = [infos["expert_action"][0], infos["expert_action"][1]]
        vec.step(actions)
    finally:
        vec.close()


def test_same_game_in_another_process() -> None:
    import json
    import os
    import subprocess
    import sys

    code = (
        "import json\n"
        "from agentgym_envs.alfworld.generator import GenerationError, generate\n"
        "def first(seed):\n"
        "    for attempt in range(100):\n"
        "        try:\n"
        "            return generate(f'{seed}:{attempt}', 'medium')\n"
        "        except GenerationError:\n"
        "            pass\n"
        "print(json.dumps([repr(first(f'medium:test:{i}').fingerprint()) for i in range(5)]))\n"
    )
    ours = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    theirs = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "123"},
    )
    assert json.loads(ours.stdout) == json.loads(theirs.stdout)


def test_the_action_set_reads_and_writes_every_admissible_command(make_env) -> None:
    env = make_env(difficulty="easy")
    actions = env.action_set
    _, info = env.reset(seed=0)
    for _ in range(30):
        for command in info["admissible_actions"]:
            call = actions.parse(command)
            assert actions.to_text(call.name, **call.args) == command
        if info["expert_action"] is None:
            break
        _, _, _, _, info = env.step(info["expert_action"])
    assert info["success"]
