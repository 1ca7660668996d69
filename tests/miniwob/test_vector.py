"""The async vector env: concurrent pages, the same episodes as MiniWoBEnv, autoreset."""

from __future__ import annotations

import asyncio
import concurrent.futures

import pytest

from tests.miniwob.support import needs_browser

pytestmark = needs_browser


@pytest.fixture
def vector_env():
    from agentgym_envs.miniwob.vector import AsyncMiniWoBVectorEnv

    envs = []

    def _make(*args, **kwargs):
        env = AsyncMiniWoBVectorEnv(*args, **kwargs)
        envs.append(env)
        return env

    yield _make
    for env in envs:
        env.close()


def test_slots_match_the_single_env(vector_env, make_env):
    vec = vector_env(3, difficulty="easy", split="adversarial")
    observations, infos = vec.reset(seed=[5, 6, 7])
    for slot, seed in enumerate([5, 6, 7]):
        single_obs, single_info = make_env(difficulty="easy", split="adversarial").reset(seed=seed)
        assert observations[slot] == single_obs
        assert infos[slot]["page_seed"] == single_info["page_seed"]
        assert infos[slot]["task_id"] == single_info["task_id"]


def test_steps_all_slots_and_autoresets(vector_env):
    vec = vector_env(2, task="click-test", max_episode_steps=3)
    observations, infos = vec.reset(seed=0)
    assert all("[1] button" in o for o in observations)
    obs, rewards, terminated, truncated, infos = vec.step(["click [1]", "click [42]"])
    assert list(terminated) == [True, False] and rewards[0] == 1.0 and rewards[1] == 0.0
    assert infos[0]["final_info"]["success"] and infos[0]["final_observation"]
    assert "[1] button" in obs[0]  # the next episode already started
    assert infos[1]["action_error"] == "no element [42] on the page"
    for _ in range(2):
        obs, rewards, terminated, truncated, infos = vec.step(["noop", "noop"])
    assert truncated[1] and not terminated[1]


def test_async_api_in_a_user_event_loop():
    from agentgym_envs.miniwob.vector import AsyncMiniWoBVectorEnv

    async def play() -> list[bool]:
        vec = AsyncMiniWoBVectorEnv(4, task="click-button")
        try:
            _, infos = await vec.areset(seed=1)
            actions = [info["admissible_actions"][0] for info in infos]
            _, _, _, _, infos = await vec.astep(actions)
            return [info["action_error"] is None for info in infos]
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
    with pytest.raises(ValueError, match="num_envs"):
        vector_env(0)


def test_animated_opening_settles_before_the_first_observation(vector_env, make_env):
    # click-pie's wheel grows for ~1.5 s; read mid-animation, reset(seed) was not repeatable
    single = make_env(task="click-pie")
    first, _ = single.reset(seed=3)
    assert single.reset(seed=3)[0] == first
    observations, _ = vector_env(1, task="click-pie").reset(seed=[3])
    assert observations[0] == first
