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
it to the row's user message), so every rollout of a GRPO group plays one task. The tools by
env family: Toy and ALFWorld ``act(command)``; WebShop ``search(query)`` and ``click(button)``;
MiniWoB ``click(element)``, ``type_text(element, text)``, ``press_key(key)``,
``select_option(element, option)``, ``scroll(element, direction)``, ``hover(element)``,
``wait(seconds)``. A call after the episode ended changes nothing and says so.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

import gymnasium as gym

#: What the user message says before the env's first observation (TRL appends the observation).
INSTRUCTION = (
    "You are acting in a text environment. Use the tools to act; each tool call is one action "
    "and returns what you see next. Stop calling tools when the task is done."
)


class ToolEnv:
    """One AgentGym env behind TRL's environment protocol (subclasses add the tool methods).

    Every public method but ``reset`` and ``get_reward`` becomes a tool, so there is no public
    ``close``: TRL keeps its pool of instances for the whole run."""

    def __init__(self, env_id: str, env_kwargs: dict[str, Any] | None = None) -> None:
        import agentgym_envs  # noqa: F401 - registers the AgentGym ids

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
        """Play ``action`` as one env step; the tool's answer."""
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


class CommandTools(ToolEnv):
    """Toy and ALFWorld: one free-text command per call."""

    def act(self, command: str) -> str:
        """Send one command to the environment and return what happens.

        Args:
            command: The command, as the environment's action list writes it, e.g. "go to kitchen"
                or "take apple 1 from countertop 2".
        """
        return self._act(command)


class WebShopTools(ToolEnv):
    """WebShop: search the shop, click what the page shows."""

    def search(self, query: str) -> str:
        """Search the shop (only on a page with a search box) and return the results page.

        Args:
            query: Words describing the product you want.
        """
        return self._act(f"search[{query}]")

    def click(self, button: str) -> str:
        """Click a button or link of the current page and return the next page.

        Args:
            button: Its text as the page shows it, e.g. a product id such as "B0AB12CD34",
                an option value, "Buy Now", "Next >" or "Back to Search".
        """
        return self._act(f"click[{button.strip().lower()}]")


class MiniWoBTools(ToolEnv):
    """MiniWoB: elements are the bracketed numbers of the observation."""

    def click(self, element: int) -> str:
        """Click an element of the page.

        Args:
            element: The element's number in the observation, e.g. 4 for "[4] button".
        """
        return self._act(f"click [{int(element)}]")

    def type_text(self, element: int, text: str) -> str:
        """Click a text field, clear it and type text into it.

        Args:
            element: The field's number in the observation.
            text: The text to type.
        """
        return self._act(f"type [{int(element)}] {json.dumps(text)}")

    def press_key(self, key: str) -> str:
        """Press a key or chord on the focused element.

        Args:
            key: A key name such as "Enter", "Tab", "ArrowDown" or a chord such as "Control+A".
        """
        return self._act(f"press {json.dumps(key)}")

    def select_option(self, element: int, option: str) -> str:
        """Choose an option of a dropdown list.

        Args:
            element: The list's number in the observation.
            option: The option's label.
        """
        return self._act(f"select [{int(element)}] {json.dumps(option)}")

    def scroll(self, element: int, direction: str) -> str:
        """Scroll a scrollable element.

        Args:
            element: The element's number in the observation.
            direction: One of "up", "down", "top" or "bottom".
        """
        return self._act(f"scroll [{int(element)}] {direction}")

    def hover(self, element: int) -> str:
        """Move the mouse over an element (opens hover menus).

        Args:
            element: The element's number in the observation.
        """
        return self._act(f"hover [{int(element)}]")

    def wait(self, seconds: float) -> str:
        """Let time pass, for tasks that ask you to wait.

        Args:
            seconds: How long, more than 0 and at most 5.
        """
        return self._act(f"wait {float(seconds):g}")


TOOLS_BY_FAMILY: dict[str, type[ToolEnv]] = {
    "toy": CommandTools,
    "alfworld": CommandTools,
    "webshop": WebShopTools,
    "miniwob": MiniWoBTools,
}


def environment_factory(env_id: str, **env_kwargs: Any) -> Callable[[], ToolEnv]:
    """``environment_factory`` for ``GRPOTrainer``: each call makes one tool env of ``env_id``."""
    from agentgym_envs.registration import entry_for

    family = entry_for(env_id).family
    tools = TOOLS_BY_FAMILY.get(family)
    if tools is None:
        raise ValueError(f"no tool set for {env_id} (family {family!r}); known: "
                         f"{', '.join(sorted(TOOLS_BY_FAMILY))}")  # fmt: skip
    return partial(tools, env_id, env_kwargs)


def tool_dataset(seeds: Iterable[int], instruction: str = INSTRUCTION) -> Any:
    """A ``datasets.Dataset`` of one row per reset seed: a user message (``instruction``; TRL
    appends the env's goal and first observation from ``reset``) and the ``seed``."""
    from datasets import Dataset

    seeds = [int(seed) for seed in seeds]
    prompt = [{"role": "user", "content": instruction}]
    return Dataset.from_dict({"prompt": [prompt] * len(seeds), "seed": seeds})


__all__ = [
    "TOOLS_BY_FAMILY",
    "CommandTools",
    "MiniWoBTools",
    "ToolEnv",
    "WebShopTools",
    "environment_factory",
    "tool_dataset",
]
