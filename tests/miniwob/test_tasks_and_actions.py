"""The task table and the action grammar: no browser needed."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from agentgym_envs.core import ActionError
from agentgym_envs.miniwob.actions import Action, parse_action
from agentgym_envs.miniwob.tasks import (
    EXCLUDED,
    TASKS,
    TEST_MODE_TASKS,
    TEXT_TASKS,
    TIERS,
    check_task_split,
    data_mode,
    default_split,
    html_root,
    registration_entries,
    task_spec,
    task_splits,
    tier_tasks,
)
from tests.miniwob.support import needs_miniwob


@needs_miniwob
def test_table_lists_every_task_the_package_ships():
    shipped = {p.stem for p in (html_root() / "miniwob").glob("*.html")}
    shipped |= {f"flight.{p.name}" for p in (html_root() / "flight").iterdir() if p.is_dir()}
    shipped.discard("flight.flight-common")
    assert shipped == set(TASKS)


def test_most_tasks_are_text_actionable_and_exclusions_say_why():
    assert len(TEXT_TASKS) >= 125  # BrowserGym's 125 MiniWoB tasks, and button-delay
    assert all(reason for reason in EXCLUDED.values())
    assert "chase-circle" in EXCLUDED and {"click-test", "drag-box"} <= set(TEXT_TASKS)


def test_tasks_without_an_oracle_or_scored_by_pixels_are_registered_and_say_why():
    from agentgym_envs.miniwob.tasks import NO_ORACLE, PIXEL_SCORED, REAL_TIME_TASKS

    for table in (NO_ORACLE, PIXEL_SCORED, REAL_TIME_TASKS):
        assert set(table) <= set(TEXT_TASKS) and all(table.values())


def test_ood_tasks_never_appear_in_iid_splits():
    for tier in ("easy", "medium", "hard"):
        iid = set(tier_tasks(tier, "train"))
        ood = set(tier_tasks(tier, "ood"))
        # the only shared tasks are iid tasks the ood split plays in MiniWoB's test mode
        assert iid and ood and iid & ood <= TEST_MODE_TASKS
        assert tier_tasks(tier, "test") == tier_tasks(tier, "adversarial") == sorted(iid)
    assert "click-checkboxes-large" in tier_tasks("hard", "ood")
    assert "email-inbox-forward-nl" in set(tier_tasks("hard", "ood")) & set(
        tier_tasks("hard", "train")
    )
    assert {"click-test-transfer", "click-checkboxes-transfer"} <= {
        task for tier in TIERS for task in tier_tasks(tier, "ood")
    }


def test_a_held_out_task_serves_only_the_ood_split():
    assert task_splits("click-test-transfer") == ("ood",)
    assert task_splits("click-test") == ("train", "valid", "test", "adversarial")
    assert task_splits("email-inbox-forward-nl")[-1] == "ood"
    assert default_split("click-test-transfer") == "ood" and default_split("click-test") == "train"
    with pytest.raises(ValueError, match=r"held out for out-of-distribution.*its splits: ood"):
        check_task_split("click-test-transfer", "train")
    with pytest.raises(ValueError, match="without a MiniWoB test mode"):
        check_task_split("click-test", "ood")
    assert data_mode("ood") == "test" and data_mode("test") == data_mode("train") == "train"


def test_task_spec_errors_are_helpful():
    with pytest.raises(ValueError, match="excluded: needs real-time pointer tracking"):
        task_spec("chase-circle")
    with pytest.raises(ValueError, match="unknown MiniWoB task"):
        task_spec("click-nothing")


def test_registration_entries_cover_every_text_task():
    rows = registration_entries()
    ids = [row["id"] for row in rows]
    assert ids[0] == "AgentGym/MiniWoB-v0"
    assert len(ids) == len(set(ids)) == len(TEXT_TASKS) + 1
    assert {
        "id": "AgentGym/MiniWoB-click-test-v0",
        "entry_point": "agentgym_envs.miniwob.env:MiniWoBEnv",
        "max_episode_steps": 10,
        "kwargs": {"task": "click-test"},
        "difficulties": ("easy",),  # a one-task id is made at its own tier only
        "splits": ("train", "valid", "test", "adversarial"),
    } in rows
    transfer = next(row for row in rows if row["id"] == "AgentGym/MiniWoB-click-test-transfer-v0")
    assert transfer["splits"] == ("ood",)


def test_task_table_import_stays_light():
    code = (
        "import sys, agentgym_envs.miniwob.tasks, agentgym_envs.miniwob;"
        "print(any(m.startswith(('playwright', 'miniwob')) for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("click [3]", Action("click", 3)),
        ("  CLICK[12] ", Action("click", 12)),
        ('type [4] "hello world"', Action("type", 4, "hello world")),
        ('type [4] "say \\"hi\\""', Action("type", 4, 'say "hi"')),
        ('type [4] ""', Action("type", 4, "")),
        ('select [7] "Dorri"', Action("select", 7, "Dorri")),
        ('press "enter"', Action("press", text="Enter")),
        ('press "ctrl+a"', Action("press", text="Control+a")),
        ("scroll [2] Down", Action("scroll", 2, "down")),
        ("noop", Action("noop")),
        ("wait 2", Action("wait", text="2")),
        ("hover [5]", Action("hover", 5)),
        ('select [3] "A" "B c"', Action("select", 3, "A\nB c")),
        ("click_xy 10 20", Action("click_xy", points=((10.0, 20.0),))),
        ("click_xy 10.5, 20", Action("click_xy", points=((10.5, 20.0),))),
        ("drag [3] to [7]", Action("drag", 3, target=7)),
        ("DRAG [3]to[7]", Action("drag", 3, target=7)),
        ("drag 1 2 30 40", Action("drag", points=((1.0, 2.0), (30.0, 40.0)))),
        ('select_text [4] "Lorem ipsum"', Action("select_text", 4, "Lorem ipsum")),
        ("draw 1 2 3 4 5 6", Action("draw", points=((1.0, 2.0), (3.0, 4.0), (5.0, 6.0)))),
        ("draw 1,2, 3,4", Action("draw", points=((1.0, 2.0), (3.0, 4.0)))),
    ],
)
def test_parse_valid_actions(text, expected):
    action = parse_action(text)
    assert action == expected
    assert parse_action(action.render()) == action


@pytest.mark.parametrize(
    "text",
    [
        "click 3",
        "click [x]",
        "type [4] hello",
        'press "Hyper+Q"',
        "scroll [2] left",
        "jump",
        "",
        "select [1]",
        "click [1] extra",
        "wait 60",
        "wait",
        'select [1] "a" junk',
        "click_xy 10",
        "click_xy [3]",
        "drag [1] to",
        "drag [1] [2]",
        "drag 1 2 3",
        "drag 1 2 3 4 5 6",
        "select_text [4] text",
        'select_text "a"',
        "draw 1 2",
        "draw 1 2 3",
    ],
)
def test_parse_rejects_malformed_actions(text):
    with pytest.raises(ActionError):
        parse_action(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("click_xy -1 5", "outside the page"),
        ("drag 1 2 99999 4", "outside the page"),
        ('select_text [2] "  "', "needs the text"),
        ("draw " + "1 2 " * 201, "2 to 200 points"),
        ("draw 1 2 3", "x y pairs"),
    ],
)
def test_pointer_action_errors_say_what_is_wrong(text, message):
    with pytest.raises(ActionError, match=message):
        parse_action(text)


def test_pointer_paths_press_move_and_release():
    from agentgym_envs.miniwob.page import DRAG_STEPS, pointer_ops, selection_matches

    assert pointer_ops("click_xy", [(5, 6)]) == [("move", 5, 6, 1), ("down",), ("up",)]
    drag = pointer_ops("drag", [(0, 0), (8, 0)])
    assert drag[1] == ("down",) and drag[2] == ("move", 8, 0, DRAG_STEPS) and drag[-1] == ("up",)
    draw = pointer_ops("draw", [(0, 0), (40, 0), (40, 4)])
    assert [op[3] for op in draw if op[0] == "move"] == [1, 10, 1]
    assert selection_matches("Lorem  ipsum\n dolor", "lorem ipsum dolor")
    assert not selection_matches("Lorem ipsum", "Lorem ipsum dolor")


def test_text_bbox_rendering_adds_boxes_only_when_asked():
    from agentgym_envs.miniwob.dom_text import render_observation

    nodes = [{"id": 4, "depth": 0, "tag": "button", "text": "Submit", "box": [12, 80, 40, 22]}]
    assert render_observation("Go", nodes) == 'Task: Go\nPage:\n[4] button "Submit"'
    boxed = render_observation("Go", nodes, boxes=True)
    assert boxed.endswith('[4] button "Submit" @12,80,40,22')


def test_missing_chromium_gives_the_install_command(monkeypatch):
    from agentgym_envs.miniwob.browser import BrowserUnavailable, browser_available, find_chromium

    monkeypatch.setenv("AGENTGYM_CHROMIUM", "/nonexistent/chromium")
    ok, why = browser_available()
    assert not ok and "AGENTGYM_CHROMIUM" in why
    with pytest.raises(BrowserUnavailable, match="not an executable"):
        find_chromium()


@needs_miniwob
def test_env_without_chromium_fails_at_construction(monkeypatch):
    pytest.importorskip("playwright")
    from agentgym_envs.miniwob.browser import BrowserUnavailable
    from agentgym_envs.miniwob.env import MiniWoBEnv

    monkeypatch.setenv("AGENTGYM_CHROMIUM", "/nonexistent/chromium")
    with pytest.raises(BrowserUnavailable):
        MiniWoBEnv(task="click-test")


def test_browser_tests_skip_cleanly_without_chromium():
    """The whole MiniWoB suite on a machine without Chromium: skips with the reason, no errors."""
    env = dict(os.environ, AGENTGYM_CHROMIUM="/nonexistent/chromium")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-rs",
            "-p",
            "no:cacheprovider",
            "tests/miniwob/test_env.py",
            "tests/miniwob/test_crash_safety.py",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:]
    assert "passed" not in result.stdout.splitlines()[-1]
    assert "AGENTGYM_CHROMIUM" in result.stdout and "skipped" in result.stdout


def test_disabled_elements_are_not_admissible():
    from agentgym_envs.miniwob.dom_text import admissible_actions

    nodes = [
        {"id": 1, "tag": "button", "text": "Submit", "disabled": True},
        {"id": 2, "tag": "input", "type": "checkbox"},
        {"id": 3, "tag": "select", "options": ["a", "b"], "disabled": True},
        {"id": 4, "tag": "select", "options": ["x"]},
    ]
    actions = admissible_actions(nodes)
    assert "click [1]" not in actions and "click [2]" in actions
    assert not any(a.startswith("select [3]") for a in actions)
    assert 'select [4] "x"' in actions
