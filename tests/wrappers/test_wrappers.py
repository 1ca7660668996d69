"""Prompt formatting and parsing, admissible-only mapping, and trajectory recording."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

from agentgym_envs.wrappers import (
    AdmissibleOnly,
    LLMPromptWrapper,
    PromptFormatter,
    TrajectoryRecorder,
    Turn,
    parse_action,
)


@pytest.mark.parametrize(
    ("completion", "expected"),
    [
        ("Thought: the red room is right.\nAction: go to red room", "go to red room"),
        # the FIRST action: a model running on writes the next observation and more moves
        ("Thought: x\nAction: look\nObservation: a room\nAction: take apple", "look"),
        ("Action:\n  go north\nmore", "go north"),  # the label alone on its line
        # reasoning blocks never become actions (Qwen3, DeepSeek-R1 and the like)
        ("<think>\nAction: no, not this\n</think>\n\nAction: click[buy now]", "click[buy now]"),
        ("<think>I should search.</think>search[red shoes]", "search[red shoes]"),
        ("The prompt opened the block.\nAction: wrong\n</think>\nAction: look", "look"),
        ("<THINK>unclosed, cut off at max_tokens: Action: go", ""),
        # Markdown-emphasised labels and actions
        ("**Action:** click[b01234abcd]", "click[b01234abcd]"),
        ("### Action: inventory", "inventory"),
        ("*Action:* `go to kitchen`", "go to kitchen"),
        ("Thought: fine.\n**Action**: **look**", "look"),
        ("action:   `search[blue shoes]`  ", "search[blue shoes]"),
        ("**Action**: click[buy now]", "click[buy now]"),
        ('Action: "inventory"', "inventory"),
        ("go to hallway\nmore text", "go to hallway"),
        ("Thought: only thinking", ""),
        ("", ""),
        # an action copied from the prompt's list with its marker (SmolLM2-135M does this)
        ("- go to yellow room\n- go to black room", "go to yellow room"),
        ("Action: - click [3]", "click [3]"),
        ("* look", "look"),
        ("2. go to cabinet 1", "go to cabinet 1"),
        ("3) inventory", "inventory"),
        ("Action: press -", "press -"),  # a dash inside the action stays
        ("-5 is a number", "-5 is a number"),  # no space after the dash: not a marker
        # a quote that closes one opened inside the action stays (MiniWoB's type actions)
        ('Action: type [1] "Cierra"', 'type [1] "Cierra"'),
        ('Action: press "Tab"', 'press "Tab"'),
        ('type [2] "it\'s"', 'type [2] "it\'s"'),
        ('Action: "type [1] "hi"', 'type [1] "hi"'),  # the unpaired leading quote goes
        ('"press "Enter""', 'press "Enter"'),  # the pair around the whole action goes
        # a mark without a partner (a reply cut short) or a pair around the whole action goes
        ('Action: "go to red room', "go to red room"),
        ('go to red room"', "go to red room"),
        ("“go north”", "go north"),
        ("‘go north", "go north"),
        ("Action: **click [2]**", "click [2]"),
        ("search[i'm here]", "search[i'm here]"),
    ],
)
def test_parse_action(completion, expected):
    assert parse_action(completion) == expected


def test_history_is_truncated_oldest_first_to_the_budget():
    formatter = PromptFormatter(action_help="look", max_history_tokens=60, count_tokens=len)
    history = [Turn(f"obs{i}", f"act{i}") for i in range(10)]
    messages = formatter.messages(history, "now")
    assert messages[0]["role"] == "system" and "Actions: look" in messages[0]["content"]
    assert messages[-1]["content"].startswith("Observation: now")
    kept = [m["content"] for m in messages if m["role"] == "assistant"]
    assert kept == [f"act{i}" for i in range(10 - len(kept), 10)]
    assert 0 < len(kept) < 10
    assert "earlier turn(s) omitted" in messages[1]["content"]
    total = sum(len(m["content"]) for m in messages[1:-1] if m["role"] == "assistant")
    assert total <= 60


def test_prompt_wrapper_parses_completions_and_builds_messages():
    env = LLMPromptWrapper(gym.make("AgentGym/Toy-v0", difficulty="easy", split="valid"))
    prompt, info = env.reset(seed=1)
    assert prompt.endswith("Assistant:") and "Choose one of these actions:\n- go to " in prompt
    assert "Reply with one line: Action: <one action from the list" in prompt
    target = env.unwrapped.task.house.layout.target_room
    prompt, reward, terminated, _, info = env.step(f"Thought: easy.\nAction: go to {target}")
    assert info["parsed_action"] == f"go to {target}"
    assert reward == 1.0 and terminated
    assert [m["role"] for m in info["messages"]] == ["system", "user", "assistant", "user"]


def test_admissible_only_maps_indices_and_near_misses():
    env = AdmissibleOnly(gym.make("AgentGym/Toy-v0", difficulty="medium", split="valid"))
    obs, info = env.reset(seed=0)
    actions = info["admissible_actions"]
    assert "Admissible actions:\n1. " + actions[0] in obs
    assert env.map_action(1) == actions[0]
    assert env.map_action("2") == actions[1]
    assert env.map_action("LOOK") == "look"
    assert env.map_action("inventroy") == "inventory"
    assert env.map_action("sing a song") == "sing a song"
    assert env.map_action(99) == "99"
    _, _, _, _, info = env.step("inventroy")
    assert info["mapped_action"] == "inventory" and info["action_error"] is None


def test_recorder_writes_one_line_per_episode(tmp_path):
    path = tmp_path / "traj.jsonl"
    env = TrajectoryRecorder(gym.make("AgentGym/Toy-v0", difficulty="easy"), path)
    obs, info = env.reset(seed=4)
    while True:
        obs, reward, terminated, truncated, info = env.step(info["expert_action"])
        if terminated or truncated:
            break
    env.reset(seed=5)
    env.step("look")
    env.close()
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["complete"] for r in records] == [True, False]
    first = records[0]
    assert first["env_id"] == "AgentGym/Toy-v0" and first["seed"] == 4
    assert first["success"] and first["return"] == 1.0 and first["length"] == 1
    assert first["steps"][0]["action"] == first["steps"][0]["expert_action"]
    assert records[1]["steps"][0]["action"] == "look"
