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

Every turn is recorded for debugging and audit (``turn_record``, kept in the step's record as
``"llm"``): the messages sent (or, with ``record_prompt="hash"``, their SHA-256 and the newest
message only), the raw reply, its ``finish_reason`` (a reply cut at ``max_tokens`` is flagged
``cut_off``), token counts and the model id the server answered with. ``context_length`` keeps
every prompt plus ``max_tokens`` inside the server's context, counted with the server's own
tokenizer when it offers one (``count_tokens="auto"``), else four characters a token. Secrets
(``api_key``, credentials in ``base_url``) are never part of a record or ``describe()``.
"""

from __future__ import annotations

import hashlib
import json
import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import gymnasium as gym

from agentgym_envs.wrappers.prompt import PromptFormatter, Turn, approx_tokens, parse_action

#: HTTP statuses the ``openai`` client retries itself (so an error with one came after retries)
_RETRIED_STATUSES = frozenset({408, 409, 429})
_T = TypeVar("_T")


class AgentError(RuntimeError):
    """The agent could not produce an action; ``str(error)`` is a one-line reason."""


@dataclass
class Reply:
    """A model's answer to one prompt, with what the server said about it."""

    text: str
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    model: str | None = None  # the model id the server answered with


#: how much of each prompt a turn's record keeps: all messages, or their hash and the newest
RECORD_PROMPT = ("messages", "hash")


def action_from_reply(reply: str) -> str:
    """The action a reply is sent as: ``parse_action`` of it, else the whole reply (so the
    env reports an unparsable reply as an invalid action). The verifier checks recorded LLM
    steps with it."""
    completion = reply.strip()
    return parse_action(completion) or completion


def prompt_digest(messages: list[dict[str, str]]) -> str:
    """The SHA-256 of ``messages`` as canonical JSON (what ``record_prompt="hash"`` keeps)."""
    canonical = json.dumps(messages, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def turn_entry(messages: list[dict[str, str]], reply: Reply, record_prompt: str
               ) -> dict[str, Any]:  # fmt: skip
    """A turn's record (``turn_record``): the prompt as ``record_prompt`` says, the raw reply
    and what the server reported of it."""
    entry: dict[str, Any] = (
        {"messages": messages} if record_prompt == "messages"
        else {"messages_sha256": prompt_digest(messages), "last_message": messages[-1]}
    )  # fmt: skip
    entry.update(reply=reply.text, finish_reason=reply.finish_reason,
                 prompt_tokens=reply.prompt_tokens, completion_tokens=reply.completion_tokens,
                 model=reply.model)  # fmt: skip
    if reply.finish_reason == "length":
        entry["cut_off"] = True  # the reply hit max_tokens: its action may be cut short
    return entry


class ChatAgent(ABC):
    """Base for LLM agents: keeps the episode's history, builds the chat messages with a
    ``PromptFormatter`` and parses the action out of ``complete(messages)``."""

    name = "chat"

    def __init__(self, action_help: str, formatter_kwargs: dict[str, Any] | None = None,
                 record_prompt: str = "messages") -> None:  # fmt: skip
        if record_prompt not in RECORD_PROMPT:
            raise ValueError(f"record_prompt must be one of {', '.join(RECORD_PROMPT)}, got "
                             f"{record_prompt!r}")  # fmt: skip
        self.formatter = PromptFormatter(action_help=action_help, **(formatter_kwargs or {}))
        self.record_prompt = record_prompt
        self.history: list[Turn] = []
        self._turn: dict[str, Any] | None = None

    def reset(self, seed: int | None = None) -> None:
        """Start a new episode (forget the history)."""
        self.history = []
        self._turn = None

    def act(self, observation: str, info: dict[str, Any]) -> str:
        """The action for ``observation``; raises ``AgentError`` when the model gives none."""
        messages = self.prompt(self.history, observation, info)
        reply = self.reply(messages)
        self._turn = turn_entry(messages, reply, self.record_prompt)
        return self.take_reply(self.history, observation, reply.text)

    def turn_record(self, slot: int | None = None) -> dict[str, Any] | None:
        """The prompt and raw reply of the turn just played (``core.episode``)."""
        return self._turn

    def reply(self, messages: list[dict[str, str]]) -> Reply:
        """``complete(messages)`` as a ``Reply`` (a subclass may return plain text)."""
        answer = self.complete(messages)
        return answer if isinstance(answer, Reply) else Reply(answer)

    def prompt(self, history: list[Turn], observation: str, info: dict[str, Any]
               ) -> list[dict[str, str]]:  # fmt: skip
        """The chat messages for a turn after ``history`` (what ``act`` sends; batched play
        builds each episode's with it too, so both send the same prompts)."""
        return self.formatter.messages(history, observation, info.get("admissible_actions"))

    @staticmethod
    def take_reply(history: list[Turn], observation: str, reply: str) -> str:
        """Remember the turn in ``history`` and return the action in ``reply`` (a failed turn
        never gets here, so it is not remembered)."""
        history.append(Turn(observation, reply.strip()))
        return action_from_reply(reply)

    @abstractmethod
    def complete(self, messages: list[dict[str, str]]) -> str | Reply:
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
                "count_tokens": getattr(formatter.count_tokens, "name", None)
                or getattr(
                    formatter.count_tokens, "__name__", type(formatter.count_tokens).__name__
                ),
                "system_template": formatter.system_template,
                "max_prompt_tokens": formatter.max_prompt_tokens,
            },
            "record_prompt": self.record_prompt,
        }


def public_url(url: str) -> str:
    """``url`` without credentials, query or fragment (safe to log and report)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    netloc = f"{host}:{parts.port}" if parts.port is not None else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def _one_line(text: object, limit: int = 200) -> str:
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
        stop: str | list[str] | None = None,
        context_length: int | None = None,
        count_tokens: str = "auto",
        record_prompt: str = "messages",
        formatter_kwargs: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(action_help, formatter_kwargs, record_prompt)
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
        self.stop = [stop] if isinstance(stop, str) else list(stop) if stop else None
        self._api_key = api_key or os.environ.get("OPENAI_API_KEY") or "EMPTY"
        self._client = openai.OpenAI(
            base_url=base_url, api_key=self._api_key, timeout=timeout, max_retries=retries
        )
        self.context_length = context_length
        if context_length is not None:
            if int(context_length) <= max_tokens:
                raise ValueError(f"context_length {context_length} leaves no room for a prompt "
                                 f"beside max_tokens {max_tokens}")  # fmt: skip
            self.formatter.max_prompt_tokens = int(context_length) - max_tokens
        self.token_counter = self._token_counter(count_tokens)
        self.formatter.count_tokens = self.token_counter

    def _token_counter(self, how: str) -> Callable[[str], int]:
        """The prompt's token counter ``count_tokens`` names: "auto" (the server's tokenizer
        when it offers one, else "approx"), "server", "approx" (four characters a token) or
        a local tokenizer folder (``smollm2-135m-instruct`` or a path)."""
        if how == "approx":
            return approx_tokens
        if how in ("auto", "server"):
            counter = server_token_counter(self.base_url, self.model, self._api_key,
                                           min(self.timeout, 10.0))  # fmt: skip
            if counter is not None:
                return counter
            if how == "server":
                raise ValueError(f"count_tokens=server: {public_url(self.base_url)} has no "
                                 "/tokenize endpoint (llama.cpp and vLLM servers have one); "
                                 "use count_tokens=auto, approx or a tokenizer folder")  # fmt: skip
            return approx_tokens
        return local_token_counter(how)

    def complete(self, messages: list[dict[str, str]]) -> str | Reply:
        import openai

        extra: dict[str, Any] = {} if self.seed is None else {"seed": self.seed}
        if self.stop:
            extra["stop"] = self.stop
        url = public_url(self.base_url)
        after = f"after {self.retries} retries"
        try:
            reply = self._client.chat.completions.create(
                model=self.model,
                messages=messages,  # type: ignore[arg-type]  # role/content dicts
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
    def _content(reply: Any) -> Reply:
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
        usage, model = getattr(reply, "usage", None), getattr(reply, "model", None)
        return Reply(content, getattr(choice, "finish_reason", None),
                     _count(getattr(usage, "prompt_tokens", None)),
                     _count(getattr(usage, "completion_tokens", None)),
                     model if isinstance(model, str) else None)  # fmt: skip

    # ---- batched play (``lockstep``: ``agentgym bench run --batch-size B``) --------------------
    @property
    def batch_with(self) -> tuple[Any, ...]:
        """Agents with equal ``batch_with`` share their batch slots, so one ``act_batch`` call
        sends all their episodes' requests at once: the same endpoint, model and decoding (the
        agents of a worker's envs, splits and prompt variants; each slot's prompt still comes
        from its own agent's formatter and its request goes through its own agent's client)."""
        return ("openai", self.base_url, self.model, self.temperature, self.max_tokens,
                self.seed, self.timeout, self.retries, tuple(self.stop or ()))  # fmt: skip

    def start_slot(self, slot: int, seed: int | None) -> None:
        """A new episode begins in batch ``slot`` with an empty history (what ``reset`` is to
        ``act``)."""
        _SLOTS.setdefault(self.batch_with, {})[slot] = (self, [], {})

    def end_slot(self, slot: int) -> None:
        """The episode in ``slot`` is over: forget its history."""
        _SLOTS.get(self.batch_with, {}).pop(slot, None)

    def turn_record(self, slot: int | None = None) -> dict[str, Any] | None:
        """The prompt and raw reply of the turn just played (in batch ``slot``, if given)."""
        if slot is None:
            return self._turn
        held = _SLOTS.get(self.batch_with, {}).get(slot)
        return held[2].get("turn") if held else None

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
        asked = _each([partial(_ask, *turn) for turn in turns])
        actions: list[str | Exception] = []
        for (agent, history, held, observation, _), answer in zip(turns, asked, strict=True):
            if isinstance(answer, Exception):
                held.pop("turn", None)
                actions.append(answer)
                continue
            messages, reply = answer
            held["turn"] = turn_entry(messages, reply, agent.record_prompt)
            actions.append(agent.take_reply(history, observation, reply.text))
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
            stop=self.stop,
            context_length=self.context_length,
            count_tokens=getattr(self.token_counter, "name", "approx"),
            served_models=served_models(self.base_url, self._api_key),
        )
        return description


#: the live batch slots of the ``OpenAIChatAgent``s of this process, per ``batch_with``: the
#: slot's agent (its formatter and client) and its episode's history
#: slot's agent (its formatter and client), its episode's history and its last turn's record
_SLOTS: dict[Hashable, dict[int, tuple[OpenAIChatAgent, list[Turn], dict[str, Any]]]] = {}


def _ask(agent: OpenAIChatAgent, history: list[Turn], held: dict[str, Any], observation: str,
         info: dict[str, Any]) -> tuple[list[dict[str, str]], Reply]:  # fmt: skip
    """One slot's request, as ``act`` makes it (run on a batch thread: the formatter only reads
    its settings, the history is the slot's own and is only appended to after the reply)."""
    messages = agent.prompt(history, observation, info)
    return messages, agent.reply(messages)


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _server_root(base_url: str) -> str:
    """The server's root URL: ``base_url`` without a trailing ``/v1``."""
    root = base_url.rstrip("/")
    return root[: -len("/v1")] if root.endswith("/v1") else root


class _ServerTokens:
    """Counts tokens with the server's own tokenizer, remembering counts already asked for:
    ``POST /tokenize`` (llama.cpp's server reads ``content``, vLLM ``prompt``) or
    ``POST /extras/tokenize/count`` (llama-cpp-python's server reads ``input``)."""

    name = "server"
    PATHS = ("/tokenize", "/extras/tokenize/count")

    def __init__(self, url: str, model: str, api_key: str, timeout: float) -> None:
        import httpx

        self.url, self.model = url, model
        self._client = httpx.Client(timeout=timeout,
                                    headers={"Authorization": f"Bearer {api_key}"})  # fmt: skip
        self._count = lru_cache(maxsize=65536)(self._ask)

    def _ask(self, text: str) -> int:
        answer = self._client.post(self.url, json={
            "content": text, "prompt": text, "input": text, "model": self.model,
            "add_special": False, "add_special_tokens": False})  # fmt: skip
        answer.raise_for_status()
        body = answer.json()
        if isinstance(body.get("count"), int):
            return int(body["count"])
        return len(body["tokens"])

    def __call__(self, text: str) -> int:
        try:
            return self._count(text)
        except Exception as error:  # the server went away mid-run: say so in the episode
            raise AgentError(f"token count from {public_url(self.url)} failed: "
                             f"{_one_line(error)}") from error  # fmt: skip


def server_token_counter(base_url: str, model: str, api_key: str,
                         timeout: float) -> _ServerTokens | None:  # fmt: skip
    """A token counter backed by the server's tokenizer endpoint, or None when it has none (or
    cannot be reached now); found once per server and model, and shared."""
    if (base_url, model) not in _COUNTERS:
        _COUNTERS[(base_url, model)] = None
        for path in _ServerTokens.PATHS:
            counter = _ServerTokens(_server_root(base_url) + path, model, api_key, timeout)
            try:
                if counter._count("Action: click[buy now]") > 0:
                    _COUNTERS[(base_url, model)] = counter
                    break
            except Exception:  # no such endpoint, or no server: try the next, then fall back
                continue
    return _COUNTERS[(base_url, model)]


_COUNTERS: dict[tuple[str, str], _ServerTokens | None] = {}


class _LocalTokens:
    """Counts tokens with a local Hugging Face tokenizer (the served model's, from disk)."""

    def __init__(self, folder: str) -> None:
        from transformers import AutoTokenizer

        self.name = f"tokenizer:{folder}"
        self._tokenizer = AutoTokenizer.from_pretrained(folder)

    def __call__(self, text: str) -> int:
        return len(self._tokenizer(text, add_special_tokens=False)["input_ids"])


def local_token_counter(folder: str) -> _LocalTokens:
    """A token counter from the tokenizer in ``folder`` (``smollm2-135m-instruct``: the one the
    project installs); ValueError when there is none."""
    if folder == "smollm2-135m-instruct":
        from agentgym_train.smollm import smollm2_path

        folder = str(smollm2_path())
    if not os.path.isdir(folder):
        raise ValueError(f"count_tokens={folder!r}: use auto, server, approx, "
                         "smollm2-135m-instruct or a local tokenizer folder")  # fmt: skip
    return _LocalTokens(folder)


_SERVED: dict[str, list[str] | None] = {}


def served_models(base_url: str, api_key: str) -> list[str] | None:
    """The model ids the server lists (``GET /v1/models``), asked once per server; None when
    it cannot say."""
    if base_url not in _SERVED:
        import openai

        try:
            client = openai.OpenAI(base_url=base_url, api_key=api_key, timeout=10.0,
                                   max_retries=0)  # fmt: skip
            _SERVED[base_url] = sorted(str(m.id) for m in client.models.list())
        except Exception:  # an endpoint without the listing still plays
            _SERVED[base_url] = None
    return _SERVED[base_url]


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


LLM_BACKENDS: dict[str, type[OpenAIChatAgent]] = {"openai": OpenAIChatAgent}


def make_llm_agent(spec: str, env: gym.Env, **options: Any) -> ChatAgent:
    """The LLM agent for ``spec`` (``"openai:MODEL"``) on ``env``; ``options`` go to its class
    (base_url, api_key, temperature, ...). ValueError names the known backends."""
    backend, sep, model = spec.partition(":")
    if not sep or backend not in LLM_BACKENDS:
        known = ", ".join(f"{name}:MODEL" for name in sorted(LLM_BACKENDS))
        raise ValueError(f"unknown LLM agent {spec!r}; the known backends are {known}")
    action_help = getattr(env.unwrapped, "action_help", "") or "free text"
    return LLM_BACKENDS[backend](action_help=action_help, model=model, **options)


__all__ = [
    "RECORD_PROMPT",
    "AgentError",
    "ChatAgent",
    "OpenAIChatAgent",
    "Reply",
    "action_from_reply",
    "local_token_counter",
    "make_llm_agent",
    "prompt_digest",
    "public_url",
    "served_models",
    "server_token_counter",
    "turn_entry",
]
