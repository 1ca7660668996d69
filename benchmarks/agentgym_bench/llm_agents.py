"""LLM agents that play AgentGym text envs through a chat-completion endpoint.

The benchmark runner needs to score real language models, not only the random and oracle
agents, and most serving stacks (vLLM, TGI, the llama.cpp server, hosted APIs) speak the same
OpenAI-compatible chat protocol. ``ChatAgent`` turns an episode into chat messages with the same
``PromptFormatter`` the trainers use and parses the reply with ``parse_action``, so a benchmark
prompt is the prompt a policy was trained on; subclasses only supply ``complete(messages)``.
``OpenAIChatAgent`` implements it with the official ``openai`` client (whose retries and
back-off handle rate limits, server errors and dropped connections), and every failure that
leaves the agent without an action becomes one ``AgentError`` with a one-line reason that the
runner records against the episode.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import gymnasium as gym

from agentgym_envs.wrappers.prompt import PromptFormatter, Turn, parse_action

#: HTTP statuses the ``openai`` client retries itself (so an error with one came after retries)
_RETRIED_STATUSES = frozenset({408, 409, 429})


class AgentError(RuntimeError):
    """The agent could not produce an action; ``str(error)`` is a one-line reason."""


class ChatAgent(ABC):
    """Base for LLM agents: keeps the episode's history, builds the chat messages with a
    ``PromptFormatter`` and parses the action out of ``complete(messages)``."""

    name = "chat"

    def __init__(self, action_help: str, formatter_kwargs: dict[str, Any] | None = None) -> None:
        self.formatter = PromptFormatter(action_help=action_help, **(formatter_kwargs or {}))
        self.history: list[Turn] = []

    def reset(self, seed: int | None = None) -> None:
        """Start a new episode (forget the history)."""
        self.history = []

    def act(self, observation: str, info: dict[str, Any]) -> str:
        """The action for ``observation``; raises ``AgentError`` when the model gives none."""
        messages = self.formatter.messages(
            self.history, observation, info.get("admissible_actions")
        )
        completion = self.complete(messages).strip()
        self.history.append(Turn(observation, completion))
        # an unparsable reply is still sent, so the env reports it as an invalid action
        return parse_action(completion) or completion

    @abstractmethod
    def complete(self, messages: list[dict[str, str]]) -> str:
        """The model's reply to ``messages``; raises ``AgentError`` when there is none."""

    def describe(self) -> dict[str, Any]:
        """A JSON-able description of the agent, for benchmark reports (no secrets)."""
        formatter = self.formatter
        return {
            "class": type(self).__name__,
            "prompt": {
                "max_history_tokens": formatter.max_history_tokens,
                "max_history_turns": formatter.max_history_turns,
                "show_admissible": formatter.show_admissible,
                "reasoning": formatter.reasoning,
                "count_tokens": getattr(
                    formatter.count_tokens, "__name__", type(formatter.count_tokens).__name__
                ),
                "system_template": formatter.system_template,
            },
        }


def public_url(url: str) -> str:
    """``url`` without credentials, query or fragment (safe to log and report)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    netloc = f"{host}:{parts.port}" if parts.port is not None else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def _one_line(text: str, limit: int = 200) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _error_detail(error: Any) -> str:
    """The server's own message in an HTTP error reply, else the client's."""
    body = getattr(error, "body", None)
    if isinstance(body, dict):
        detail = body.get("message") or body.get("detail") or body.get("error")
        if isinstance(detail, str) and detail:
            return detail
    return str(getattr(error, "message", error))


class OpenAIChatAgent(ChatAgent):
    """A ``ChatAgent`` backed by an OpenAI-compatible ``/chat/completions`` endpoint.

    ``base_url`` defaults to ``$OPENAI_BASE_URL`` and ``api_key`` to ``$OPENAI_API_KEY``, else
    ``"EMPTY"`` (what vLLM accepts). Timeouts, connection errors, 408/409/429 and 5xx replies are
    retried ``retries`` times by the ``openai`` client with exponential back-off.
    """

    name = "openai"

    def __init__(
        self,
        action_help: str,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        temperature: float = 0.0,
        max_tokens: int = 256,
        timeout: float = 60.0,
        retries: int = 3,
        seed: int | None = None,
        formatter_kwargs: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(action_help, formatter_kwargs)
        import openai

        base_url = base_url or os.environ.get("OPENAI_BASE_URL")
        if not base_url:
            raise ValueError(
                "no endpoint for the OpenAI-compatible agent: pass --base-url "
                "(e.g. http://127.0.0.1:8000/v1) or set OPENAI_BASE_URL"
            )
        if not model:
            raise ValueError("the OpenAI-compatible agent needs a model name (openai:MODEL)")
        self.model = model
        self.base_url = base_url
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.timeout = timeout
        self.retries = retries
        self.seed = seed
        self._client = openai.OpenAI(
            base_url=base_url,
            api_key=api_key or os.environ.get("OPENAI_API_KEY") or "EMPTY",
            timeout=timeout,
            max_retries=retries,
        )

    def complete(self, messages: list[dict[str, str]]) -> str:
        import openai

        extra: dict[str, Any] = {} if self.seed is None else {"seed": self.seed}
        url = public_url(self.base_url)
        after = f"after {self.retries} retries"
        try:
            reply = self._client.chat.completions.create(
                model=self.model,
                messages=messages,
                temperature=self.temperature,
                max_tokens=self.max_tokens,
                **extra,
            )
        except openai.APITimeoutError as error:
            raise AgentError(
                f"endpoint {url} timed out {after} ({self.timeout:g} s each)"
            ) from error
        except openai.APIConnectionError as error:
            raise AgentError(f"could not connect to {url} {after}: {_one_line(error)}") from error
        except openai.APIStatusError as error:
            status = error.status_code
            retried = f" {after}" if status in _RETRIED_STATUSES or status >= 500 else ""
            raise AgentError(
                f"HTTP {status} from {url}{retried}: {_one_line(_error_detail(error))}"
            ) from error
        except openai.APIError as error:  # e.g. a reply that does not validate
            raise AgentError(f"malformed reply from {url}: {_one_line(error)}") from error
        except ValueError as error:  # a body that is not JSON
            raise AgentError(
                f"malformed reply from {url}: body is not valid JSON ({_one_line(error)})"
            ) from error
        return self._content(reply)

    @staticmethod
    def _content(reply: Any) -> str:
        if isinstance(reply, str):  # some servers answer 200 with a non-JSON body
            raise AgentError(f"malformed reply: not a JSON object: {_one_line(reply, 80)!r}")
        choices = getattr(reply, "choices", None)
        if not choices:
            raise AgentError("malformed reply: no choices")
        choice = choices[0]
        message = getattr(choice, "message", None)
        content = getattr(message, "content", None)
        if content is None:
            reason = getattr(choice, "finish_reason", None)
            raise AgentError(f"malformed reply: content is null (finish_reason={reason})")
        if not isinstance(content, str):
            raise AgentError(f"malformed reply: content is {type(content).__name__}, not text")
        if not content.strip():
            raise AgentError("empty reply: the model returned no text")
        return content

    def describe(self) -> dict[str, Any]:
        description = super().describe()
        description.update(
            model=self.model,
            base_url=public_url(self.base_url),
            temperature=self.temperature,
            max_tokens=self.max_tokens,
            seed=self.seed,
            timeout=self.timeout,
            retries=self.retries,
        )
        return description


LLM_BACKENDS: dict[str, type[ChatAgent]] = {"openai": OpenAIChatAgent}


def make_llm_agent(spec: str, env: gym.Env, **options: Any) -> ChatAgent:
    """The LLM agent for ``spec`` (``"openai:MODEL"``) on ``env``; ``options`` go to its class
    (base_url, api_key, temperature, ...). ValueError names the known backends."""
    backend, sep, model = spec.partition(":")
    if not sep or backend not in LLM_BACKENDS:
        known = ", ".join(f"{name}:MODEL" for name in sorted(LLM_BACKENDS))
        raise ValueError(f"unknown LLM agent {spec!r}; the known backends are {known}")
    action_help = getattr(env.unwrapped, "action_help", "") or "free text"
    return LLM_BACKENDS[backend](action_help=action_help, model=model, **options)


__all__ = ["AgentError", "ChatAgent", "OpenAIChatAgent", "make_llm_agent", "public_url"]
