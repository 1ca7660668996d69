"""MiniWoB speed: reset and step latency per task beside the bare Playwright calls on the same
pages, and episodes/s of one env and of the vector env at 1, 4 and 16 envs on one Chromium.

Run: ``pytest benchmarks/perf/test_miniwob_perf.py --benchmark-enable``. Pages run on virtual time
(``agentgym_envs/miniwob/clock.py``), so a step costs the action's round trips, letting page time
pass (about a millisecond for any amount of it) and one observation. Targets (issue 32): click
and type steps within 2x Playwright's bare ``mouse.click`` / ``keyboard.type`` on the same page
(``test_bare_click_then_observe`` measures what no click step can go below: a click from where
reset leaves the pointer, then one observation),
``noop`` and ``wait 1`` under 10 ms of real time, reset within 2x its one-evaluate floor. The
step benchmarks use ``expert=False`` (the oracle's page reads are not part of a step). The bare
calls run through the same page loop as the env's (one thread hop each), on the env's own page.
The ``keeper`` holds the process's shared ``PageLoop`` (its Chromium) across the module, as
tests/miniwob/conftest.py does, so single envs do not relaunch Chromium per test; a vector env
owns its own loop and Chromium, launched before its timing starts.
"""

from __future__ import annotations

import time

import pytest

from agentgym_envs.miniwob.browser import browser_available

_OK, _WHY = browser_available()
pytestmark = pytest.mark.skipif(not _OK, reason=f"needs Chromium and playwright: {_WHY}")

RESET_TASKS = [
    "click-test",
    "click-button",
    "enter-text",
    "click-checkboxes",
    "choose-list",
    "login-user",
    "email-inbox",
    "social-media",
    "book-flight",
]
STEP_CASES = {
    "click-test": "click [1]",  # ends the episode: the benchmark resets outside the timing
    "click-checkboxes": "click [2]",
    "enter-text": 'type [1] "hello"',
    "email-inbox": "click [4]",
}


@pytest.fixture(scope="module")
def keeper():
    """Hold the process's shared page loop (one Chromium) so the envs reuse it across tests."""
    from agentgym_envs.miniwob.async_page import PageLoop

    loop = PageLoop.acquire()
    yield
    PageLoop.release(loop)


@pytest.mark.parametrize("task", RESET_TASKS)
def test_reset_latency(benchmark, keeper, task):
    from agentgym_envs.miniwob.env import MiniWoBEnv

    env = MiniWoBEnv(task=task, expert=False)
    env.reset(seed=0)
    seeds = iter(range(1, 10_000))
    benchmark.pedantic(lambda: env.reset(seed=next(seeds)), rounds=30, iterations=1)
    env.close()


#: One round trip: Farama's seeding calls and the snapshot in a single evaluate, nothing else
#: (no pointer park, no picture wait, no reward state): the floor a reset can approach.
ONE_TRIP_FLOOR = (
    "(seed) => { core.endEpisode(0); Math.seedrandom(seed); core.setDataMode('train');"
    " core.startEpisodeReal(); return (SNAPSHOT)(); }"
)


@pytest.mark.parametrize("task", RESET_TASKS[:4])
def test_reset_floor_one_round_trip(benchmark, keeper, task):
    """Side by side with test_reset_latency: the one-evaluate floor on the same pages."""
    from agentgym_envs.miniwob import page_js
    from agentgym_envs.miniwob.env import MiniWoBEnv

    env = MiniWoBEnv(task=task, expert=False)
    env.reset(seed=0)  # loads the page
    page = env.page
    script = ONE_TRIP_FLOOR.replace("(SNAPSHOT)", "(" + page_js.SNAPSHOT.strip() + ")")
    seeds = iter(range(1, 10_000))
    benchmark.pedantic(lambda: page.evaluate(script, next(seeds)), rounds=30, iterations=1)
    env.close()


@pytest.mark.parametrize("task", sorted(STEP_CASES))
def test_step_latency(benchmark, keeper, task):
    from agentgym_envs.miniwob.env import MiniWoBEnv

    env = MiniWoBEnv(task=task, expert=False)
    seeds = iter(range(10_000))

    def setup():
        env.reset(seed=next(seeds))
        return (), {}

    benchmark.pedantic(lambda: env.step(STEP_CASES[task]), setup=setup, rounds=30, iterations=1)
    env.close()


@pytest.mark.parametrize("action", ["noop", "wait 1"])
def test_waiting_step_latency(benchmark, keeper, action):
    """``noop`` lets 100 ms of page time pass, ``wait 1`` a second: real time is what it costs."""
    from agentgym_envs.miniwob.env import MiniWoBEnv

    env = MiniWoBEnv(task="email-inbox", expert=False)
    env.reset(seed=0)
    benchmark.pedantic(lambda: env.step(action), rounds=30, iterations=1)
    env.close()


def _bare(env):
    """The env's page loop and its Playwright page (what a bare call runs on)."""
    page = env.unwrapped.page
    return page.loop, page.driver._page


def _box_two():
    """click-checkboxes (seed 0), its loop and page, and where a click on box [2] lands."""
    from agentgym_envs.miniwob import page_js
    from agentgym_envs.miniwob.env import MiniWoBEnv

    env = MiniWoBEnv(task="click-checkboxes", expert=False)
    env.reset(seed=0)
    loop, page = _bare(env)
    return env, loop, page, loop.run(page.evaluate(page_js.CLICK_TARGET, 2))


def _resetting(env):
    """A ``benchmark.pedantic`` setup that resets ``env`` on a new seed before each round (the
    pointer back where reset parks it)."""
    seeds = iter(range(1, 10_000))

    def setup():
        env.reset(seed=next(seeds))
        return (), {}

    return setup


@pytest.mark.parametrize("pointer", ["same-point", "from-reset"])
def test_bare_mouse_click(benchmark, keeper, pointer):
    """Playwright's ``mouse.click`` alone, on click-checkboxes' box [2] (test_step_latency's
    ``click [2]`` there: finding the box, clicking, the page's reaction, the observation).
    ``same-point``: again and again where the pointer already is (its move is no move);
    ``from-reset``: after each reset, so the pointer comes from where reset parks it, as in the
    step (a real move: Chromium delivers it with the page's next frame)."""
    env, loop, page, target = _box_two()
    click = page.mouse.click
    setup = _resetting(env) if pointer == "from-reset" else None
    benchmark.pedantic(
        lambda: loop.run(click(target["x"], target["y"])), setup=setup, rounds=30, iterations=1
    )
    env.close()


def test_bare_click_then_observe(benchmark, keeper):
    """The floor of a click step: after each reset, Playwright's ``mouse.click`` on
    click-checkboxes' box [2] from where reset parks the pointer, then one evaluate reading the
    observation (``page_js.OBSERVE``), and nothing else: no target lookup, no page time."""
    from agentgym_envs.miniwob import page_js

    env, loop, page, target = _box_two()

    async def click_and_observe():
        await page.mouse.click(target["x"], target["y"])
        return await page.evaluate(page_js.OBSERVE)

    benchmark.pedantic(
        lambda: loop.run(click_and_observe()), setup=_resetting(env), rounds=30, iterations=1
    )
    env.close()


def test_bare_keyboard_type(benchmark, keeper):
    """Playwright's ``keyboard.type("hello")`` alone, into enter-text's focused field (the step
    ``type [1] "hello"`` also clicks the field and clears it)."""
    from agentgym_envs.miniwob.env import MiniWoBEnv

    env = MiniWoBEnv(task="enter-text", expert=False)
    env.reset(seed=0)
    env.step('type [1] "x"')
    loop, page = _bare(env)
    benchmark.pedantic(lambda: loop.run(page.keyboard.type("hello")), rounds=30, iterations=1)
    env.close()


def _episodes_per_second_single(seconds: float) -> float:
    from agentgym_envs.miniwob.env import MiniWoBEnv

    env = MiniWoBEnv(task="click-checkboxes", expert=True)
    episodes, start = 0, time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        _, info = env.reset(seed=seed)
        seed += 1
        for _ in range(20):
            _, _, terminated, truncated, info = env.step(info["expert_action"] or "noop")
            if terminated or truncated:
                break
        episodes += 1
    env.close()
    return episodes / (time.perf_counter() - start)


def _episodes_per_second_vector(num_envs: int, seconds: float) -> float:
    """Vector env on click-test (1-step episodes): measures concurrent reset+step throughput of
    the env alone (``expert=False``: no oracle lookup after each reset and step)."""
    from agentgym_envs.miniwob.vector import MiniWoBVectorEnv

    vec = MiniWoBVectorEnv(num_envs, task="click-test", expert=False)
    vec.reset(seed=0)
    episodes, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, terminated, truncated, _ = vec.step(["click [1]"] * num_envs)
        episodes += int(terminated.sum() + truncated.sum())
    rate = episodes / (time.perf_counter() - start)
    vec.close()
    return rate


def test_episodes_per_second(benchmark, keeper):
    """Oracle episodes/s of click-checkboxes with one env, then click-test with 1, 4, 16 vector
    envs on one Chromium (expert actions off)."""
    figures = {"click-checkboxes x1 (oracle)": _episodes_per_second_single(5.0)}
    for n in (1, 4, 16):
        figures[f"click-test vector x{n}"] = _episodes_per_second_vector(n, 5.0)
    benchmark.extra_info.update({k: round(v, 1) for k, v in figures.items()})
    benchmark.pedantic(lambda: None, rounds=1, iterations=1)
    print("\nepisodes/s:", {k: round(v, 1) for k, v in figures.items()})
    assert all(v > 0 for v in figures.values())
