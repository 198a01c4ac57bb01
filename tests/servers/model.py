"""A real OpenAI-shaped model server on 127.0.0.1, for tests and benchmarks.

It serves `GET /v1/models` and `POST /v1/chat/completions` the way Ollama,
llama.cpp and vLLM do. The HTTP/1.1 plumbing (keep-alive, Content-Length bodies,
an asyncio loop in a background thread, so a test's own event loop and the
server never block each other) and the OpenAI shapes come from the package's
`jobtracker.demo.model.OpenAIServer`, which the bundled demo model uses too;
this module adds scripted answers, faults and a record of what was asked.

Start it::

    with ModelServer() as server:          # or server.start() ... server.stop()
        config = LLMConfig(url=server.url, model="test-model")   # url ends in /v1

or take the `model_server` fixture (import it into a conftest.py)::

    from tests.servers.model import model_server  # noqa: F401

(`tests.servers.model` resolves under `python -m pytest` from the repository
root, the README's test command; use that one spelling everywhere, so that
`Fault` and `ModelServer` are never loaded twice under two module names.)

What it answers:

- `GET /v1/models` → `{"object": "list", "data": [{"id": ..., "object": "model"}]}`
  for each of `models`; `models_key=True` adds llama.cpp's extra `models` list.
- `POST /v1/chat/completions` → a chat completion whose `choices[0].message.content`
  comes from `answer(body)`: a dict is JSON-encoded, a str is sent as is, a `Fault`
  is acted out. The default `answer` is `schema_answer`, which builds a valid
  object from the request's `response_format` schema (first enum value, short
  strings within maxLength, minItems items, ...). `usage` counts len(text) // 4.
  An unknown `model` gets 404, as from a real server.
- `flat_only=True` behaves like llama-cpp-python's server: the nested
  `{"type": "json_schema", "json_schema": {...}}` form gets HTTP 500 "Input
  should be 'text' or 'json_object'"; `{"type": "json_object", "schema": ...}`
  is answered.
- `extra_fields=True` adds llama.cpp's `timings` (`prompt_n`, `cache_n`, `predicted_n`,
  `predicted_per_second`) and `prompt_tokens_details.cached_tokens`, played like one
  llama.cpp slot: `cache_n` is the prefix this request's text shares with the one
  before it, in the same len(text) // 4 tokens as `usage`. `timings` (a dict) replaces
  them all when set: a server that lies about its work.
- `latency` seconds (settable while running) pass before each chat answer,
  without holding up other connections.

What servers say about themselves (for `jobtracker model check`), each off until set,
and each free to lie (a negative n_ctx, a string, a tokenizer that fails):

- `props` (a dict): llama.cpp's `GET /props` at the server root, e.g.
  `{"default_generation_settings": {"n_ctx": 4096}}`; with it, `POST /apply-template`
  joins the messages in a ChatML-like template, as llama.cpp does.
- `max_model_len` (any value): vLLM's field on every `/v1/models` entry.
- `ollama_show` / `ollama_ps` (dicts): Ollama's `POST /api/show` and `GET /api/ps`.
- `tokenize` (a callable from the JSON body to the answer, or a `Fault`): `POST
  /tokenize` at the root; `count_tokens` is the well-behaved one (llama.cpp's
  `content` form → `tokens`, vLLM's `messages` form → `tokens` and `count`, at
  len(text) // 4 tokens).

Faults, for the next chat calls in order or for every call a predicate picks::

    server.queue(Fault.status(429, retry_after=1), Fault.status(500))
    server.rule(lambda body: "Acme" in str(body["messages"]), Fault.drop(), times=2)

`Fault.status(code, retry_after=, retry_after_ms=, body=)`, `Fault.hang()` (never
answers; the client times out; each callback in `server.on_hang` is called as it
starts hanging), `Fault.drop()` (closes the connection without an
answer), `Fault.raw(text)` (a non-JSON HTTP body), `Fault.content(text)` (that
text as the answer content), `Fault.length()` (cut-off JSON with
`finish_reason: "length"`).

What it saw: `server.requests` (copies of `Recorded(method, path, headers, json)`,
header names lower-case), `server.chat_requests`, `server.chat_count`, and
`server.peak_in_flight` (most chat requests open at once). `record=False` keeps
only the counters, for long benchmarks.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import pytest

from jobtracker.demo.canned_answers import instance_of, requested_schema
from jobtracker.demo.httpserver import HTTPRequest, error_body, http_response
from jobtracker.demo.model import OpenAIServer

LLAMA_CPP_PYTHON_ERROR = "Input should be 'text' or 'json_object'"


@dataclass(frozen=True)
class Fault:
    """Something other than a good answer, for one chat call."""

    kind: str
    code: int = 200          # the HTTP status, for status and raw faults
    body: str | None = None
    headers: tuple[tuple[str, str], ...] = ()

    @classmethod
    def status(cls, code: int, *, retry_after: float | str | None = None,
                    retry_after_ms: int | None = None, body: str | None = None) -> Fault:
        headers = []
        if retry_after is not None:
            headers.append(("Retry-After", str(retry_after)))
        if retry_after_ms is not None:
            headers.append(("retry-after-ms", str(retry_after_ms)))
        if body is None:
            body = json.dumps({"error": {"message": HTTPStatus(code).phrase, "code": code}})
        return cls("status", code, body, tuple(headers))

    @classmethod
    def hang(cls) -> Fault:
        return cls("hang")

    @classmethod
    def drop(cls) -> Fault:
        return cls("drop")

    @classmethod
    def raw(cls, text: str, status: int = 200) -> Fault:
        return cls("raw", status, text)

    @classmethod
    def content(cls, text: str) -> Fault:
        return cls("content", body=text)

    @classmethod
    def length(cls) -> Fault:
        return cls("length")


@dataclass(frozen=True)
class Recorded:
    """One request as the server saw it."""

    method: str
    path: str
    headers: dict[str, str]
    json: Any


@dataclass
class _Rule:
    predicate: Callable[[dict[str, Any]], bool]
    fault: Fault
    times: int | None


_UNSET: Any = object()


def _text_of(body: dict[str, Any]) -> str:
    if isinstance(body.get("content"), str):
        return body["content"]
    if isinstance(body.get("prompt"), str):
        return body["prompt"]
    return "\n".join(str(m.get("content", "")) for m in body.get("messages") or ()
                     if isinstance(m, dict))


def count_tokens(body: dict[str, Any]) -> dict[str, Any]:
    """A tokenizer at len(text) // 4 tokens: llama.cpp's `tokens`, and vLLM's `count`."""
    n = max(1, len(_text_of(body)) // 4)
    return {"tokens": list(range(n)), "count": n, "max_model_len": 4096}


def schema_answer(body: dict[str, Any]) -> Any:
    """A valid answer for the chat request's `response_format` schema ({} without one)."""
    schema = requested_schema(body)
    return instance_of(schema, schema)


# --- the server ---------------------------------------------------------------------

class ModelServer(OpenAIServer):
    """An OpenAI-compatible chat server on 127.0.0.1 (see the module docstring)."""

    thread_name = "model-server"
    owned_by = "tests"

    def __init__(self, models: tuple[str, ...] | list[str] = ("test-model",),
                 answer: Callable[[dict[str, Any]], Any] | None = None,
                 latency: float = 0.0, *, flat_only: bool = False, models_key: bool = False,
                 extra_fields: bool = False, record: bool = True,
                 props: dict[str, Any] | None = None, max_model_len: Any = _UNSET,
                 ollama_show: dict[str, Any] | None = None,
                 ollama_ps: dict[str, Any] | None = None,
                 tokenize: Callable[[dict[str, Any]], Any] | Fault | None = None) -> None:
        super().__init__(models)
        self.answer = answer or schema_answer   # type: ignore[method-assign]
        self.latency = latency
        self.flat_only = flat_only
        self.models_key = models_key
        self.extra_fields = extra_fields
        self.record = record
        self.props = props
        self.max_model_len = max_model_len
        self.ollama_show = ollama_show
        self.ollama_ps = ollama_ps
        self.tokenize = tokenize
        self.timings: dict[str, Any] | None = None
        self._slot_text = ""          # what the one simulated cache slot holds
        self.chat_count = 0
        self.in_flight = 0
        self.peak_in_flight = 0
        self._lock = threading.Lock()
        self._requests: list[Recorded] = []
        self._faults: deque[Fault] = deque()
        self._rules: list[_Rule] = []
        # Called (in the server's thread) as a chat request starts to hang: a test's
        # timeout can fire on that, not on a clock raced against this server's own work.
        self.on_hang: list[Callable[[], None]] = []

    # --- control, from the test's thread ---

    @property
    def requests(self) -> list[Recorded]:
        with self._lock:
            return list(self._requests)

    @property
    def chat_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def queue(self, *faults: Fault) -> None:
        """The next chat calls get these faults, one each, in order."""
        with self._lock:
            self._faults.extend(faults)

    def rule(self, predicate: Callable[[dict[str, Any]], bool], fault: Fault,
             times: int | None = None) -> None:
        """Every chat call whose JSON body matches gets `fault` (at most `times` times)."""
        with self._lock:
            self._rules.append(_Rule(predicate, fault, times))

    def reset(self) -> None:
        """Forget recorded requests, counters, queued faults and rules."""
        with self._lock:
            self._requests.clear()
            self._faults.clear()
            self._rules.clear()
            self.chat_count = self.peak_in_flight = 0

    def start(self) -> ModelServer:
        super().start()
        return self

    def __enter__(self) -> ModelServer:
        return self.start()

    # --- answering, in the server's own thread ---

    def received(self, request: HTTPRequest, body: Any) -> None:
        if self.record:
            with self._lock:
                self._requests.append(Recorded(request.method, request.path, request.headers,
                                               body))

    async def respond(self, request: HTTPRequest) -> bytes | None:
        """The servers' own endpoints first (when set), then the OpenAI routes."""
        route = (request.method, request.path)
        answer: Any = None
        if route == ("GET", "/props"):
            answer = self.props
        elif route == ("POST", "/apply-template") and self.props is not None:
            answer = {"prompt": self._templated(request)}
        elif route == ("POST", "/api/show"):
            answer = self.ollama_show
        elif route == ("GET", "/api/ps"):
            answer = self.ollama_ps
        elif route == ("POST", "/tokenize") and self.tokenize is not None:
            body = self._body(request)
            self.received(request, body)
            if isinstance(self.tokenize, Fault):
                return await self._act_out(self.tokenize, {})
            return http_response(200, json.dumps(self.tokenize(body)))
        else:
            return await super().respond(request)
        self.received(request, self._body(request))
        if answer is None:
            return http_response(404, error_body(f"no route for {request.method} "
                                                 f"{request.path}"))
        return http_response(200, json.dumps(answer))

    @staticmethod
    def _body(request: HTTPRequest) -> Any:
        try:
            return json.loads(request.body) if request.body else None
        except ValueError:
            return None

    def _templated(self, request: HTTPRequest) -> str:
        body = self._body(request) or {}
        return "".join(f"<|im_start|>{m.get('role')}\n{m.get('content')}<|im_end|>\n"
                       for m in body.get("messages") or () if isinstance(m, dict))

    def models_listing(self) -> dict[str, Any]:
        listing = super().models_listing()
        if self.max_model_len is not _UNSET:
            for entry in listing["data"]:
                entry["max_model_len"] = self.max_model_len
        if self.models_key:
            listing["models"] = [{"name": m, "model": m, "type": "model"} for m in self.models]
        return listing

    async def chat(self, body: dict[str, Any]) -> bytes | None:
        with self._lock:
            self.chat_count += 1
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        try:
            return await self._chat_answer(body)
        finally:
            with self._lock:
                self.in_flight -= 1

    async def _chat_answer(self, body: dict[str, Any]) -> bytes | None:
        # The answer time counts from arrival, so building the answer is inside it.
        deadline = asyncio.get_running_loop().time() + self.latency
        model = body.get("model")
        if model not in self.models:
            return http_response(404, error_body(f"model '{model}' not found",
                                                 "not_found_error"))
        fmt = body.get("response_format") or {}
        if self.flat_only and fmt.get("type") not in (None, "text", "json_object"):
            detail = [{"type": "literal_error", "loc": ["body", "response_format", "type"],
                       "msg": LLAMA_CPP_PYTHON_ERROR, "input": fmt.get("type")}]
            return http_response(500, error_body(json.dumps(detail), "internal_server_error"))
        fault = self._next_fault(body)
        content = None
        if fault is None:
            content = self.answer(body)
            if isinstance(content, Fault):
                fault, content = content, None
        if self.latency:
            await asyncio.sleep(deadline - asyncio.get_running_loop().time())
        if fault is None:
            return self._completion(body, content)
        return await self._act_out(fault, body)

    def _next_fault(self, body: dict[str, Any]) -> Fault | None:
        with self._lock:
            if self._faults:
                return self._faults.popleft()
            for rule in self._rules:
                if rule.times != 0 and rule.predicate(body):
                    if rule.times is not None:
                        rule.times -= 1
                    return rule.fault
        return None

    async def _act_out(self, fault: Fault, body: dict[str, Any]) -> bytes | None:
        if fault.kind == "hang":
            with self._lock:
                callbacks = list(self.on_hang)
            for callback in callbacks:
                callback()
            await asyncio.Event().wait()    # until stop() cancels this connection
        if fault.kind == "drop":
            return None
        if fault.kind in ("status", "raw"):
            return http_response(fault.code, fault.body or "", fault.headers,
                                 "application/json" if fault.kind == "status" else "text/plain")
        if fault.kind == "content":
            return self._completion(body, fault.body or "")
        text = json.dumps(schema_answer(body))
        return self._completion(body, text[: max(1, len(text) // 2)], finish_reason="length")

    def completion_id(self) -> str:
        return f"chatcmpl-{self.chat_count}"

    def _completion(self, body: dict[str, Any], content: Any,
                    finish_reason: str = "stop") -> bytes:
        answer = self.completion(body, content, finish_reason)
        if self.extra_fields:
            usage = answer["usage"]
            text = "".join(str(m.get("content", "")) for m in body.get("messages") or ()
                           if isinstance(m, dict))
            with self._lock:
                shared = len(os.path.commonprefix([self._slot_text, text]))  # noqa: RUF071 (characters, as intended)
                self._slot_text = text
            cached = min(shared // 4, usage["prompt_tokens"])
            usage["prompt_tokens_details"] = {"cached_tokens": cached}
            answer["timings"] = self.timings if self.timings is not None else {
                "cache_n": cached, "prompt_n": usage["prompt_tokens"] - cached,
                "predicted_n": usage["completion_tokens"], "predicted_ms": 1.5,
                "predicted_per_second": 40.0}
            answer["system_fingerprint"] = "b0000-test"
        return http_response(200, json.dumps(answer))


@pytest.fixture
def model_server() -> Iterator[ModelServer]:
    """A started ModelServer serving "test-model", stopped after the test."""
    with ModelServer() as server:
        yield server


__all__ = ["LLAMA_CPP_PYTHON_ERROR", "Fault", "ModelServer", "Recorded", "count_tokens",
           "instance_of", "model_server", "schema_answer"]
