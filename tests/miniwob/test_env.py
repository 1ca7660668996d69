"""MiniWoBEnv on a real page: Farama-equal seeding, determinism, actions, splits, the contract."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

from agentgym_envs.miniwob.tasks import data_mode
from tests.miniwob.support import needs_browser

pytestmark = needs_browser

FARAMA_TASKS = [
    "click-button",
    "enter-text",
    "click-checkboxes",
    "email-inbox",
    "choose-list",
    "login-user",
    "email-inbox-nl-turk",
]


def farama_utterances(task: str, seeds: list[int], mode: str = "train") -> list[str]:
    """What Farama's Selenium env shows for these seeds: a freshly loaded page and its exact
    sequence of execute_script calls (force_stop, set_seed, set_mode, startEpisodeReal)."""
    from agentgym_envs.miniwob.browser import SyncBrowser
    from agentgym_envs.miniwob.tasks import task_url

    found = []
    context = SyncBrowser.acquire()  # a second sync Playwright cannot run in this thread
    try:
        for seed in seeds:
            page = context.new_page()
            page.goto(task_url(task))
            page.wait_for_selector("#sync-task-cover")
            page.evaluate("core.endEpisode(0);")
            page.evaluate(f"Math.seedrandom({seed!r});")
            page.evaluate(f"core.setDataMode({mode!r});")
            page.evaluate("core.startEpisodeReal();")
            utterance = page.evaluate("core.getUtterance();")
            found.append(utterance["utterance"] if isinstance(utterance, dict) else utterance)
            page.close()
    finally:
        SyncBrowser.release(context)
    return found


@pytest.mark.parametrize("task", FARAMA_TASKS)
def test_page_seeds_give_farama_utterances(make_env, task):
    env = make_env(task=task)
    seeds, ours = [], []
    for seed in range(3):  # one page reused across the three episodes
        _, info = env.reset(seed=seed)
        seeds.append(info["page_seed"])
        ours.append(info["utterance"])
    # a held-out task (email-inbox-nl-turk) plays ood, in MiniWoB's test data mode
    assert ours == farama_utterances(task, seeds, data_mode(env.split))
    assert len(set(seeds)) == 3


def test_same_seed_same_episode_across_envs(make_env):
    first, second = make_env(task="click-checkboxes"), make_env(task="click-checkboxes")
    obs_a, info_a = first.reset(seed=7)
    second.reset(seed=8)
    obs_b, info_b = second.reset(seed=7)
    assert obs_a == obs_b and info_a == info_b
    step_a = first.step("click [2]")
    step_b = second.step("click [2]")
    assert step_a[0] == step_b[0] and step_a[1:4] == step_b[1:4]


def test_solving_by_hand_gives_reward_one(make_env):
    env = make_env(task="enter-text")
    obs, info = env.reset(seed=3)
    word = info["utterance"].split('"')[1]
    assert '[1] input type=text #tt value=""' in obs and '[2] button "Submit"' in obs
    obs, reward, terminated, truncated, info = env.step(f'type [1] "{word}"')
    assert (reward, terminated) == (0.0, False) and f'value="{word}" focused' in obs
    obs, reward, terminated, truncated, info = env.step("click [2]")
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["success"] and info["raw_reward"] == 1.0 and info["score"] == 1.0
    assert "Episode over (success" in obs


def test_wrong_answer_scores_zero(make_env):
    env = make_env(task="click-test-2")
    obs, info = env.reset(seed=0)
    wrong = "TWO" if "ONE" in info["utterance"] else "ONE"
    line = next(line for line in obs.splitlines() if f'"{wrong}"' in line)
    _, reward, terminated, _, info = env.step(f"click {line.split()[0]}")
    assert terminated and reward == 0.0 and info["raw_reward"] == -1.0 and not info["success"]


@pytest.mark.parametrize("rule", ["farama", "browsergym"])
def test_a_partly_right_page_scores_its_credit_and_succeeds_only_under_browsergym(make_env, rule):
    env = make_env(task="click-checkboxes", success_rule=rule)
    obs, info = env.reset(seed=3)  # "Select FQN, aS840Ai and click Submit." (3 boxes)
    boxes = [line.split()[0] for line in obs.splitlines() if "checkbox" in line]
    wanted = info["utterance"].removeprefix("Select ").removesuffix(" and click Submit.")
    right = [box for box in boxes if _label(obs, box) in wanted.split(", ")]
    wrong = next(b for b in boxes if b not in right)
    for box in [*right, wrong]:
        obs, *_ = env.step(f"click {box}")
    submit = next(line.split()[0] for line in obs.splitlines() if '"Submit"' in line)
    obs, reward, terminated, _, info = env.step(f"click {submit}")
    assert terminated and info["raw_reward"] == pytest.approx(1 / 3)
    assert reward == info["score"] == pytest.approx(1 / 3)  # partial credit is kept
    assert info["success"] == (rule == "browsergym")
    assert ("Episode over (success" in obs) == (rule == "browsergym")


def _label(obs: str, box: str) -> str:
    """The label of checkbox ``box``: the quoted text on the line above it."""
    lines = obs.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith(box + " "))
    return lines[at - 1].split('"')[1]


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("click [999]", "no element [999]"),
        ("fly away", "cannot parse"),
        ('type [2] "x"', "not a text field"),
        ('select [1] "x"', "not a dropdown"),
        ('press "Hyper+X"', "unknown modifier"),
        ("click_xy 9000 10", "outside the page"),
        ("drag [999] to [1]", "no element [999]"),
        ('select_text [999] "x"', "no element [999]"),
        ("draw 5 5 1000 5", "outside the page"),
    ],
)
def test_bad_actions_cost_a_step_and_say_why(make_env, action, reason):
    env = make_env(task="enter-text")
    obs0, _ = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(action)
    assert reason in info["action_error"] and reward == 0.0 and not terminated
    assert obs.startswith(obs0) and "Invalid action" in obs


def test_select_and_admissible_actions(make_env):
    env = make_env(task="choose-list")
    obs, info = env.reset(seed=2)
    target = info["utterance"].split("Select ")[1].split(" from")[0]
    assert f'select [1] "{target}"' in info["admissible_actions"]
    assert "click [2]" in info["admissible_actions"] and "noop" in info["admissible_actions"]
    obs, *_ = env.step(f'select [1] "{target}"')
    assert f'value="{target}"' in obs
    _, reward, terminated, _, info = env.step("click [2]")
    assert terminated and reward == 1.0


def test_each_reset_seed_plays_its_own_page_in_its_splits_block(make_env):
    from agentgym_envs.miniwob.seeds import BLOCK, SPLIT_BLOCK, page_seed

    for split in ("train", "valid", "test"):
        env = make_env(task="click-button", split=split)
        seeds = [env.reset(seed=s)[1]["page_seed"] for s in range(3)]
        assert seeds == [page_seed(split, s) for s in range(3)]
        assert all(s // BLOCK == SPLIT_BLOCK[split] for s in seeds)
    seedless = {env.reset()[1]["page_seed"] for _ in range(3)}  # drawn, still in the block
    assert all(s // BLOCK == SPLIT_BLOCK["test"] for s in seedless)


def test_adversarial_adds_decoys_and_distraction_with_the_same_task(make_env):
    plain = make_env(task="click-button", split="test")
    tricky = make_env(task="click-button", split="adversarial")
    obs_plain, info_plain = plain.reset(seed=4)
    obs_tricky, info_tricky = tricky.reset(seed=4)
    assert info_plain["page_seed"] == info_tricky["page_seed"]
    assert info_plain["utterance"] == info_tricky["utterance"]
    assert info_tricky["goal"] != info_tricky["utterance"]
    assert info_tricky["utterance"] in info_tricky["goal"]
    assert obs_tricky.count("button") > obs_plain.count("button")


def test_tier_env_samples_tasks_and_reports_tier(make_env):
    env = make_env(difficulty="medium", split="ood")
    assert "click-checkboxes-soft" in env.task_ids()
    _, info = env.reset(seed=0)
    assert info["task_id"] in env.task_ids() and info["difficulty"] == "medium"
    _, info = env.reset(options={"task_id": "navigate-tree"})
    assert info["task_id"] == "navigate-tree"


def test_ood_split_plays_miniwobs_test_distribution(make_env):
    # click-test-transfer's test mode asks for button TWO; Farama's env only ever shows ONE
    env = make_env(task="click-test-transfer")  # a held-out task: its default split is ood
    goals = {env.reset(seed=seed)[1]["goal"] for seed in range(3)}
    assert env.split == "ood" and goals == {"Click button TWO."}
    env = make_env(task="click-checkboxes-transfer")
    for seed in range(3):
        goal = env.reset(seed=seed)[1]["goal"]
        assert 4 <= len(goal.split(",")) <= 6, goal  # test mode: 4-6 boxes (train: 0-3)
    train = make_env(task="email-inbox-forward-nl")
    ood = make_env(task="email-inbox-forward-nl", split="ood")
    assert train.reset(seed=0)[1]["utterance"] != ood.reset(seed=0)[1]["utterance"]


def test_terminal_shows_the_same_page_on_every_day(make_env):
    # its page prints "Last login: <today>" and blinks a caret every 800 ms: neither may reach
    # the observation, or a seed's replay differs the next day (or the next 800 ms)
    env = make_env(task="terminal")
    observation, _ = env.reset(seed=7)
    assert "Last login: Sun Jan 01 2017" in observation
    assert "input-flicker" not in observation and "\u2588" not in observation


def test_terminal_takes_keys_pressed_right_after_reset(make_env):
    # its page focuses the terminal 200 ms after the episode starts: reset waits for that timer,
    # so keys pressed at once reach the terminal, as keys pressed later do
    env = make_env(task="terminal")
    for seed in (0, 5):
        env.reset(seed=seed)
        observation, *_ = env.step('press "l"')
        assert observation.splitlines()[-1].endswith('span "l"'), observation


def test_a_one_task_env_refuses_a_split_that_would_leak(make_env):
    with pytest.raises(ValueError, match="held out for out-of-distribution"):
        make_env(task="click-test-transfer", split="train")
    with pytest.raises(ValueError, match="without a MiniWoB test mode"):
        make_env(task="click-test", split="ood")


def test_bad_kwargs_raise_helpful_errors(make_env):
    with pytest.raises(ValueError, match="tier 'easy'"):
        make_env(task="click-test", difficulty="hard")
    with pytest.raises(ValueError, match="excluded"):
        make_env(task="chase-circle")
    with pytest.raises(ValueError, match="observation_mode"):
        make_env(task="click-test", observation_mode="pixels")
    with pytest.raises(ValueError, match="split"):
        make_env(task="click-test", split="bogus")


def test_passes_gymnasium_env_checker(make_env):
    from gymnasium.utils.env_checker import check_env

    env = make_env(task="click-button")
    check_env(env, skip_render_check=True)


def test_close_twice_and_reuse_after_close(make_env):
    env = make_env(task="click-test")
    env.reset(seed=0)
    env.close()
    env.close()
    obs, _ = env.reset(seed=0)  # a closed env may be reset again: it reacquires a page
    assert "Click Me" in obs


def test_text_spaces_hold_observations(make_env):
    env = make_env(task="email-inbox")
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert isinstance(env.observation_space, gym.spaces.Text)


def _episode_in_subprocess(task: str, seed: int, actions: list[str]) -> str:
    import json
    import subprocess
    import sys

    code = (
        "import json, sys\n"
        "from agentgym_envs.miniwob.env import MiniWoBEnv\n"
        f"env = MiniWoBEnv(task={task!r})\n"
        f"obs, info = env.reset(seed={seed})\n"
        "out = [obs, info]\n"
        f"for a in {actions!r}:\n"
        "    out.append(list(env.step(a)))\n"
        "env.close()\n"
        "print(json.dumps(out, sort_keys=True))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return json.loads(result.stdout)


def test_episodes_are_identical_across_processes():
    actions = ["click [2]", "click [4]", "click [7]"]
    first = _episode_in_subprocess("click-checkboxes", 11, actions)
    second = _episode_in_subprocess("click-checkboxes", 11, actions)
    assert first == second


def test_works_inside_gymnasium_async_vector_env():
    from functools import partial

    from agentgym_envs.miniwob.env import MiniWoBEnv

    fns = [partial(MiniWoBEnv, task="click-test"), partial(MiniWoBEnv, task="click-test")]
    vec = gym.vector.AsyncVectorEnv(fns, shared_memory=False)
    try:
        observations, infos = vec.reset(seed=[0, 1])
        assert all("[1] button" in o for o in observations)
        _, rewards, terminated, _, _ = vec.step(["click [1]", "noop"])
        assert list(rewards) == [1.0, 0.0] and list(terminated) == [True, False]
    finally:
        vec.close()


def test_pictures_in_the_instruction_are_named(make_env):
    """click-menu-2 sometimes names the item by an icon only: the goal names the icon class."""
    env = make_env(task="click-menu-2")
    goals = [env.reset(seed=seed)[1] for seed in range(8)]
    with_icon = [info for info in goals if "[ui-icon-" in info["goal"]]
    assert with_icon, "expected an icon variant among 8 seeds"
    assert all("[" not in info["utterance"] for info in with_icon)


def test_a_colour_swatch_in_the_instruction_is_named_by_its_colour(make_env):
    """click-color draws the wanted colour as a swatch in 60% of episodes: the goal names the
    colour as the page's own utterance does (it once read "[color]", leaving the agent to guess)."""
    env = make_env(task="click-color")
    for seed in range(8):
        obs, info = env.reset(seed=seed)
        colour = info["utterance"].split()[3]
        assert info["goal"] == info["utterance"] == f"Click on the {colour} colored box."
        assert f"color={colour}" in obs


def test_text_bbox_mode_adds_boxes_and_screenshots_come_on_request(make_env):
    plain = make_env(task="click-button")
    boxed = make_env(task="click-button", observation_mode="text_bbox", screenshot=True)
    obs, info = plain.reset(seed=3)
    obs_boxed, info_boxed = boxed.reset(seed=3)
    assert "@" not in obs and "screenshot" not in info
    lines, boxed_lines = obs.splitlines(), obs_boxed.splitlines()
    assert len(lines) == len(boxed_lines)
    for line, with_box in zip(lines, boxed_lines, strict=True):
        assert with_box == line or (with_box.startswith(line + " @") and line.lstrip()[0] == "[")
    assert info_boxed["screenshot"].startswith(b"\x89PNG")
    button = next(line for line in boxed_lines if "] button " in line)
    x, y, w, h = (int(v) for v in button.rsplit("@", 1)[1].split(","))
    # a click at the box's centre is a click on the element
    before = info_boxed["untrusted_clicks"]
    _, _, _, _, after = boxed.step(f"click_xy {x + w // 2} {y + h // 2}")
    assert after["action_error"] is None and after["untrusted_clicks"] == before
    assert after["screenshot"].startswith(b"\x89PNG")


def test_pointer_actions_draw_and_select_text(make_env):
    env = make_env(task="highlight-text")
    obs, info = env.reset(seed=2)
    page = env.unwrapped.task.page
    events = "() => { window.__ev = []; for (const t of ['mousedown', 'mousemove', 'mouseup'])"
    events += (
        " document.addEventListener(t, (e) => window.__ev.push([t, e.pageX, e.pageY]), true);}"
    )
    page.evaluate(events)
    env.step("draw 150 150 170 150 170 170")
    seen = page.evaluate("() => window.__ev")
    presses = [event for event in seen if event[0] != "mousemove"]
    assert presses == [["mousedown", 150, 150], ["mouseup", 170, 170]]  # one press, a polyline
    down, up = seen.index(presses[0]), seen.index(presses[1])
    moves = seen[down + 1 : up]
    assert ["mousemove", 170, 150] in moves and len(moves) >= 5 + 5
    # after the release only the settling move back onto the resting point (hover states)
    assert all(event == ["mousemove", 170, 170] for event in seen[up + 1 :])

    paragraph = page.evaluate("() => document.getElementById('randomText').textContent.trim()")
    words = paragraph.split()
    element = next(
        int(n["id"]) for n in env.unwrapped.task.nodes if n.get("htmlId") == "randomText"
    )
    _, _, _, _, info = env.step(f'select_text [{element}] "{words[0]} {words[1]}"')
    assert info["action_error"] is None and info["untrusted_clicks"] == 0
    assert page.evaluate("() => window.getSelection().toString()") == f"{words[0]} {words[1]}"
    _, _, _, _, info = env.step(f"select_text [{element}] {json.dumps(paragraph)}")  # anew
    assert info["action_error"] is None and info["untrusted_clicks"] == 0
    assert page.evaluate("() => window.getSelection().toString()").strip() == paragraph
    _, _, _, _, info = env.step(f'select_text [{element}] "not in the text"')
    assert "has no text" in info["action_error"]


def test_drag_an_element_onto_another(make_env):
    env = make_env(task="drag-items")
    _, info = env.reset(seed=2)
    assert info["goal"] == "Drag Ginni to the 1st position."
    items = [n for n in env.unwrapped.task.nodes if n.get("tag") == "div" and n.get("text")]
    ids = {n["text"]: n["id"] for n in items}
    first = items[0]["id"]
    _, reward, terminated, _, info = env.step(f"drag [{ids['Ginni']}] to [{first}]")
    assert (reward, terminated, info["action_error"], info["untrusted_clicks"]) == (
        1.0,
        True,
        None,
        0,
    )


@pytest.mark.parametrize("task", ["click-test", "copy-paste-2", "use-autocomplete", "click-menu-2"])
def test_a_reused_page_plays_an_episode_as_a_fresh_page_does(make_env, task):
    # Episodes played back to back on one page, then replayed in the other order on another: the
    # last episode's focus, Tab starting point, selection, scrolled boxes or screen-reader text
    # once leaked into the next episode's observations.
    from agentgym_envs.agents import make_agent
    from agentgym_envs.core.episode import play_episode

    env = make_env(task=task)
    played = [play_episode(env, make_agent(agent), seed, 10).to_record()
              for agent, seed in (("random", 1), ("oracle", 2), ("random", 3))]  # fmt: skip
    other = make_env(task=task)
    for record in reversed(played):
        observation, _ = other.reset(seed=record["seed"])
        assert observation == record["observation"], record["seed"]
        for step in record["steps"]:
            observation, *_ = other.step(step["action"])
            assert observation == step["observation"], (record["seed"], step["action"])


def test_form_sequence_3_plays_the_same_episode_after_any_other(make_env):
    # Its dropdown (jQuery selectric) keeps a document click handler bound across episodes when
    # one ends with the list opened: the same click then opened the list in one episode and not
    # in the next, so replays depended on what the page had played before. It reloads per episode.
    env = make_env(task="form-sequence-3", split="test")
    actions = ['select [2] "5ft 11in"', 'select [2] "5ft 9in"', "click [5]", "click [12]",
               "click [1]"]  # fmt: skip

    def play() -> list[str]:
        observation, _ = env.reset(seed=0)
        return [observation] + [env.step(action)[0] for action in actions]

    first = play()
    assert "selectric-open" in first[3]  # the click opened the list, which ends the episode open
    assert play() == first and play() == first
