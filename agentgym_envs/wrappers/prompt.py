"""Turn an env's text into LLM prompts and an LLM's completion back into an action.

``PromptFormatter`` is pure (no env), so trainers can build prompts for batches of envs;
``LLMPromptWrapper`` applies it to one env: observations become chat messages or a prompt string,
actions become raw completions that are parsed with ``parse_action``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

from agentgym_envs.core.spaces import text_space

DEFAULT_SYSTEM = (
    "You are an agent acting in a text environment. Each turn you see an observation and answer "
    "with one action.\nActions: {action_help}\n"
    "Answer in the form:\nThought: <one short sentence>\nAction: <the action>"
)
DEFAULT_SYSTEM_NO_THOUGHT = (
    "You are an agent acting in a text environment. Each turn you see an observation and answer "
    "with one action.\nActions: {action_help}\nAnswer in the form:\nAction: <the action>"
)
_ACTION_LINE = re.compile(r"^\s*\**action\**\s*[:：]\s*(.*)$", re.IGNORECASE | re.MULTILINE)


def parse_action(completion: str) -> str:
    """The action in an LLM completion.

    That is the text after the last ``Action:`` on its line, else the first non-empty line that is
    not a ``Thought:``; surrounding quotes and backticks are removed.
    """
    matches = _ACTION_LINE.findall(completion)
    if matches:
        text = matches[-1]
    else:
        lines = [ln.strip() for ln in completion.splitlines() if ln.strip()]
        lines = [ln for ln in lines if not ln.lower().startswith("thought")]
        text = lines[0] if lines else ""
    return text.strip().strip("`").strip().strip("\"'").strip()


def approx_tokens(text: str) -> int:
    """A tokenizer-free estimate (about 4 characters per token), used when none is given."""
    return (len(text) + 3) // 4


@dataclass
class Turn:
    """One past step as the prompt shows it."""

    observation: str
    response: str


@dataclass
class PromptFormatter:
    """Builds the system prompt and a history truncated to ``max_history_tokens``.

    ``count_tokens`` should be the policy tokenizer's length function; the default estimate keeps
    the wrapper usable without one. The newest turns are kept; the oldest are dropped first.
    ``max_history_turns`` also caps how many past turns are kept (0: none, only the current
    observation; None: as many as the token budget holds).
    """

    action_help: str
    max_history_tokens: int = 2048
    max_history_turns: int | None = None
    show_admissible: bool = True
    reasoning: bool = True
    count_tokens: Callable[[str], int] = approx_tokens
    system_template: str | None = None

    def system_prompt(self) -> str:
        template = self.system_template or (
            DEFAULT_SYSTEM if self.reasoning else DEFAULT_SYSTEM_NO_THOUGHT
        )
        return template.format(action_help=self.action_help)

    def user_message(self, observation: str, admissible: list[str] | None = None) -> str:
        text = f"Observation: {observation}"
        if self.show_admissible and admissible:
            text += "\nAdmissible actions: " + " | ".join(admissible)
        return text

    def messages(
        self, history: list[Turn], observation: str, admissible: list[str] | None = None
    ) -> list[dict[str, str]]:
        """Chat messages: system, the kept history, then the current observation."""
        current = self.user_message(observation, admissible)
        budget = self.max_history_tokens - self.count_tokens(current)
        kept: list[Turn] = []
        limit = len(history) if self.max_history_turns is None else self.max_history_turns
        for turn in reversed(history):
            if len(kept) >= limit:
                break
            cost = self.count_tokens(turn.observation) + self.count_tokens(turn.response) + 8
            if cost > budget:
                break
            kept.append(turn)
            budget -= cost
        kept.reverse()
        out = [{"role": "system", "content": self.system_prompt()}]
        dropped = len(history) - len(kept)
        for i, turn in enumerate(kept):
            content = self.user_message(turn.observation)
            if i == 0 and dropped:
                content = f"[{dropped} earlier turn(s) omitted]\n{content}"
            out.append({"role": "user", "content": content})
            out.append({"role": "assistant", "content": turn.response})
        if dropped and not kept:
            current = f"[{dropped} earlier turn(s) omitted]\n{current}"
        out.append({"role": "user", "content": current})
        return out

    @staticmethod
    def to_text(messages: list[dict[str, str]]) -> str:
        """A plain prompt for models without a chat template."""
        parts = [f"{m['role'].capitalize()}: {m['content']}" for m in messages]
        return "\n\n".join(parts) + "\n\nAssistant:"


@dataclass
class _Episode:
    history: list[Turn] = field(default_factory=list)
    observation: str = ""
    admissible: list[str] = field(default_factory=list)


class LLMPromptWrapper(gym.Wrapper):
    """Observations become prompts; actions are raw LLM completions.

    ``info["messages"]`` holds the chat messages for the same prompt, ``info["parsed_action"]`` the
    action taken from the completion. With ``chat=False`` the observation is a plain text prompt;
    otherwise it is the same text and the messages are in ``info``.
    """

    def __init__(self, env: gym.Env, formatter: PromptFormatter | None = None) -> None:
        super().__init__(env)
        action_help = getattr(env.unwrapped, "action_help", "") or "free text"
        self.formatter = formatter or PromptFormatter(action_help=action_help)
        self.observation_space = text_space(1_000_000)
        self.action_space = text_space(8_000, min_length=1)
        self._episode = _Episode()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        observation, info = self.env.reset(seed=seed, options=options)
        self._episode = _Episode(observation=observation, admissible=info["admissible_actions"])
        return self._prompt(info)

    def step(self, action: str):
        completion = action if isinstance(action, str) else str(action)
        parsed = parse_action(completion)
        observation, reward, terminated, truncated, info = self.env.step(parsed or completion)
        episode = self._episode
        episode.history.append(Turn(episode.observation, completion.strip()))
        episode.observation = observation
        episode.admissible = info["admissible_actions"]
        prompt, info = self._prompt(info)
        info["parsed_action"] = parsed
        return prompt, reward, terminated, truncated, info

    def _prompt(self, info: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        episode = self._episode
        messages = self.formatter.messages(episode.history, episode.observation, episode.admissible)
        info = dict(info)
        info["messages"] = messages
        return self.formatter.to_text(messages), info
