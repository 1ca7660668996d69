"""Each turn's prompt in tokens, built so that a recorded context never changes.

The first turn of an episode is rendered: the formatter's messages through the tokenizer's chat
template (or the plain-text layout), then encoded. Every later turn *appends* to the previous
turn's prompt the policy's own reply exactly as it was sampled (or, in score mode, the chosen
candidate's tokens) and then the tokens that close that reply and open the next observation's
user message. So:

- the model's earlier replies are never decoded and encoded again (a reply sampled as one token
  sequence and re-encoded as another is a context the model never produced);
- a chat template that rewrites past turns (Qwen3 and DeepSeek-R1 strip ``<think>`` from earlier
  assistant messages) cannot change what an earlier turn saw, nor what a later turn sees of it;
- every turn's prompt begins with every earlier turn's prompt and reply: a turn's context is the
  episode's token stream up to that turn.

The closing-and-opening tokens come from the template itself: a conversation with placeholder
messages is rendered, and what follows the placeholder reply is the template's text between an
assistant message and the next user turn's generation prompt. When the reply already ends with
the token that text starts with (the end-of-turn token the model generated), it is not repeated.

Past the history budget (``max_history_tokens`` beyond the first turn's fixed part, or a
formatter limiting turns or the whole prompt) the prompt is rendered afresh, oldest turns dropped
as the formatter drops them, and appending goes on from there: dropping turns changes the
context anyway, and it happens once per overflow, not every turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from agentgym_envs.wrappers.prompt import PromptFormatter, Turn

#: a placeholder reply: what the template puts after it is the text between two turns
_REPLY = "\u2983agentgym-reply\u2984"


class TokenContext:
    """Prompts of an episode's turns as token ids (module docstring): ``first`` for a first
    turn or a fresh start, ``follow`` for every turn after one already played."""

    def __init__(
        self,
        formatter: PromptFormatter,
        encode: Callable[[str], list[int]],
        chat: Callable[[list[dict[str, str]]], str] | None,
        suffix: str = "",
    ) -> None:
        """``encode``: text -> ids without special tokens added; ``chat``: messages -> the chat
        template's text with the generation prompt (None: the formatter's plain layout);
        ``suffix``: text after the generation prompt (score mode's action prefix)."""
        self.formatter = formatter
        self.encode = encode
        self.chat = chat
        self.suffix = suffix
        self._fixed: int | None = None

    def _text(self, messages: list[dict[str, str]]) -> str:
        return self.chat(messages) if self.chat else self.formatter.to_text(messages)

    def render(self, history: Sequence[Turn], observation: str, admissible: Sequence[str]) -> str:
        """The prompt's text rendered whole (the formatter's window over ``history``)."""
        messages = self.formatter.messages(list(history), observation, list(admissible))
        return self._text(messages) + self.suffix

    def first(
        self, history: Sequence[Turn], observation: str, admissible: Sequence[str]
    ) -> list[int]:
        """The ids of a prompt rendered whole: an episode's first turn, or a fresh start."""
        return self.encode(self.render(history, observation, admissible))

    def follow(
        self,
        prompt: Sequence[int],
        reply: Sequence[int],
        history: Sequence[Turn],
        observation: str,
        admissible: Sequence[str],
    ) -> list[int]:
        """The next turn's ids: the last turn's ``prompt`` and ``reply`` ids as they were, then
        the template's tokens closing that reply and carrying ``observation``; rendered whole
        (``first``) when that outgrows the history budget. ``history`` holds every past turn,
        the last one included."""
        between = self._between(observation, admissible)
        if reply and between and between[0] == reply[-1]:
            between = between[1:]  # the reply ended with the end-of-turn token itself
        ids = [*prompt, *reply, *between]
        if self._fits(len(ids)):
            return ids
        return self.first(history, observation, admissible)

    def _between(self, observation: str, admissible: Sequence[str]) -> list[int]:
        """The template's ids after an assistant reply up to the next generation prompt (and
        ``suffix``), with ``observation``'s user message between."""
        current = self.formatter.user_message(observation, list(admissible))
        messages = [
            {"role": "system", "content": self.formatter.system_prompt()},
            {"role": "user", "content": "..."},
            {"role": "assistant", "content": _REPLY},
            {"role": "user", "content": current},
        ]
        text = self._text(messages)
        at = text.find(_REPLY)
        if at < 0:
            raise ValueError(
                "the chat template dropped an assistant message's content, so the tokens "
                "between turns cannot be found; use policy.chat_template=never"
            )
        return self.encode(text[at + len(_REPLY) :] + self.suffix)

    def _fits(self, length: int) -> bool:
        """Whether a prompt of ``length`` ids keeps within the formatter's history budget."""
        formatter = self.formatter
        if formatter.max_history_turns is not None or formatter.max_prompt_tokens is not None:
            return False  # the formatter windows by turns or prompt size: let it decide
        if self._fixed is None:  # the first turn's ids outside the budget (system, template)
            self._fixed = len(self.first([], "", [])) - formatter.count_tokens(
                formatter.user_message("")
            )
        return length <= self._fixed + formatter.max_history_tokens


def chat_renderer(tokenizer: Any) -> Callable[[list[dict[str, str]]], str]:
    """``tokenizer``'s chat template as messages -> text with the generation prompt."""

    def render(messages: list[dict[str, str]]) -> str:
        return tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)

    return render


__all__ = ["TokenContext", "chat_renderer"]
