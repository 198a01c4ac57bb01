"""A real OpenAI-shaped model server on 127.0.0.1, for tests and benchmarks.

It speaks just enough HTTP/1.1 (keep-alive, Content-Length bodies) to serve
`GET /v1/models` and `POST /v1/chat/completions` the way Ollama, llama.cpp and
vLLM do, from an asyncio loop in a background thread, so a test's own event
loop and the server never block each other.

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
- `extra_fields=True` adds llama.cpp's `timings` and `prompt_tokens_details`.
- `latency` seconds (settable while running) pass before each chat answer,
  without holding up other connections.

Faults, for the next chat calls in order or for every call a predicate picks::

    server.queue(Fault.status(429, retry_after=1), Fault.status(500))
    server.rule(lambda body: "Acme" in str(body["messages"]), Fault.drop(), times=2)

`Fault.status(code, retry_after=, retry_after_ms=, body=)`, `Fault.hang()` (never
answers; the client times out), `Fault.drop()` (closes the connection without an
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
import contextlib
import json
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import pytest

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


# --- the default answer: a valid instance of the requested schema -------------------

_WORD = "example"


def schema_answer(body: dict[str, Any]) -> Any:
    """A valid answer for the chat request's `response_format` schema ({} without one)."""
    fmt = body.get("response_format") or {}
    schema = (fmt.get("json_schema") or {}).get("schema") or fmt.get("schema") or {}
    return instance_of(schema, schema)


def instance_of(schema: Any, root: dict[str, Any]) -> Any:
    """The smallest plain instance of `schema`: first choices, minimum sizes."""
    if not isinstance(schema, dict):
        return None
    if "$ref" in schema:
        return instance_of(_resolve(schema["$ref"], root), root)
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for combinator in ("anyOf", "oneOf", "allOf"):
        if schema.get(combinator):
            return instance_of(schema[combinator][0], root)
    kind = schema.get("type", "object" if "properties" in schema else "string")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object":
        return {name: instance_of(sub, root)
                for name, sub in (schema.get("properties") or {}).items()}
    if kind == "array":
        count = max(schema.get("minItems", 0), min(1, schema.get("maxItems", 1)))
        return [instance_of(schema.get("items", {}), root) for _ in range(count)]
    if kind == "string":
        text = _WORD * (1 + schema.get("minLength", 0) // len(_WORD))
        return text[:max(schema.get("minLength", 0), min(len(_WORD), schema.get("maxLength", 99)))]
    if kind in ("integer", "number"):
        value = max(schema.get("minimum", 0), min(0, schema.get("maximum", 0)))
        return int(value) if kind == "integer" else float(value)
    if kind == "boolean":
        return False
    return None


def _resolve(ref: str, root: dict[str, Any]) -> Any:
    node: Any = root
    for part in ref.removeprefix("#/").split("/"):
        if part:
            node = node[part]
    return node


# --- the server ---------------------------------------------------------------------

class ModelServer:
    """An OpenAI-compatible chat server on 127.0.0.1 (see the module docstring)."""

    def __init__(self, models: tuple[str, ...] | list[str] = ("test-model",),
                 answer: Callable[[dict[str, Any]], Any] | None = None,
                 latency: float = 0.0, *, flat_only: bool = False, models_key: bool = False,
                 extra_fields: bool = False, record: bool = True) -> None:
        self.models = list(models)
        self.answer = answer or schema_answer
        self.latency = latency
        self.flat_only = flat_only
        self.models_key = models_key
        self.extra_fields = extra_fields
        self.record = record
        self.port = 0
        self.chat_count = 0
        self.in_flight = 0
        self.peak_in_flight = 0
        self._lock = threading.Lock()
        self._requests: list[Recorded] = []
        self._faults: deque[Fault] = deque()
        self._rules: list[_Rule] = []
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._connections: set[asyncio.Task[None]] = set()
        self._error: BaseException | None = None

    # --- control, from the test's thread ---

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

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
        self._thread = threading.Thread(target=self._run, name="model-server", daemon=True)
        self._thread.start()
        self._ready.wait(10)
        if self._error is not None:
            raise RuntimeError("model server failed to start") from self._error
        return self

    def stop(self) -> None:
        if self._loop is not None and self._stopping is not None:
            with contextlib.suppress(RuntimeError):   # the loop already ended
                self._loop.call_soon_threadsafe(self._stopping.set)
        if self._thread is not None:
            self._thread.join(10)
        self._thread = None

    def __enter__(self) -> ModelServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # --- the server's own thread and loop ---

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # surfaced by start(); a thread has nowhere else to say it
            self._error = exc
            self._ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        server = await asyncio.start_server(self._connection, "127.0.0.1", 0,
                                            limit=4 * 1024 * 1024)
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        async with server:
            await self._stopping.wait()
            server.close()
            for task in list(self._connections):
                task.cancel()
            await asyncio.gather(*self._connections, return_exceptions=True)

    async def _connection(self, reader: asyncio.StreamReader,
                          writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        try:
            while await self._exchange(reader, writer):
                pass
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        except asyncio.CancelledError:
            # stop() cancels open connections. Ending quietly matters: the stream
            # protocol's done-callback would otherwise log the cancellation as an error.
            pass
        finally:
            self._connections.discard(task)
            writer.close()

    async def _exchange(self, reader: asyncio.StreamReader,
                        writer: asyncio.StreamWriter) -> bool:
        """Read one request and answer it; False when the connection should close."""
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError:
            return False   # the client closed an idle keep-alive connection
        request_line, *lines = head.decode("latin-1").split("\r\n")
        method, target, _version = request_line.split(" ", 2)
        headers = {}
        for line in lines:
            name, sep, value = line.partition(":")
            if sep:
                headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length") or 0)
        raw = await reader.readexactly(length) if length else b""
        response = await self._respond(method, target.split("?", 1)[0], headers, raw)
        if response is None:            # Fault.drop(): no answer at all
            writer.transport.abort()
            return False
        writer.write(response)
        await writer.drain()
        return headers.get("connection", "").lower() != "close"

    async def _respond(self, method: str, path: str, headers: dict[str, str],
                       raw: bytes) -> bytes | None:
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            return _http(400, _error("request body is not JSON"))
        if self.record:
            with self._lock:
                self._requests.append(Recorded(method, path, headers, body))
        if method == "GET" and path == "/v1/models":
            return _http(200, json.dumps(self._models_listing()))
        if method == "POST" and path == "/v1/chat/completions":
            if not isinstance(body, dict):
                return _http(400, _error("expected a JSON object"))
            return await self._chat(body)
        return _http(404, _error(f"no route for {method} {path}"))

    def _models_listing(self) -> dict[str, Any]:
        listing: dict[str, Any] = {"object": "list", "data": [
            {"id": m, "object": "model", "created": 0, "owned_by": "tests"}
            for m in self.models]}
        if self.models_key:
            listing["models"] = [{"name": m, "model": m, "type": "model"} for m in self.models]
        return listing

    async def _chat(self, body: dict[str, Any]) -> bytes | None:
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
            return _http(404, _error(f"model '{model}' not found", "not_found_error"))
        fmt = body.get("response_format") or {}
        if self.flat_only and fmt.get("type") not in (None, "text", "json_object"):
            detail = [{"type": "literal_error", "loc": ["body", "response_format", "type"],
                       "msg": LLAMA_CPP_PYTHON_ERROR, "input": fmt.get("type")}]
            return _http(500, _error(json.dumps(detail), "internal_server_error"))
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
            await asyncio.Event().wait()    # until stop() cancels this connection
        if fault.kind == "drop":
            return None
        if fault.kind in ("status", "raw"):
            return _http(fault.code, fault.body or "", fault.headers,
                         "application/json" if fault.kind == "status" else "text/plain")
        if fault.kind == "content":
            return self._completion(body, fault.body or "")
        text = json.dumps(schema_answer(body))
        return self._completion(body, text[: max(1, len(text) // 2)], finish_reason="length")

    def _completion(self, body: dict[str, Any], content: Any,
                    finish_reason: str = "stop") -> bytes:
        text = content if isinstance(content, str) else json.dumps(content)
        prompt = sum(len(str(m.get("content", ""))) for m in body.get("messages") or ()
                     if isinstance(m, dict))
        usage: dict[str, Any] = {"prompt_tokens": max(1, prompt // 4),
                                 "completion_tokens": max(1, len(text) // 4)}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        answer: dict[str, Any] = {
            "id": f"chatcmpl-{self.chat_count}", "object": "chat.completion", "created": 0,
            "model": body.get("model"),
            "choices": [{"index": 0, "finish_reason": finish_reason,
                         "message": {"role": "assistant", "content": text}}],
            "usage": usage,
        }
        if self.extra_fields:
            usage["prompt_tokens_details"] = {"cached_tokens": 0}
            answer["timings"] = {"prompt_n": usage["prompt_tokens"], "predicted_ms": 1.5}
            answer["system_fingerprint"] = "b0000-test"
        return _http(200, json.dumps(answer))


def _error(message: str, kind: str = "invalid_request_error") -> str:
    return json.dumps({"error": {"message": message, "type": kind}})


def _http(status: int, body: str, headers: tuple[tuple[str, str], ...] = (),
          content_type: str = "application/json") -> bytes:
    data = body.encode()
    extra = "".join(f"{name}: {value}\r\n" for name, value in headers)
    head = (f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {len(data)}\r\n{extra}\r\n")
    return head.encode("latin-1") + data


@pytest.fixture
def model_server() -> Iterator[ModelServer]:
    """A started ModelServer serving "test-model", stopped after the test."""
    with ModelServer() as server:
        yield server


__all__ = ["LLAMA_CPP_PYTHON_ERROR", "Fault", "ModelServer", "Recorded", "instance_of",
           "model_server", "schema_answer"]
