"""AgentGym envs as tool environments for TRL's ``GRPOTrainer(environment_factory=...)``.

For tool-calling models (chat templates TRL can parse tool calls from, e.g. the Qwen family):
the env's actions are tool methods with type hints and docstrings, which TRL turns into the
tool schema of the prompt; the model calls them, each call plays one env step and returns the
next observation as the tool's answer; ``get_reward`` gives TRL the episode's score.

    from trl import GRPOConfig, GRPOTrainer
    from agentgym_trl import environment_factory, tool_dataset

    trainer = GRPOTrainer(
        model="Qwen/Qwen3-0.6B", args=GRPOConfig(max_tool_calling_iterations=8, ...),
        train_dataset=tool_dataset(range(512)),
        environment_factory=environment_factory("AgentGym/WebShop-v0", difficulty="easy"),
    )

Each dataset row holds the task's reset ``seed``; TRL passes the row to ``reset``, which resets
the env with that seed and returns the first observation, which states the goal (TRL appends
it to the row's user message), so every rollout of a GRPO group plays one task. The tools are
made from the family's ``ActionSet``, one per action, named and described as the set names and
describes them (``env.unwrapped.action_set.tools()`` holds the same schemas): WebShop
``search(query)``, ``click(button)``; MiniWoB ``click``, ``hover``, ``type_text``,
``select_option``, ``press_key``, ``scroll``, ``noop``, ``wait``, ``click_xy``, ``drag``,
``drag_xy``, ``select_text``, ``draw``. Toy and ALFWorld, whose observations name whole commands,
get one ``act(command)`` tool by default (``environment_factory(..., action_tools=True)``: one
tool per action there too). A call after the episode ended changes nothing and says so.

Envs served by ``agentgym serve`` (TRL's OpenEnv path: env servers on other machines, as many
sessions as the generation batch): ``environment_factory(env_id, env_url="http://host:8000")``
plays each tool env as a session of that server (or pool, comma-separated URLs) through
``RemoteTextEnv``; the tools, rewards and episodes are the same as in-process.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

import gymnasium as gym

from agentgym_envs.alfworld.env import ACTIONS as ALFWORLD_ACTIONS
from agentgym_envs.core import ActionSet, ActionSpec, Arg
from agentgym_envs.miniwob.actions import ACTIONS as MINIWOB_ACTIONS
from agentgym_envs.toy.env import ACTIONS as TOY_ACTIONS
from agentgym_envs.webshop.pages import ACTIONS as WEBSHOP_ACTIONS

#: What the user message says before the env's first observation (TRL appends the observation).
INSTRUCTION = (
    "You are acting in a text environment. Use the tools to act; each tool call is one action "
    "and returns what you see next. Stop calling tools when the task is done."
)


class ToolEnv:
    """One AgentGym env behind TRL's environment protocol (subclasses add the tool methods).

    Every public method but ``reset`` and ``get_reward`` becomes a tool, so there is no public
    ``close``: TRL keeps its pool of instances for the whole run."""

    def __init__(
        self, env_id: str, env_kwargs: dict[str, Any] | None = None, env_url: str | None = None
    ) -> None:
        import agentgym_envs  # noqa: F401 - registers the AgentGym ids

        if env_url:  # a session of an ``agentgym serve`` server
            from agentgym_envs.core.remote import RemoteTextEnv

            self.env: gym.Env = RemoteTextEnv(env_url, env_id, **dict(env_kwargs or {}))
        else:
            self.env = gym.make(env_id, **dict(env_kwargs or {}))
        self.score = 0.0
        self.success = False
        self.done = True
        self.steps = 0

    def reset(self, seed: int | None = None, **row: Any) -> str:
        """Start the row's task (its ``seed``); the first observation (which states the goal)."""
        observation, _ = self.env.reset(seed=None if seed is None else int(seed))
        self.score, self.success, self.done, self.steps = 0.0, False, False, 0
        return f"\n\n{observation}"

    def get_reward(self) -> float:
        """The episode's score (the env's own, in [0, 1]; 0 for an unfinished episode)."""
        return self.score

    def _act(self, action: str) -> str:
        """Play ``action`` as one env step; the tool's answer (TRL's loop drives the episode, a
        tool call at a time, so there is no episode loop here)."""
        if self.done:
            return f"The episode is over (score {self.score:.2f}); no more actions are taken."
        observation, _, terminated, truncated, info = self.env.step(action)
        self.steps += 1
        self.score, self.success = float(info.get("score", 0.0)), bool(info.get("success"))
        self.done = bool(terminated or truncated)
        if info.get("action_error"):
            observation = f"Invalid action: {info['action_error']}\n\n{observation}"
        if self.done:
            outcome = "success" if self.success else "failure"
            observation += f"\n\nThe episode is over ({outcome}, score {self.score:.2f})."
        return observation


def _tool(action: ActionSpec, write: Callable[..., str]) -> Callable[..., str]:
    """A tool method for ``action``: TRL reads its name, signature, type hints and Google-style
    docstring; a call writes its arguments as action text (``write``) and plays it."""
    args = [inspect.Parameter(a.name, _POSITIONAL, annotation=a.type) for a in action.args]
    signature = inspect.Signature(
        [inspect.Parameter("self", _POSITIONAL), *args], return_annotation=str
    )

    def tool(self: ToolEnv, *values: Any, **named: Any) -> str:
        bound = signature.bind(self, *values, **named).arguments
        del bound["self"]
        return self._act(write(**bound))

    lines = []
    for a in action.args:  # transformers reads "(choices: [...])" at a line's end as an enum
        choices = f" (choices: {json.dumps(a.choices)})" if a.choices else ""
        lines.append(f"    {a.name}: {a.description}{choices}")
    tool.__doc__ = "\n".join([action.description, *(["", "Args:", *lines] if lines else [])])
    tool.__name__ = tool.__qualname__ = action.name
    tool.__annotations__ = {**{a.name: a.type for a in action.args}, "return": str}
    tool.__signature__ = signature  # type: ignore[attr-defined]
    return tool


_POSITIONAL = inspect.Parameter.POSITIONAL_OR_KEYWORD


def command_set(actions: ActionSet) -> ActionSet:
    """One ``act(command)`` action that takes any action of ``actions`` as its text."""
    about = "Send one command to the environment and return what happens. Commands: "
    command = Arg("command", str, "The command, as the environment's action list writes it.")
    return ActionSet((ActionSpec("act", "{command}", about + actions.describe(), (command,)),))


def tool_env(actions: ActionSet, name: str) -> type[ToolEnv]:
    """A ``ToolEnv`` class named ``name`` with one tool method per action of ``actions``."""
    tools = {a.name: _tool(a, partial(actions.to_text, a.name)) for a in actions.actions}
    return type(name, (ToolEnv,), {"__doc__": f"The env's actions as tools: {name}.", **tools})


ACTION_SETS: dict[str, ActionSet] = {
    "toy": TOY_ACTIONS, "alfworld": ALFWORLD_ACTIONS, "webshop": WEBSHOP_ACTIONS,
    "miniwob": MINIWOB_ACTIONS,
}  # fmt: skip
#: the families whose tools are one ``act(command)`` by default (their observations and
#: admissible actions name whole commands)
COMMAND_FAMILIES = ("toy", "alfworld")


def _tools(family: str, action_tools: bool) -> type[ToolEnv]:
    actions = ACTION_SETS[family]
    return tool_env(actions if action_tools else command_set(actions), f"{family.title()}Tools")


TOOLS_BY_FAMILY: dict[str, type[ToolEnv]] = {
    family: _tools(family, family not in COMMAND_FAMILIES) for family in ACTION_SETS
}


def environment_factory(
    env_id: str,
    *,
    action_tools: bool | None = None,
    env_url: str | None = None,
    **env_kwargs: Any,
) -> Callable[[], ToolEnv]:
    """``environment_factory`` for ``GRPOTrainer``: each call makes one tool env of ``env_id``.
    ``action_tools``: a tool per action (True) or one ``act(command)`` tool (False); None: the
    family's default (``TOOLS_BY_FAMILY``). ``env_url``: play on ``agentgym serve`` server(s)
    there (comma-separated for a pool; a token from ``$AGENTGYM_SERVE_TOKEN``), not in-process."""
    from agentgym_envs.registration import entry_for

    family = entry_for(env_id).family
    if family not in ACTION_SETS:
        raise ValueError(f"no tool set for {env_id} (family {family!r}); known: "
                         f"{', '.join(sorted(ACTION_SETS))}")  # fmt: skip
    tools = TOOLS_BY_FAMILY[family] if action_tools is None else _tools(family, action_tools)
    return partial(tools, env_id, env_kwargs, env_url)


def tool_dataset(seeds: Iterable[int], instruction: str = INSTRUCTION) -> Any:
    """A ``datasets.Dataset`` of one row per reset seed: a user message (``instruction``; TRL
    appends the env's goal and first observation from ``reset``) and the ``seed``."""
    from datasets import Dataset

    seeds = [int(seed) for seed in seeds]
    prompt = [{"role": "user", "content": instruction}]
    return Dataset.from_dict({"prompt": [prompt] * len(seeds), "seed": seeds})


__all__ = [
    "ACTION_SETS",
    "TOOLS_BY_FAMILY",
    "ToolEnv",
    "environment_factory",
    "tool_dataset",
    "tool_env",
]
