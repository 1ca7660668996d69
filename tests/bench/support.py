"""Shared pieces of the benchmark tests: a tiny Toy suite, a batched worker run in-process, and a
stub OpenAI-compatible chat server on 127.0.0.1 whose answers a test scripts (replies, delays,
HTTP errors, malformed JSON)."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from agentgym_bench.player import EpisodePlayer, serve
from agentgym_bench.suite_runner import RunSettings

from agentgym_envs.wrappers.prompt import ACTIONS_HEADER

BATCH_RANDOM = "tests.bench.agents_for_tests:batch_random"

TINY_SUITE = """\
name: tiny
version: 1
description: two Toy lists, three tasks each
envs:
  AgentGym/Toy-v0:
    difficulties: [easy]
    splits: [test, ood]
    episodes: 3
"""


def first_admissible(body: dict[str, Any]) -> str:
    """The first admissible action listed in the last user message of a request."""
    last = [m for m in body["messages"] if m["role"] == "user"][-1]["content"]
    lines = last.splitlines()
    return lines[lines.index(ACTIONS_HEADER) + 1].removeprefix("- ")


def completion(content: str | None, finish_reason: str = "stop") -> dict[str, Any]:
    return {
        "id": "chatcmpl-stub",
        "object": "chat.completion",
        "created": 0,
        "model": "stub-model",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": finish_reason,
            }
        ],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


def words(text: str) -> int:
    """The stub server's token count (``/tokenize`` when ``Stub.tokenize`` is on)."""
    return len(text.split())


class Stub:
    """What the stub server answers: a request that one of ``rules`` picks (a test of its
    body, and a behaviour) gets that rule's behaviour, whatever order concurrent requests come
    in; the others take ``script`` entries one per request, in order, and when it is empty
    ``default``. Every request is answered ``delay`` seconds late. ``requests`` holds the bodies
    received; ``max_in_flight`` is the most requests the server held at once."""

    def __init__(self) -> None:
        self.script: list[Any] = []
        self.default: Any = "first_admissible"
        self.rules: list[tuple[Callable[[dict[str, Any]], bool], Any]] = []
        self.delay = 0.0
        self.requests: list[dict[str, Any]] = []
        self.authorization: list[str | None] = []
        self.in_flight = self.max_in_flight = 0
        self.lock = threading.Lock()
        self.url = ""
        #: answer ``POST /tokenize`` (as llama.cpp's server does; a token is a word here)
        self.tokenize = False
        self.tokenized: list[str] = []

    def next_behaviour(self, body: dict[str, Any]) -> Any:
        with self.lock:
            for picks, behaviour in self.rules:
                if picks(body):
                    return behaviour
            return self.script.pop(0) if self.script else self.default


def make_handler(stub: Stub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def send(self, status: int, body: bytes) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except OSError:  # the client gave up (timeout)
                pass

        def do_GET(self) -> None:
            if self.path == "/v1/models":
                models = {"object": "list", "data": [{"id": "stub-model", "object": "model"}]}
                self.send(200, json.dumps(models).encode())
            else:
                self.send(404, b'{"error": {"message": "not found"}}')

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if self.path == "/tokenize" and stub.tokenize:
                text = json.loads(raw)["content"]
                with stub.lock:
                    stub.tokenized.append(text)
                self.send(200, json.dumps({"tokens": list(range(words(text)))}).encode())
                return
            if self.path != "/v1/chat/completions":
                self.send(404, b'{"error": {"message": "not found"}}')
                return
            body = json.loads(raw)
            with stub.lock:
                stub.requests.append(body)
                stub.authorization.append(self.headers.get("Authorization"))
                stub.in_flight += 1
                stub.max_in_flight = max(stub.max_in_flight, stub.in_flight)
            try:
                time.sleep(stub.delay)
                self.answer(body, stub.next_behaviour(body))
            finally:
                with stub.lock:
                    stub.in_flight -= 1

        def answer(self, body: dict[str, Any], behaviour: Any) -> None:
            kind, arg = behaviour if isinstance(behaviour, tuple) else (behaviour, None)
            if kind == "first_admissible":
                text = f"Thought: the first one looks fine.\nAction: {first_admissible(body)}"
                self.send(200, json.dumps(completion(text)).encode())
            elif kind == "reply":
                self.send(200, json.dumps(completion(arg)).encode())
            elif kind == "cut_off":  # a reply that hit max_tokens
                self.send(200, json.dumps(completion(arg, "length")).encode())
            elif kind == "delay":
                time.sleep(arg)
                self.send(200, json.dumps(completion("Action: look")).encode())
            elif kind == "status":
                self.send(arg, b'{"error": {"message": "server exploded", "type": "server"}}')
            elif kind == "malformed":
                self.send(200, b'{"id": "x", "choices": [')
            elif kind == "no_choices":
                self.send(200, json.dumps({"id": "x", "object": "chat.completion"}).encode())
            elif kind == "null_content":
                self.send(200, json.dumps(completion(None)).encode())
            else:
                raise AssertionError(f"unknown behaviour {behaviour!r}")

    return Handler


@contextmanager
def serving(stub: Stub) -> Iterator[Stub]:
    """Serve ``stub`` on a free local port (``stub.url`` is its /v1 base) until the block ends."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(stub))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    stub.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        yield stub
    finally:
        server.shutdown()
        server.server_close()


def same(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Records by key, without their wall-clock seconds."""
    return {r["key"]: {k: v for k, v in r.items() if k != "seconds"} for r in records}


def lockstep(specs: list, size: int, agent: str = BATCH_RANDOM, options: dict | None = None,
             prompts: dict | None = None) -> list[dict[str, Any]]:  # fmt: skip
    """A batched worker's loop in this process (every queued episode is there at once)."""
    player = EpisodePlayer(RunSettings(agent, options or {}, batch_size=size), prompts or {})
    tasks: queue.Queue = queue.Queue()
    results: queue.Queue = queue.Queue()
    for spec in [*specs, None]:
        tasks.put(spec)
    serve(player, size, tasks, results, 0)
    reports = [results.get_nowait() for _ in range(results.qsize())]
    started = [key for kind, _, key, _ in reports if kind == "start"]
    assert started == [spec.key for spec in specs]
    return [payload for kind, _, _, payload in reports if kind == "done"]
