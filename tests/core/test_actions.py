"""``ActionSet``: each family's set gives today's help text, its ``to_text`` parses back to the
same action, its tool schemas are complete, and the envs and the prompt wrapper use it."""

from __future__ import annotations

import gymnasium as gym
import pytest

import agentgym_envs  # noqa: F401 - registers the ids
from agentgym_envs.alfworld.env import ACTIONS as ALFWORLD
from agentgym_envs.core import ActionError, ActionSet, Call
from agentgym_envs.miniwob.actions import ACTIONS as MINIWOB
from agentgym_envs.miniwob.actions import Action
from agentgym_envs.toy.env import ACTIONS as TOY
from agentgym_envs.webshop.pages import ACTIONS as WEBSHOP
from agentgym_envs.wrappers import LLMPromptWrapper

#: the help texts the envs showed before they had action sets (prompts keep them)
HELP = {
    "toy": "go to <room> | take <object> | drop <object> | unlock <room> (needs the key)"
    " | look | inventory",
    "webshop": "search[keywords]  -- search the shop (from any page)\n"
    "click[button]     -- click a button, product id or option shown on the page",
    "alfworld": "go to X | open X | close X | take X from Y | move X to Y (or put X in/on Y) | "
    "use X | heat X with Y | cool X with Y | clean X with Y | slice X with Y | "
    "examine X | inventory | look | help",
    "miniwob": 'click [id] | hover [id] | type [id] "text" | select [id] "option" | press "Key" | '
    "scroll [id] up|down|top|bottom | noop | wait N | click_xy X Y | drag [id] to [id] | "
    'drag X1 Y1 X2 Y2 | select_text [id] "text" | draw X1 Y1 X2 Y2 ...',
}
SETS = {"toy": TOY, "webshop": WEBSHOP, "alfworld": ALFWORLD, "miniwob": MINIWOB}
#: every MiniWoB action, with arguments and the action they parse back to
MINIWOB_CALLS = [
    ("click", {"element": 4}, Action("click", 4)),
    ("hover", {"element": 4}, Action("hover", 4)),
    ("type_text", {"element": 2, "text": 'say "hi" ü'}, Action("type", 2, 'say "hi" ü')),
    ("select_option", {"element": 5, "option": "Blue"}, Action("select", 5, "Blue")),
    ("press_key", {"key": "Enter"}, Action("press", text="Enter")),
    ("scroll", {"element": 1, "direction": "bottom"}, Action("scroll", 1, "bottom")),
    ("noop", {}, Action("noop")),
    ("wait", {"seconds": 1.5}, Action("wait", text="1.5")),
    ("click_xy", {"x": 10, "y": 20.5}, Action("click_xy", points=((10, 20.5),))),
    ("drag", {"element": 3, "target": 7}, Action("drag", 3, target=7)),
    ("drag_xy", {"x1": 1, "y1": 2, "x2": 3, "y2": 4}, Action("drag", points=((1, 2), (3, 4)))),
    ("select_text", {"element": 2, "text": "two words"}, Action("select_text", 2, "two words")),
    ("draw", {"points": [1, 2, 3, 4, 5, 6]}, Action("draw", points=((1, 2), (3, 4), (5, 6)))),
]


@pytest.mark.parametrize("family", SETS)
def test_describe_is_the_help_the_env_shows(family):
    assert SETS[family].describe() == HELP[family]


@pytest.mark.parametrize("family", ["toy", "alfworld", "webshop"])
def test_to_text_parses_back_to_the_same_action(family):
    actions = SETS[family]
    for action in actions.actions:
        args = {arg.name: f"red box {i}" for i, arg in enumerate(action.args)}
        parsed = actions.parse(actions.to_text(action.name, **args))
        webshop = (action.name, *args.values())  # its parser gives (name, argument)
        assert parsed == (webshop if family == "webshop" else Call(action.name, args))


def test_miniwob_to_text_parses_back_to_the_same_action():
    assert [name for name, _, _ in MINIWOB_CALLS] == MINIWOB.names()
    for name, args, expected in MINIWOB_CALLS:
        text = MINIWOB.to_text(name, **args)
        assert MINIWOB.parse(text) == expected and expected.render() == text


def test_parse_raises_the_family_error_and_reads_the_family_forms():
    for actions, text in [(TOY, "fly away"), (ALFWORLD, "dance"), (WEBSHOP, "buy[it]"),
                          (WEBSHOP, "hello"), (MINIWOB, "click 4")]:  # fmt: skip
        with pytest.raises(ActionError):
            actions.parse(text)
    assert TOY.parse("Go to the Living Room.") == Call("go_to", {"room": "living room"})
    assert ALFWORLD.parse("put apple 1 in/on fridge 1") == Call(
        "move", {"object": "apple 1", "receptacle": "fridge 1"}
    )
    with pytest.raises(TypeError, match="takes"):
        TOY.to_text("go_to")
    with pytest.raises(KeyError, match="no action 'fly'"):
        TOY.to_text("fly")


@pytest.mark.parametrize("family", SETS)
def test_every_action_has_a_tool_schema(family):
    actions: ActionSet = SETS[family]
    tools = actions.tools()
    assert [tool["function"]["name"] for tool in tools] == actions.names()
    for tool, action in zip(tools, actions.actions, strict=True):
        parameters = tool["function"]["parameters"]
        assert tool["type"] == "function" and tool["function"]["description"]
        assert list(parameters["properties"]) == parameters.get("required", [])
        assert [arg.name for arg in action.args] == list(parameters["properties"])
        assert all(p["description"] and ("type" in p) for p in parameters["properties"].values())
    if family == "miniwob":
        scroll = tools[MINIWOB.names().index("scroll")]["function"]["parameters"]["properties"]
        assert scroll["direction"]["enum"] == ["up", "down", "top", "bottom"]
        draw = tools[MINIWOB.names().index("draw")]["function"]["parameters"]["properties"]
        assert draw["points"]["type"] == "array"


def test_the_env_exposes_its_set_and_the_prompt_describes_it():
    from agentgym_envs.alfworld.env import ALFWorldEnv
    from agentgym_envs.miniwob.env import MiniWoBEnv
    from agentgym_envs.webshop.env import WebShopEnv

    for env_class, family in [(ALFWorldEnv, "alfworld"), (MiniWoBEnv, "miniwob"),
                              (WebShopEnv, "webshop")]:  # fmt: skip
        assert env_class.action_set is SETS[family] and env_class.action_help == HELP[family]
    env = LLMPromptWrapper(gym.make("AgentGym/Toy-v0", difficulty="easy"))
    assert env.unwrapped.action_set is TOY and env.unwrapped.action_help == HELP["toy"]
    assert env.formatter.action_help == TOY.describe()
    prompt, _ = env.reset(seed=0)
    assert f"Actions: {HELP['toy']}" in prompt
    env.close()


def test_toy_set_reads_and_writes_every_admissible_command():
    env = gym.make("AgentGym/Toy-v0", difficulty="hard")
    for seed in range(5):
        _, info = env.reset(seed=seed)
        while info["expert_action"] is not None:
            for command in info["admissible_actions"]:
                call = TOY.parse(command)
                assert TOY.to_text(call.name, **call.args) == command
            _, _, _, _, info = env.step(info["expert_action"])
    env.close()
