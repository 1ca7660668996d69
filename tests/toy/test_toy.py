"""Toy env behaviour: oracle success everywhere, split hygiene, hand-checked episodes."""

from __future__ import annotations

import gymnasium as gym
import pytest

from agentgym_envs.core import DIFFICULTIES, SPLITS
from agentgym_envs.toy import tasks
from agentgym_envs.toy.env import ToyEnv
from agentgym_envs.toy.world import HALLWAY, KEY, House, Layout


def play_oracle(env: gym.Env, task_id: str) -> dict:
    obs, info = env.reset(options={"task_id": task_id})
    for _ in range(30):
        obs, reward, terminated, truncated, info = env.step(info["expert_action"])
        assert info["action_error"] is None
        if terminated or truncated:
            break
    return info


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
@pytest.mark.parametrize("split", SPLITS)
def test_oracle_solves_every_task(difficulty, split):
    env = ToyEnv(difficulty=difficulty, split=split)
    ids = env.task_ids()
    if split == "train":
        ids = ids[::10]  # 100 of the 1000 keep the suite quick; the rest are built the same way
    for task_id in ids:
        info = play_oracle(env, task_id)
        assert info["success"] and info["score"] == 1.0, task_id


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
@pytest.mark.parametrize("split", SPLITS)
def test_explorer_oracle_solves_every_task_within_the_standard_limit(difficulty, split):
    limit = 20  # the standard suite's
    kwargs = {"difficulty": difficulty, "split": split, "oracle": "explorer"}
    env = gym.make("AgentGym/Toy-v0", max_episode_steps=limit, **kwargs)
    ids = env.unwrapped.task_ids()
    for task_id in ids[::10] if split == "train" else ids:
        info = play_oracle(env, task_id)
        assert info["success"] and info["score"] == 1.0, task_id


def test_explorer_searches_only_what_it_was_shown():
    """A medium house (hand-read): the apple lies in the red room, out of sight from the hallway;
    the shortest oracle walks straight there, the explorer tries the rooms in door order."""
    doors = tuple((HALLWAY, f"{colour} room") for colour in ("blue", "red", "green"))
    goal = "Put the apple in the green room."
    layout = Layout("put", doors, (("apple", "red room"),), "green room", "apple", goal=goal)
    assert House(layout).plan() == ["go to red room", "take apple", "go to hallway",
                                    "go to green room", "drop apple"]  # fmt: skip
    house, played = House(layout), []
    while (command := house.explore()) is not None:
        played.append(command)
        house.apply(command)
    assert played == ["go to blue room", "go to hallway", "go to red room", "take apple",
                      "go to hallway", "go to green room", "drop apple"]  # fmt: skip
    assert house.solved()


def test_explorer_fetches_the_key_it_saw_once_it_meets_the_lock():
    """Hard layout by hand: the key in the hallway is taken on sight (the goal's room turns out
    locked), the book is found by search, then the door is unlocked and the book carried in."""
    doors = ((HALLWAY, "red room"), (HALLWAY, "blue room"), ("red room", "gold room"))
    items = (("book", "blue room"), (KEY, HALLWAY))
    goal = "Put the book in the gold room."
    layout = Layout("put", doors, items, "gold room", "book", "gold room", goal)
    house, played = House(layout), []
    while (command := house.explore()) is not None:
        played.append(command)
        house.apply(command)
    assert played == ["take key", "go to red room", "go to hallway", "go to blue room",
                      "take book", "go to hallway", "go to red room", "unlock gold room",
                      "go to gold room", "drop book"]  # fmt: skip
    assert house.solved()


def test_an_unknown_oracle_is_a_clear_error():
    with pytest.raises(ValueError, match="oracle='bfs' is not valid; choose one of 'shortest'"):
        gym.make("AgentGym/Toy-v0", oracle="bfs")


def test_iid_splits_are_disjoint_and_ood_vocabulary_is_held_out():
    for difficulty in DIFFICULTIES:
        sigs = {s: {x.signature() for x in tasks.layouts(difficulty, s)} for s in SPLITS}
        assert not sigs["train"] & sigs["valid"]
        assert not sigs["train"] & sigs["test"]
        assert not sigs["valid"] & sigs["test"]
        train_text = " ".join(repr(x) for x in tasks.layouts(difficulty, "train"))
        for word in (*tasks.COLOURS_OOD, *tasks.OBJECTS_OOD):
            assert word not in train_text
        train_goals = {x.goal for x in tasks.layouts(difficulty, "train")}
        ood_goals = [x.goal for x in tasks.layouts(difficulty, "ood")]
        templates = tasks.GO_TEMPLATES_OOD + tasks.PUT_TEMPLATES_OOD
        stems = [t.split("{")[0] for t in templates]
        assert all(any(g.startswith(s) for s in stems) for g in ood_goals)
        assert not train_goals & set(ood_goals)


def test_adversarial_keeps_the_test_goal_and_adds_decoys():
    for difficulty in DIFFICULTIES:
        for test, adv in zip(
            tasks.layouts(difficulty, "test"), tasks.layouts(difficulty, "adversarial"), strict=True
        ):
            assert (adv.target_room, adv.target_item) == (test.target_room, test.target_item)
            assert test.goal in adv.goal and len(adv.goal) > len(test.goal)
            assert f"dark {test.target_room}" in adv.rooms


def test_easy_wrong_room_fails_and_right_room_wins():
    env = ToyEnv("easy", "valid")
    obs, info = env.reset(options={"task_id": env.task_ids()[0]})
    target = env.task.house.layout.target_room
    wrong = next(a for a in info["admissible_actions"] if a.startswith("go") and target not in a)
    obs, reward, terminated, _, info = env.step(wrong)
    assert terminated and reward == 0.0 and not info["success"]
    obs, info = env.reset(options={"task_id": env.task_ids()[0]})
    obs, reward, terminated, _, info = env.step(f"Go to the {target.upper()}.")
    assert terminated and reward == 1.0 and info["success"]


def test_locked_door_explains_itself_and_invalid_step_changes_nothing():
    env = ToyEnv("hard", "test")
    for task_id in env.task_ids():
        obs, info = env.reset(options={"task_id": task_id})
        locked = env.task.house.layout.locked_room
        if locked in env.task.house.neighbours("hallway"):
            break
    else:
        pytest.skip("no hard test task with the locked room next to the hallway")
    before = env.task.house.copy()
    obs2, reward, terminated, _, info = env.step(f"go to {locked}")
    assert info["action_error"] == f"the {locked} is locked; unlock it with the key first"
    assert obs2.startswith(obs) and "Invalid action:" in obs2
    assert reward == 0.0 and not terminated
    assert env.task.house.where == before.where and env.task.house.agent == before.agent


def test_unknown_command_lists_the_grammar():
    env = ToyEnv()
    env.reset(seed=0)
    _, _, _, _, info = env.step("dance wildly")
    assert "unknown command" in info["action_error"] and "go to <room>" in info["action_error"]


def test_expert_replans_after_a_deviation():
    env = ToyEnv("medium", "valid")
    obs, info = env.reset(options={"task_id": env.task_ids()[3]})
    first = info["expert_action"]
    detour = next(a for a in info["admissible_actions"] if a != first and a.startswith("go"))
    obs, _, _, _, info = env.step(detour)
    assert info["expert_action"] != first or first.startswith("take")
    for _ in range(30):
        obs, _, terminated, _, info = env.step(info["expert_action"])
        if terminated:
            break
    assert info["success"]


def test_random_agent_is_far_from_the_oracle_on_easy():
    from agentgym_envs.agents import RandomAgent

    env = gym.make("AgentGym/Toy-v0", difficulty="easy", split="test")
    agent, wins = RandomAgent(), 0
    for seed in range(200):
        agent.reset(seed)
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
            done = terminated or truncated
        wins += info["success"]
    assert 0.2 < wins / 200 < 0.6
