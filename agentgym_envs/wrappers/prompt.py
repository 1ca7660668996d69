"""Turn an env's text into LLM prompts and an LLM's completion back into an action.

``PromptFormatter`` is pure (no env), so trainers can build prompts for batches of envs;
``LLMPromptWrapper`` applies it to one env: observations become chat messages or a prompt string,
actions become raw completions that are parsed with ``parse_action``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

from agentgym_envs.core.spaces import text_space

# The user message's layout is written for the smallest instruct models as much as for large
# ones: untrained SmolLM2-135M-Instruct (llama.cpp, greedy, 6 episodes x <= 4 steps an env)
# answered the earlier layout ("Admissible actions: a | b", the thought asked for) by echoing
# the observation, 100% invalid on Toy, WebShop, ALFWorld and MiniWoB; with the actions one per
# line, a closing instruction and no thought asked for, it copies a listed action (bullet and
# all, which ``parse_action`` drops): 0% invalid on Toy easy and MiniWoB easy, 12% on WebShop
# easy, 25% on Toy medium and 67% on ALFWorld easy (mostly a listed "go to" repeated where
# nothing happens, not a malformed reply). Reasoning is opt-in. The system prompt's wording is
# left as it was: the tiny test models' tokenizer corpus holds it.
DEFAULT_SYSTEM = (
    "You are an agent acting in a text environment. Each turn you see an observation and answer "
    "with one action.\nActions: {action_help}\n"
    "Answer in the form:\nThought: <one short sentence>\nAction: <the action>"
)
DEFAULT_SYSTEM_NO_THOUGHT = (
    "You are an agent acting in a text environment. Each turn you see an observation and answer "
    "with one action.\nActions: {action_help}\nAnswer in the form:\nAction: <the action>"
)
#: what introduces the admissible actions (one per line after it) in a user message
ACTIONS_HEADER = "Choose one of these actions:"
#: what closes a user message that lists actions, with and without a thought asked for
LIST_REPLY_HINT = "Reply with one line: Action: <one action from the list, copied exactly>"
LIST_REPLY_HINT_THOUGHT = (
    "Reply with a Thought: line, then one line: Action: <one action from the list, copied exactly>"
)
#: reasoning blocks: closed ones, an unclosed one (cut off) to the end, and what precedes a
#: closing tag without its opening one (chat templates that open the block in the prompt)
_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.IGNORECASE | re.DOTALL)
_THINK_OPENED_BY_PROMPT = re.compile(r"\A.*</think>", re.IGNORECASE | re.DOTALL)


def _label(word: str) -> re.Pattern[str]:
    """A line that starts with ``word:``, the label possibly a Markdown heading or emphasised
    (``**Action:**``, ``**Action**:``, ``*Action:*``, ``__Action__:``, ``### Action:``)."""
    return re.compile(
        rf"^[ \t]*(?:#{{1,6}}[ \t]*)?[*_]{{0,3}}[ \t]*{word}[ \t]*[*_]{{0,3}}[ \t]*[:：]"
        r"[ \t]*[*_]{0,3}(.*)$",
        re.IGNORECASE | re.MULTILINE,
    )


_ACTION_LINE = _label("action")
_THOUGHT_LINE = _label("thought")
#: quotes and backticks that may surround an action: each opening mark and the one closing it
_QUOTES = {'"': '"', "'": "'", "`": "`", "“": "”", "‘": "’"}
_CLOSERS = {close: open_ for open_, close in _QUOTES.items()}
#: leftover emphasis and blanks, never part of an action at either end
_EMPHASIS = " \t*_"
#: a list marker before an action copied from a list: "- ", "* ", "• ", "1. ", "1) "
_LIST_MARKER = re.compile(r"^(?:[-*•]|\d{1,2}[.)])[ \t]+")


def strip_thinking(completion: str) -> str:
    """``completion`` without its ``<think>...</think>`` reasoning (see ``parse_action``)."""
    text = _THINK.sub("", completion)
    return _THINK_OPENED_BY_PROMPT.sub("", text)


def parse_action(completion: str) -> str:
    """The action in an LLM completion.

    1. Reasoning is dropped first: ``<think>...</think>`` blocks, an unclosed ``<think>`` to the
       end of the text, and everything before a ``</think>`` that has no opening tag (a chat
       template that opens the block in the prompt), so a thought is never sent as an action.
    2. The action is the text after the FIRST line that starts with an ``Action:`` label, on that
       line (or the next line with text, when the label stands alone). The label is matched
       case-insensitively and may be a Markdown heading or emphasised: ``**Action:**``,
       ``**Action**:``, ``*Action:*``, ``__Action__:``, ``### Action:``, ``Action :``. The first,
       not the last: a model that runs on writes the next observation and more actions after
       its own move, and only its own move is the answer to this turn.
    3. Without a label, it is the first line with text that is not a ``Thought:`` line.
    4. A list marker before it (``- ``, ``* ``, ``• ``, ``1. ``, ``1) ``: an action copied from
       the prompt's list with its bullet) is removed, then quotes, backticks and emphasis
       (``*``, ``_``) around the whole action, in pairs or where a mark has no partner; a quote
       that closes one inside stays (``type [1] "hello"``), and brackets are kept
       (``click[buy now]``, ``search[red shoes]``).

    "" when there is no action (only thoughts, or an empty reply).
    """
    text = strip_thinking(completion)
    match = _ACTION_LINE.search(text)
    if match:
        lines = [match.group(1), *text[match.end() :].splitlines()]
    else:
        lines = [ln for ln in text.splitlines() if not _THOUGHT_LINE.match(ln)]
    cleaned = (_unwrap(_LIST_MARKER.sub("", ln.strip())) for ln in lines)
    return next((a for a in cleaned if a), "")


def _unwrap(text: str) -> str:
    """``text`` without the marks around the whole of it: emphasis (``**click [2]**``), a quote
    with no partner in the text (a reply cut short: ``"go north``) or a matching pair
    (``"go north"``). A quote that closes one opened inside stays: ``type [1] "hello"``."""
    text = text.strip(_EMPHASIS)
    while text:
        first, last = text[0], text[-1]
        if first in _QUOTES and _unpaired(text, first, _QUOTES[first]):
            text = text[1:]
        elif last in _CLOSERS and _unpaired(text, _CLOSERS[last], last):
            text = text[:-1]
        elif len(text) > 1 and first in _QUOTES and _QUOTES[first] == last:
            text = text[1:-1]
        else:
            return text
        text = text.strip(_EMPHASIS)
    return text


def _unpaired(text: str, opening: str, closing: str) -> bool:
    """Whether ``text`` holds a mark of this kind that nothing pairs with (an odd count of a
    symmetric mark, unequal counts of an opening and a closing one)."""
    if opening == closing:
        return text.count(opening) % 2 == 1
    return text.count(opening) != text.count(closing)


#: the chat template's tokens around each message (role header, end marker: ChatML and
#: Llama 3 take 5) and once per prompt (BOS, the assistant's header), for ``max_prompt_tokens``
CHAT_TOKENS_PER_MESSAGE = 5
CHAT_TOKENS_PER_PROMPT = 5


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

    ``max_history_tokens`` budgets the history and the current observation (the system prompt
    is outside it, as trained policies were prompted). ``max_prompt_tokens`` (None: no limit)
    budgets the WHOLE prompt, system prompt included, for a server with a fixed context: the
    history then also keeps within what the system prompt, the current message, the omitted-turns
    note and the chat template's tokens (``CHAT_TOKENS_PER_MESSAGE`` a message,
    ``CHAT_TOKENS_PER_PROMPT`` once) leave of it; only the history is ever cut.
    """

    action_help: str
    max_history_tokens: int = 2048
    max_history_turns: int | None = None
    show_admissible: bool = True
    reasoning: bool = False
    count_tokens: Callable[[str], int] = approx_tokens
    system_template: str | None = None
    max_prompt_tokens: int | None = None

    def system_prompt(self) -> str:
        template = self.system_template or (
            DEFAULT_SYSTEM if self.reasoning else DEFAULT_SYSTEM_NO_THOUGHT
        )
        return template.format(action_help=self.action_help)

    def user_message(self, observation: str, admissible: list[str] | None = None) -> str:
        """The observation, then (``show_admissible``) the admissible actions one per line and
        how to reply (the note above ``DEFAULT_SYSTEM`` says why this layout)."""
        text = f"Observation: {observation}"
        if self.show_admissible and admissible:
            hint = LIST_REPLY_HINT_THOUGHT if self.reasoning else LIST_REPLY_HINT
            listed = "\n".join(f"- {action}" for action in admissible)
            text += f"\n\n{ACTIONS_HEADER}\n{listed}\n\n{hint}"
        return text

    def messages(
        self, history: list[Turn], observation: str, admissible: list[str] | None = None
    ) -> list[dict[str, str]]:
        """Chat messages: system, the kept history, then the current observation."""
        current = self.user_message(observation, admissible)
        budget = self.max_history_tokens - self.count_tokens(current)
        room = self._prompt_room(history, current)
        kept: list[Turn] = []
        limit = len(history) if self.max_history_turns is None else self.max_history_turns
        for turn in reversed(history):
            if len(kept) >= limit:
                break
            cost = self.count_tokens(turn.observation) + self.count_tokens(turn.response) + 8
            size = self._turn_tokens(turn) if room < math.inf else 0
            if cost > budget or size > room:
                break
            kept.append(turn)
            budget, room = budget - cost, room - size
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

    def _prompt_room(self, history: list[Turn], current: str) -> float:
        """Tokens ``max_prompt_tokens`` leaves the history (``math.inf``: no such limit)."""
        if self.max_prompt_tokens is None:
            return math.inf
        fixed = (
            self.count_tokens(self.system_prompt())
            + self.count_tokens(f"[{len(history)} earlier turn(s) omitted]\n{current}")
            + 2 * CHAT_TOKENS_PER_MESSAGE
            + CHAT_TOKENS_PER_PROMPT
        )
        return self.max_prompt_tokens - fixed

    def _turn_tokens(self, turn: Turn) -> int:
        """What a past turn's two messages take of the prompt, as sent."""
        text = self.count_tokens(self.user_message(turn.observation))
        return text + self.count_tokens(turn.response) + 2 * CHAT_TOKENS_PER_MESSAGE

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
        actions = getattr(env.unwrapped, "action_set", None)
        action_help = actions.describe() if actions else getattr(env.unwrapped, "action_help", "")
        self.formatter = formatter or PromptFormatter(action_help=action_help or "free text")
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
