"""Stable-Baselines3 on AgentGym: the wrapper's vectors, actions and masks, SB3's own env check,
and (slow) MaskablePPO learning Toy easy."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip(
    "stable_baselines3", reason="needs the sb3 extra: pip install 'agentgym-suite[sb3]'"
)
pytest.importorskip("sb3_contrib", reason="needs the sb3 extra: pip install 'agentgym-suite[sb3]'")

from agentgym_sb3 import EMPTY_SLOT_ACTION, SB3TextEnv, TextHasher, make_sb3_env

TOY = "AgentGym/Toy-v0"


@pytest.fixture(autouse=True)
def sb3_log_folder(tmp_path, monkeypatch):
    """SB3 makes a log folder per ``learn`` (in /tmp unless SB3_LOGDIR says where): keep them in
    the test's own folder (child processes inherit it too)."""
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path / "sb3-logs"))


def test_hashed_text_is_unit_length_and_the_same_in_every_process():
    hasher = TextHasher(64)
    vector = hasher("Go to the black room.")
    assert vector.shape == (64,) and vector.dtype == np.float32
    assert np.linalg.norm(vector) == pytest.approx(1.0)
    assert not hasher("").any()  # no words, no features
    grams = ["go", "to", "the", "room", "go to", "to the", "the room"]
    assert hasher.features("Go to the room") == grams
    script = (
        "import json; from agentgym_sb3 import TextHasher; "
        "print(json.dumps(TextHasher(64)('Go to the black room.').tolist()))"
    )
    other = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert other.returncode == 0, other.stderr
    assert np.allclose(json.loads(other.stdout), vector)  # CRC-32, not Python's salted hash
    with pytest.raises(ValueError, match="dim must be at least 1"):
        TextHasher(0)


def test_slots_are_the_admissible_actions_and_the_mask_marks_them():
    env = make_sb3_env(TOY, {"max_actions": 8, "text_dim": 32, "action_dim": 16}, difficulty="easy")
    observation, info = env.reset(seed=0)
    assert env.observation_space.contains(observation)
    assert env.observation_space.shape == (2 * 32 + 8 * (16 + 2),)
    admissible = info["admissible_actions"]
    assert env.action_masks().tolist() == [k < len(admissible) for k in range(8)]
    slot = admissible.index(info["expert_action"])
    _, reward, terminated, _, info = env.step(slot)
    assert info["sb3_action_text"] == admissible[slot] and info["sb3_valid_slot"]
    assert terminated and reward == pytest.approx(1.0) and info["success"]
    assert env.action_masks().tolist() == [True] + [False] * 7  # no actions left: slot 0 only


def test_an_empty_slot_spends_the_step_as_an_invalid_action_and_costs_the_penalty():
    env = make_sb3_env(TOY, {"max_actions": 8, "invalid_penalty": 0.25}, difficulty="easy")
    _, info = env.reset(seed=0)
    empty = len(info["admissible_actions"])
    _, reward, terminated, truncated, info = env.step(empty)
    assert info["sb3_action_text"] == EMPTY_SLOT_ACTION and not info["sb3_valid_slot"]
    assert info["action_error"]  # the env reported it; nothing else changed
    assert reward == pytest.approx(-0.25) and not (terminated or truncated)


def test_the_slot_overlap_features_point_at_the_action_the_goal_names():
    env = make_sb3_env(
        TOY, {"max_actions": 8, "text_dim": 256, "action_dim": 64}, difficulty="easy"
    )
    observation, info = env.reset(seed=0)  # "Go to the black room." among three doors
    slots = observation[2 * 256 :].reshape(8, 64 + 2)
    goal_overlap = slots[: len(info["admissible_actions"]), -2]
    best = info["admissible_actions"][int(np.argmax(goal_overlap))]
    assert best == info["expert_action"] == "go to black room"


def test_sb3_accepts_the_wrapped_env():
    from stable_baselines3.common.env_checker import check_env

    check_env(make_sb3_env(TOY, {"max_actions": 8}, difficulty="easy"), warn=True)


def test_an_env_without_admissible_actions_is_refused_clearly():
    import gymnasium as gym

    class Bare(gym.Env):
        observation_space = gym.spaces.Text(10)
        action_space = gym.spaces.Text(10)

        def reset(self, *, seed=None, options=None):
            return "hi", {}

    with pytest.raises(ValueError, match="no info\\['admissible_actions'\\]"):
        SB3TextEnv(Bare()).reset()


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_maskable_ppo_learns_toy_easy_within_20k_steps(seed):
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(1)
    wrapper = {"max_actions": 8}
    train = make_vec_env(lambda: make_sb3_env(TOY, wrapper, difficulty="easy"), n_envs=8, seed=seed)
    model = MaskablePPO(
        "MlpPolicy", train, seed=seed, n_steps=128, batch_size=256, learning_rate=1e-3,
        ent_coef=0.0, verbose=0,
    )  # fmt: skip
    model.learn(20_000)
    env = make_sb3_env(TOY, wrapper, difficulty="easy", split="test")
    wins = 0
    for episode in range(100):
        observation, info = env.reset(seed=10_000 + episode)
        done = False
        while not done:
            action, _ = model.predict(
                observation, action_masks=env.action_masks(), deterministic=True
            )
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        wins += bool(info["success"])
    assert wins >= 90, f"MaskablePPO seed {seed}: {wins}/100 test episodes solved after 20k steps"
