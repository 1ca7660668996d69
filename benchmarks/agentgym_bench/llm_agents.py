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

Under ``agentgym bench run --batch-size B`` an ``OpenAIChatAgent`` plays in lock-step
(``lockstep``): each turn its ``act_batch`` sends the live episodes' requests at once from a
thread pool sized to the batch, so B bounds the requests a worker has in flight. A serving
stack batches concurrent requests itself (vLLM's continuous batching), so this is where the
throughput comes from; each episode keeps its own history and its own agent's prompt settings,
and a failed request makes only its own episode an error.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import gymnasium as gym

from agentgym_envs.wrappers.prompt import PromptFormatter, Turn, parse_action

#: HTTP statuses the ``openai`` client retries itself (so an error with one came after retries)
_RETRIED_STATUSES = frozenset({408, 409, 429})
_T = TypeVar("_T")


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
        reply = self.complete(self.prompt(self.history, observation, info))
        return self.take_reply(self.history, observation, reply)

    def prompt(self, history: list[Turn], observation: str, info: dict[str, Any]
               ) -> list[dict[str, str]]:  # fmt: skip
        """The chat messages for a turn after ``history`` (what ``act`` sends; batched play
        builds each episode's with it too, so both send the same prompts)."""
        return self.formatter.messages(history, observation, info.get("admissible_actions"))

    @staticmethod
    def take_reply(history: list[Turn], observation: str, reply: str) -> str:
        """Remember the turn in ``history`` and return the action in ``reply`` (a failed turn
        never gets here, so it is not remembered)."""
        completion = reply.strip()
        history.append(Turn(observation, completion))
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

    # ---- batched play (``lockstep``: ``agentgym bench run --batch-size B``) --------------------
    @property
    def batch_with(self) -> tuple[Any, ...]:
        """Agents with equal ``batch_with`` share their batch slots, so one ``act_batch`` call
        sends all their episodes' requests at once: the same endpoint, model and decoding (the
        agents of a worker's envs, splits and prompt variants; each slot's prompt still comes
        from its own agent's formatter and its request goes through its own agent's client)."""
        return ("openai", self.base_url, self.model, self.temperature, self.max_tokens,
                self.seed, self.timeout, self.retries)  # fmt: skip

    def start_slot(self, slot: int, seed: int | None) -> None:
        """A new episode begins in batch ``slot`` with an empty history (what ``reset`` is to
        ``act``)."""
        _SLOTS.setdefault(self.batch_with, {})[slot] = (self, [])

    def end_slot(self, slot: int) -> None:
        """The episode in ``slot`` is over: forget its history."""
        _SLOTS.get(self.batch_with, {}).pop(slot, None)

    def slot_history(self, slot: int) -> list[Turn]:
        """The turns so far of the episode in ``slot``."""
        return _SLOTS[self.batch_with][slot][1]

    def act_batch(
        self, slots: Sequence[int], observations: Sequence[str], infos: Sequence[dict[str, Any]]
    ) -> list[str | Exception]:
        """One turn of the episodes in ``slots``: their requests sent concurrently, one thread
        each, every prompt built and every reply parsed as ``act`` does with that slot's own
        history and agent. A slot whose request fails gets its ``AgentError`` in place of an
        action, so only its episode ends as an error (``lockstep``'s contract)."""
        shared = _SLOTS[self.batch_with]
        turns = [
            (*shared[slot], observation, info)
            for slot, observation, info in zip(slots, observations, infos, strict=True)
        ]
        replies = _each([partial(_ask, *turn) for turn in turns])
        actions: list[str | Exception] = []
        for (agent, history, observation, _), reply in zip(turns, replies, strict=True):
            if not isinstance(reply, Exception):
                reply = agent.take_reply(history, observation, reply)
            actions.append(reply)
        return actions

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


#: the live batch slots of the ``OpenAIChatAgent``s of this process, per ``batch_with``: the
#: slot's agent (its formatter and client) and its episode's history
_SLOTS: dict[Hashable, dict[int, tuple[OpenAIChatAgent, list[Turn]]]] = {}


def _ask(agent: OpenAIChatAgent, history: list[Turn], observation: str,
         info: dict[str, Any]) -> str:  # fmt: skip
    """One slot's request, as ``act`` makes it (run on a batch thread: the formatter only reads
    its settings, the history is the slot's own and is only appended to after the reply)."""
    return agent.complete(agent.prompt(history, observation, info))


def _each(calls: Sequence[Callable[[], _T]]) -> list[_T | Exception]:
    """Every call's result, or the ``Exception`` it raised (its traceback kept, so a record
    says where, as for ``act``), with all the calls running at once on a thread pool sized to
    them. Threads rather than ``AsyncOpenAI``: the blocking client is thread-safe, keeps its
    connections from turn to turn (an async client is tied to one event loop) and maps errors
    in ``complete`` exactly as ``act`` does; the threads mostly wait on sockets."""
    if len(calls) <= 1:  # no thread for a lone request
        results: list[_T | Exception] = []
        for call in calls:
            try:
                results.append(call())
            except Exception as error:
                results.append(error)
        return results
    with ThreadPoolExecutor(max_workers=len(calls), thread_name_prefix="openai-batch") as pool:
        futures = [pool.submit(call) for call in calls]
    results = []
    for future in futures:
        raised = future.exception()
        if raised is None:
            results.append(future.result())
        elif isinstance(raised, Exception):
            results.append(raised)
        else:  # KeyboardInterrupt, SystemExit: not an episode's failure
            raise raised
    return results


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
