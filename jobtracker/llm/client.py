"""The model-server client: probe, one structured call, per-call retries.

Any OpenAI-compatible server (Ollama, llama.cpp's llama-server, vLLM, LiteLLM)
is asked through `POST {base}/chat/completions` with the nested `json_schema`
response format. Servers do not all enforce the schema, so every answer is
validated here too; an answer that does not parse or validate is retried like
a transport error. Retries belong to the call and nowhere above it: a call that
still fails raises `LLMError`, and the unit that asked writes nothing.

One `LLMClient` per run holds one pooled `httpx.AsyncClient`. The bearer token
is read from the named environment variable and only ever put in a request
header; user-info in the URL is never sent (httpx would turn it into Basic auth).
Every reason, event and exception passes the run's `Redactor` (jobtracker.secrets)
before it is cut to length, so an echoed credential leaves in no form.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import random as _random
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from jobtracker import jsonbound, secrets
from jobtracker.config import LLMConfig
from jobtracker.llm.response import (
    Timings,
    cleaned,
    count,
    model_ids,
    parse_content,
    schema_problem,
    server_timings,
)
from jobtracker.text import one_line
from jobtracker.workers.events import EventType, report

# Backoff between attempts, as in the official OpenAI client family.
BACKOFF_START = 0.5
BACKOFF_CAP = 8.0
# The longest server-requested wait we honour; longer requests are cut to this.
RETRY_AFTER_CAP = 60.0
# How long the probe may take, whatever the per-call timeout says: in all, not per read.
PROBE_TIMEOUT = 10.0
# The most read of one answer: a model listing, or a chat completion bounded by
# max_tokens (a few KB). A server streaming more at loopback speed is cut off here,
# not by the call's timeout after gigabytes.
MAX_LISTING_BYTES = 4 * 1024 * 1024
MAX_ANSWER_BYTES = 8 * 1024 * 1024

RETRYABLE_STATUS = frozenset({408, 409, 429})
# llama-cpp-python's server rejects the nested json_schema form with this text.
FLAT_FORMAT_HINT = "Input should be 'text' or 'json_object'"

# What _exchange returns when the server wants the flat json_object form instead.
_WANTS_FLAT = "wants flat response_format"



class BodyTooLarge(Exception):
    """An answer past its byte budget; reading stopped there."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(f"answer larger than {limit // (1024 * 1024)} MB")


async def read_body(response: httpx.Response, limit: int) -> bytes:
    """A streamed response's body, BodyTooLarge past `limit` bytes (decoded: a gzip bomb
    counts as what it unpacks to)."""
    chunks, size = [], 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(limit)
        chunks.append(chunk)
    return b"".join(chunks)


def loads(body: bytes | str) -> Any:
    """JSON from a server; ValueError for anything that is not (nested past the
    interpreter's recursion limit included: json raises RecursionError for that)."""
    return jsonbound.loads(body)      # JSONRefused is a ValueError


async def fetch_json(http: httpx.AsyncClient, method: str, url: str, *,
                     headers: Mapping[str, str], timeout: float, limit: int,
                     body: Any = None) -> tuple[int, Any]:
    """(status, JSON) of one exchange within `timeout` seconds in all and `limit` bytes;
    the JSON is None unless the status is 200. Raises httpx's errors, TimeoutError,
    BodyTooLarge, and ValueError for a body that is not JSON."""
    async with asyncio.timeout(timeout):
        async with http.stream(method, url, json=body, headers=dict(headers),
                               timeout=timeout) as response:
            if response.status_code != 200:
                return response.status_code, None
            data = await read_body(response, limit)
    return 200, loads(data)


class LLMError(Exception):
    """A call that failed for good. `str()` is one short line for people."""

    def __init__(self, reason: str, *, attempts: int = 1, status: int | None = None) -> None:
        self.reason = reason
        self.attempts = attempts
        self.status = status
        super().__init__(reason if attempts <= 1 else f"{reason} after {attempts} attempts")


@dataclass(frozen=True)
class Answer:
    """A schema-valid answer and what it cost."""

    data: dict[str, Any]
    model: str
    input_tokens: int
    output_tokens: int
    seconds: float      # the successful attempt's round trip
    attempts: int
    timings: Timings = field(default_factory=Timings)   # what the server said of its work


@dataclass(frozen=True)
class ProbeResult:
    """What `GET {base}/models` said. `reason` is None when the default model is there."""

    ok: bool
    reason: str | None
    models: list[str] = field(default_factory=list)
    # Tasks with a model of their own (config.models): None when listed, else why not.
    task_reasons: dict[str, str | None] = field(default_factory=dict)
    # The server answered /models with a listing: a reason then means a model it does
    # not list (a configuration error), not a server that is away.
    reachable: bool = False

    def available_for(self, task: str) -> str | None:
        """Why `task` cannot be asked (None when it can)."""
        return self.task_reasons.get(task, self.reason)


@dataclass(frozen=True)
class _Failure:
    """One failed attempt: a short word for events, a longer line for the error."""

    short: str
    detail: str
    retryable: bool = True
    status: int | None = None
    wait: float | None = None   # what the server asked for, already capped


def idempotency_key(task: str, unit_key: str) -> str:
    """Stable per unit: a rerun of the same question sends the same key."""
    return hashlib.sha256(f"{task}:{unit_key}".encode()).hexdigest()


def display_url(url: str) -> str:
    """The URL without user-info or query secrets, for messages."""
    return secrets.display_url(url)


def retry_after(headers: Mapping[str, str], now: float) -> float | None:
    """Seconds the server asked us to wait: retry-after-ms, Retry-After seconds or date."""
    with contextlib.suppress(KeyError, ValueError):
        return _capped(float(headers["retry-after-ms"]) / 1000)
    value = headers.get("retry-after")
    if value is None:
        return None
    with contextlib.suppress(ValueError):
        return _capped(float(value))
    with contextlib.suppress(TypeError, ValueError, IndexError, OverflowError):
        return _capped(parsedate_to_datetime(value).timestamp() - now)
    return None


def _capped(seconds: float) -> float | None:
    if seconds != seconds or seconds < 0:   # NaN or in the past: fall back to backoff
        return None
    return min(seconds, RETRY_AFTER_CAP)


def backoff(attempt: int, random: Callable[[], float]) -> float:
    """Exponential backoff after failed attempt `attempt` (1-based), less up to 25% jitter."""
    return min(BACKOFF_START * 2 ** (attempt - 1), BACKOFF_CAP) * (1 - 0.25 * random())


class LLMClient:
    """One model server for one run: `async with LLMClient(config) as client:`."""

    def __init__(self, config: LLMConfig, http: httpx.AsyncClient | None = None, *,
                 max_in_flight: int | None = None,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
                 random: Callable[[], float] = _random.random,
                 timeout: Callable[[float], contextlib.AbstractAsyncContextManager[Any]]
                 = asyncio.timeout) -> None:
        self.config = config
        # Credentials in the URL are never sent: without user-info httpx sends no Basic auth.
        self.base = secrets.strip_userinfo((config.url or "").rstrip("/"))
        self._owns_http = http is None
        self._made_http = http
        self._keepalive = max(max_in_flight or 0, 20)
        self._limit: asyncio.Semaphore | contextlib.nullcontext[None] = (
            asyncio.Semaphore(max_in_flight) if max_in_flight else contextlib.nullcontext())
        self._sleep = sleep
        self._random = random
        # The bound of one exchange, as the retry wait is `sleep`: injected by tests that
        # must not race a real clock against their own server (tests/unit/test_llm_client).
        self._timeout = timeout
        token = os.environ.get(config.api_key_env) if config.api_key_env else None
        # Kept out of every message: only _headers() reads it, and _redact() guards the rest.
        self.__token = token or None
        self._redact = secrets.Redactor.of(tokens=[token], urls=[config.url])
        # Set once a server rejects the nested json_schema form (llama-cpp-python).
        self.flat_response_format = False
        self._retries_stopped = asyncio.Event()
        self.last_probe: ProbeResult | None = None
        # The chat URL, parsed once on first use rather than by httpx on every call (a
        # bad one still fails where it did: inside the first exchange, as InvalidURL).
        self._chat_url: httpx.URL | None = None

    @property
    def _http(self) -> httpx.AsyncClient:
        """The HTTP client, made when first used: a run with no model to ask never builds
        one (its TLS context, and httpcore's close, cost ~60 ms of a `work` start-up)."""
        if self._made_http is None:
            self._made_http = httpx.AsyncClient(limits=httpx.Limits(
                max_connections=None, max_keepalive_connections=self._keepalive))
        return self._made_http

    def stop_retrying(self) -> None:
        """From now on a failed attempt is the call's last: waits for a retry end at once
        and the call fails (a run's deadline: units in flight end, recorded as failed)."""
        self._retries_stopped.set()

    async def _wait_to_retry(self, delay: float) -> bool:
        """Wait `delay` seconds before the next attempt; False when retries were stopped."""
        if self._retries_stopped.is_set():
            return False
        sleeper = asyncio.ensure_future(self._sleep(delay))
        stopper = asyncio.ensure_future(self._retries_stopped.wait())
        try:
            await asyncio.wait({sleeper, stopper}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in (sleeper, stopper):
                waiter.cancel()
        return not self._retries_stopped.is_set()

    async def __aenter__(self) -> LLMClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._owns_http and self._made_http is not None:
            await self._made_http.aclose()

    # --- probe ---------------------------------------------------------------------

    async def probe(self) -> ProbeResult:
        """Is the server there, and does it list the configured model(s)?"""
        cfg = self.config
        if not self.base or not (cfg.model or cfg.models):
            return self._probe_failed("no model configured")
        where = display_url(self.base)
        timeout = min(cfg.timeout, PROBE_TIMEOUT)
        try:
            status, listing = await fetch_json(self._http, "GET", f"{self.base}/models",
                                               headers=self._headers(), timeout=timeout,
                                               limit=MAX_LISTING_BYTES)
        except TimeoutError:
            return self._probe_failed(f"model server at {where}: no complete /models answer "
                                      f"within {timeout:g} s")
        except BodyTooLarge as exc:
            return self._probe_failed(f"model server at {where}: /models {exc}")
        except ValueError:
            return self._probe_failed(f"model server at {where}: /models answer not understood")
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            return self._probe_failed(f"model server at {where} unreachable: "
                                      f"{type(exc).__name__}")
        if status != 200:
            return self._probe_failed(
                f"model server at {where} answered HTTP {status} to /models")
        try:
            listed = model_ids(listing)
        except ValueError:
            return self._probe_failed(f"model server at {where}: /models answer not understood")
        reason = self._missing(cfg.model, listed, where)
        tasks = {task: self._missing(model, listed, where) for task, model in cfg.models.items()}
        # The listing is the server's text: it may echo a credential too.
        reason = self._redact(reason) if reason else None
        tasks = {task: self._redact(why) if why else None for task, why in tasks.items()}
        self.last_probe = ProbeResult(reason is None, reason, listed, tasks, reachable=True)
        return self.last_probe

    def available_for(self, task: str) -> str | None:
        """Why `task` cannot be asked, from the last probe (None when it can)."""
        if self.last_probe is None:
            return "model server not probed yet"
        return self.last_probe.available_for(task)

    def not_asked(self, reason: str) -> ProbeResult:
        """Record that the server could not be probed (a run's deadline came first)."""
        return self._probe_failed(reason)

    def _probe_failed(self, reason: str) -> ProbeResult:
        reason = self._redact(reason)
        self.last_probe = ProbeResult(False, reason, [],
                                      {task: reason for task in self.config.models})
        return self.last_probe

    @staticmethod
    def _missing(model: str | None, listed: list[str], where: str) -> str | None:
        if model is None:
            return "no model configured"
        # Ollama lists `qwen3:latest` for a model pulled as `qwen3`.
        if model in listed or (":" not in model and f"{model}:latest" in listed):
            return None
        shown = ", ".join(listed[:8]) + (", ..." if len(listed) > 8 else "")
        return one_line(f"model '{model}' not listed by {where} (has: {shown or 'none'})", 300)

    # --- one structured call -------------------------------------------------------

    async def ask(self, task: str, messages: list[dict[str, Any]], schema: dict[str, Any],
                  *, unit_key: str) -> Answer:
        """Ask once for a JSON answer that fits `schema`, retrying within this call."""
        model = self.config.model_for(task)
        if not self.base or not model:
            raise LLMError("no model configured")
        report(EventType.JOB_PROGRESS, phase="asking")
        headers = self._headers(idempotency_key(task, unit_key))
        attempts = self.config.retries
        attempt = 1
        while True:
            started = time.perf_counter()
            outcome = await self._attempt(task, model, messages, schema, headers)
            if isinstance(outcome, Answer):
                seconds = time.perf_counter() - started
                timings = outcome.timings
                report(EventType.CALL_FINISHED, model=model, input_tokens=outcome.input_tokens,
                       output_tokens=outcome.output_tokens, seconds=round(seconds, 3),
                       cached_tokens=timings.cached_tokens,
                       evaluated_tokens=timings.evaluated_tokens,
                       tokens_per_second=None if timings.tokens_per_second is None
                       else round(timings.tokens_per_second, 2))
                return Answer(outcome.data, model, outcome.input_tokens,
                              outcome.output_tokens, seconds, attempt, timings)
            if not outcome.retryable or attempt >= attempts:
                raise LLMError(self._redact(outcome.detail), attempts=attempt,
                               status=outcome.status)
            delay = outcome.wait if outcome.wait is not None else backoff(attempt, self._random)
            if not self._retries_stopped.is_set():
                report(EventType.CALL_RETRYING, attempt=attempt, attempts=attempts,
                       reason=outcome.short, delay=round(delay, 3))
            if not await self._wait_to_retry(delay):
                raise LLMError(self._redact(f"{outcome.detail}; no retry: the run's deadline "
                                            "passed"), attempts=attempt, status=outcome.status)
            attempt += 1

    async def _attempt(self, task: str, model: str, messages: list[dict[str, Any]],
                       schema: dict[str, Any], headers: dict[str, str]) -> Answer | _Failure:
        """One request (two, when the server turns out to want the flat format)."""
        outcome = await self._exchange(self._body(task, model, messages, schema), headers)
        if outcome == _WANTS_FLAT and not self.flat_response_format:
            self.flat_response_format = True
            outcome = await self._exchange(self._body(task, model, messages, schema), headers)
        if isinstance(outcome, bytes):
            return self._answer(outcome, model, schema)
        if outcome == _WANTS_FLAT:   # rejected in the flat form too: nothing left to try
            return _Failure("500", "HTTP 500: server rejects both response formats",
                            retryable=False, status=500)
        return outcome

    def _body(self, task: str, model: str, messages: list[dict[str, Any]],
              schema: dict[str, Any]) -> dict[str, Any]:
        if self.flat_response_format:
            response_format: dict[str, Any] = {"type": "json_object", "schema": schema}
        else:
            response_format = {"type": "json_schema",
                               "json_schema": {"name": task, "schema": schema, "strict": True}}
        return {"model": model, "messages": messages, "temperature": 0,
                "max_tokens": self.config.max_tokens_for(task),
                "response_format": response_format}

    async def _exchange(self, body: dict[str, Any],
                        headers: dict[str, str]) -> bytes | _Failure | str:
        """POST once under the in-flight bound: a 2xx answer's body, a failure, or
        _WANTS_FLAT."""
        timeout = self.config.timeout
        try:
            if self._chat_url is None:
                self._chat_url = httpx.URL(f"{self.base}/chat/completions")
            # One bound on the whole exchange (from when a slot is free): asyncio.timeout,
            # not httpx's per-read timeout as well, so that there is one clock (the one a
            # test may inject); the body is read against its byte budget.
            async with self._limit, self._timeout(timeout), self._http.stream(
                    "POST", self._chat_url, json=body, headers=headers,
                    timeout=None) as streamed:
                content = await read_body(streamed, MAX_ANSWER_BYTES)
                status = streamed.status_code
                if status < 300:   # the usual case needs the body alone
                    return content
                response = httpx.Response(status, headers=streamed.headers,
                                          content=content, request=streamed.request)
        except (httpx.TimeoutException, TimeoutError):
            return _Failure("timeout", f"no answer within {timeout:g} s")
        except BodyTooLarge as exc:
            return _Failure("too large", str(exc))
        except httpx.UnsupportedProtocol as exc:
            return _Failure("bad url", f"bad model server URL: {type(exc).__name__}",
                            retryable=False)
        except httpx.RemoteProtocolError:
            return _Failure("dropped", "connection dropped without an answer")
        except (httpx.TransportError, httpx.DecodingError) as exc:
            return _Failure(type(exc).__name__, f"model server unreachable: "
                                                f"{type(exc).__name__}")
        except (httpx.HTTPError, httpx.InvalidURL) as exc:   # whatever else the client raises
            return _Failure(type(exc).__name__, f"request failed: {type(exc).__name__}",
                            retryable=False)
        if status >= 400 and FLAT_FORMAT_HINT in response.text:
            return _WANTS_FLAT
        detail = f"HTTP {status}"
        if status in RETRYABLE_STATUS or status >= 500:
            return _Failure(str(status), detail, status=status,
                            wait=retry_after(response.headers, time.time()))
        message = _error_message(response, self._redact)
        return _Failure(str(status), f"{detail}: {message}" if message else detail,
                        retryable=False, status=status)

    def _answer(self, body: bytes, model: str,
                schema: dict[str, Any]) -> Answer | _Failure:
        try:
            payload = loads(body)
            choice = payload["choices"][0]
            content = choice["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            return _Failure("bad response", "response is not a chat completion")
        if choice.get("finish_reason") == "length":
            return _Failure("cut off", "answer cut off at max_tokens")
        if not isinstance(content, str) or not content.strip():
            return _Failure("empty", "answer empty")
        try:
            data = cleaned(parse_content(content))
        except (ValueError, RecursionError):   # RecursionError: JSON nested too deeply
            return _Failure("not JSON", "answer not JSON")
        problem = schema_problem(data, schema)
        if problem is not None:
            return _Failure("off schema", f"answer off schema: {problem}")
        usage = payload.get("usage")
        usage = usage if isinstance(usage, dict) else {}
        prompt_tokens = count(usage.get("prompt_tokens"))
        return Answer(data, model, prompt_tokens, count(usage.get("completion_tokens")), 0.0, 0,
                      server_timings(payload, prompt_tokens))

    # --- secrets -------------------------------------------------------------------

    def _headers(self, key: str | None = None) -> dict[str, str]:
        headers = {"Idempotency-Key": key} if key else {}
        if self.__token:
            headers["Authorization"] = f"Bearer {self.__token}"
        return headers



def _error_message(response: httpx.Response, redact: secrets.Redactor) -> str:
    """The server's own error message, redacted, then short and on one line, or ''.
    Redacting first matters: a credential cut in half would no longer be found."""
    try:
        error = loads(response.content).get("error")
        text = error.get("message") if isinstance(error, dict) else error
    except (ValueError, AttributeError):
        text = response.text
    return redact.cut(str(text or ""), 120)


__all__ = ["Answer", "BodyTooLarge", "LLMClient", "LLMError", "ProbeResult", "backoff",
           "display_url", "fetch_json", "idempotency_key", "loads", "parse_content",
           "read_body", "retry_after", "schema_problem"]
