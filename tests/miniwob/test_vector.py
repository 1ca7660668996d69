"""The MiniWoB vector env: a Gymnasium VectorEnv whose sub-envs play the single env's episodes
(expert actions included) on pages of one browser, with SyncVectorEnv's autoreset and reset_mask."""

from __future__ import annotations

import asyncio
import concurrent.futures

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, VectorEnv

from agentgym_envs.core import INFO_KEYS
from tests.miniwob.support import needs_browser

pytestmark = needs_browser

HANG_ON_MOUSEDOWN = "() => document.addEventListener('mousedown', () => { for (;;) {} }, true)"


@pytest.fixture
def vector_env():
    from agentgym_envs.miniwob.vector import MiniWoBVectorEnv

    envs = []

    def _make(*args, **kwargs):
        env = MiniWoBVectorEnv(*args, **kwargs)
        envs.append(env)
        return env

    yield _make
    for env in envs:
        env.close()


def test_envs_play_the_single_envs_episodes_with_expert_actions(vector_env, make_env):
    vec = vector_env(3, difficulty="easy", split="adversarial")
    seeds = [5, 6, 7]
    observations, infos = vec.reset(seed=seeds)
    singles = [make_env(difficulty="easy", split="adversarial") for _ in seeds]
    expected = [single.reset(seed=seed) for single, seed in zip(singles, seeds, strict=True)]
    for step in range(3):
        for i, (single_obs, single_info) in enumerate(expected):
            assert observations[i] == single_obs, (step, i)
            for key in (*INFO_KEYS, "page_seed", "raw_reward", "untrusted_clicks"):
                assert infos[key][i] == single_info[key], (step, i, key)
        actions = [info["expert_action"] or "noop" for _, info in expected]
        observations, rewards, terminated, truncated, infos = vec.step(actions)
        results = [single.step(a) for single, a in zip(singles, actions, strict=True)]
        assert list(rewards) == [r[1] for r in results]
        assert list(terminated) == [r[2] for r in results]
        if terminated.any():
            break
        expected = [(r[0], r[4]) for r in results]


def test_next_step_autoreset_action_errors_and_truncation(vector_env):
    vec = vector_env(2, task="click-test", max_episode_steps=3)
    assert isinstance(vec, VectorEnv)
    assert vec.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    observations, infos = vec.reset(seed=0)
    assert all("[1] button" in o for o in observations)
    assert list(infos["expert_action"]) == ["click [1]", "click [1]"]
    obs, rewards, terminated, truncated, infos = vec.step(["click [1]", "click [42]"])
    assert list(terminated) == [True, False] and list(rewards) == [1.0, 0.0]
    assert infos["success"][0] and infos["expert_action"][0] is None
    assert infos["action_error"][1] == "no element [42] on the page"
    assert "Invalid action" in obs[1]
    obs, rewards, terminated, truncated, infos = vec.step(["ignored", "noop"])
    assert not terminated[0] and rewards[0] == 0.0 and infos["action_error"][0] is None
    assert "[1] button" in obs[0] and "Episode over" not in obs[0]  # env 0 started anew
    _, _, terminated, truncated, _ = vec.step(["noop", "noop"])
    assert truncated[1] and not terminated[1]  # the third step of env 1's episode


def test_same_step_autoreset_reports_the_final_observation(vector_env):
    vec = vector_env(2, task="click-test", autoreset_mode="SameStep")
    vec.reset(seed=0)
    obs, rewards, terminated, _, infos = vec.step(["click [1]", "noop"])
    assert list(terminated) == [True, False] and list(infos["_final_obs"]) == [True, False]
    assert "Episode over (success" in infos["final_obs"][0]
    assert infos["final_info"]["success"][0] and infos["final_info"]["score"][0] == 1.0
    assert "Episode over" not in obs[0] and not infos["success"][0]  # the next episode


def test_reset_mask_resets_only_the_masked_envs_with_their_seeds(vector_env, make_env):
    vec = vector_env(3, difficulty="easy")
    observations, infos = vec.reset(seed=0)
    mask = np.array([False, True, False])
    again, masked = vec.reset(seed=[None, 40, None], options={"reset_mask": mask})
    assert again[0] == observations[0] and again[2] == observations[2]
    assert list(masked["_task_id"]) == [False, True, False]
    single_obs, single_info = make_env(difficulty="easy").reset(seed=40)
    assert again[1] == single_obs and masked["page_seed"][1] == single_info["page_seed"]
    with pytest.raises(ValueError, match="reset_mask"):
        vec.reset(options={"reset_mask": np.zeros(3, dtype=bool)})
    with pytest.raises(TypeError, match="reset_mask"):
        vec.reset(options={"reset_mask": [True, True, True]})


def test_make_vec_builds_it_from_the_registered_vector_entry_point():
    import agentgym_envs
    from agentgym_envs.miniwob.vector import MiniWoBVectorEnv

    vec = agentgym_envs.make_vec(
        "AgentGym/MiniWoB-v0", num_envs=4, vectorization_mode="vector_entry_point"
    )
    try:
        assert isinstance(vec, MiniWoBVectorEnv) and vec.num_envs == 4
        assert vec.max_episode_steps == 40  # the id's registered step budget
        observations, infos = vec.reset(seed=3)
        assert len(observations) == 4 and all(a for a in infos["expert_action"])
    finally:
        vec.close()


def test_a_step_past_its_timeout_truncates_that_env_alone(vector_env):
    vec = vector_env(2, task="click-button", step_timeout_s=5.0)  # margin for a loaded machine
    _, infos = vec.reset(seed=[0, 1])
    vec.envs[0].unwrapped.page.evaluate(HANG_ON_MOUSEDOWN)  # its page's JS never returns
    _, rewards, terminated, truncated, infos = vec.step(list(infos["expert_action"]))
    assert truncated[0] and not terminated[0] and rewards[0] == 0.0
    assert infos["truncated_reason"][0].startswith("step timed out after 5 s")
    assert terminated[1] and infos["success"][1] and not infos["_truncated_reason"][1]
    observations, _, terminated, truncated, infos = vec.step(["noop", "noop"])  # both reset
    assert not (terminated.any() or truncated.any()) and "[" in observations[0]
    _, _, terminated, _, infos = vec.step(list(infos["expert_action"]))
    assert terminated.all() and infos["success"].all()  # env 0 plays on a fresh page


def test_text_bbox_and_screenshots_as_the_single_env(vector_env, make_env):
    vec = vector_env(1, task="click-button", observation_mode="text_bbox", screenshot=True)
    observations, infos = vec.reset(seed=[2])
    single = make_env(task="click-button", observation_mode="text_bbox", screenshot=True)
    single_obs, single_info = single.reset(seed=2)
    assert observations[0] == single_obs and "@" in single_obs
    assert infos["screenshot"][0].startswith(b"\x89PNG")
    assert infos["screenshot"][0] == single_info["screenshot"]


def test_async_api_in_a_user_event_loop():
    from agentgym_envs.miniwob.vector import MiniWoBVectorEnv

    async def play() -> list[bool]:
        vec = MiniWoBVectorEnv(4, task="click-button")
        try:
            _, infos = await vec.areset(seed=1)
            _, _, _, _, infos = await vec.astep(list(infos["expert_action"]))
            return [bool(s) for s in infos["success"]]
        finally:
            await vec.aclose()

    # A fresh thread: this one's loop may be held by the sync Playwright of other tests.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        assert pool.submit(asyncio.run, play()).result(timeout=120) == [True] * 4


def test_bad_arguments(vector_env):
    vec = vector_env(2, task="click-test")
    with pytest.raises(RuntimeError, match="reset"):
        vec.step(["noop", "noop"])
    vec.reset(seed=0)
    with pytest.raises(ValueError, match="expected 2 actions"):
        vec.step(["noop"])
    with pytest.raises(ValueError, match="expected 2 seeds"):
        vec.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="num_envs"):
        vector_env(0)
    with pytest.raises(ValueError, match="split"):
        vector_env(1, split="nope")


def test_animated_opening_settles_before_the_first_observation(vector_env, make_env):
    # click-pie's wheel grows for ~1.5 s; read mid-animation, reset(seed) was not repeatable
    single = make_env(task="click-pie")
    first, _ = single.reset(seed=3)
    assert single.reset(seed=3)[0] == first
    observations, _ = vector_env(1, task="click-pie").reset(seed=[3])
    assert observations[0] == first
