"""The model-server client against a real OpenAI-shaped server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import socket
from collections.abc import AsyncIterator, Awaitable, Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from jobtracker.config import LEVELS, LLMConfig
from jobtracker.llm.client import (
    Answer,
    LLMClient,
    LLMError,
    backoff,
    idempotency_key,
    parse_content,
    retry_after,
)
from jobtracker.workers.events import Event, EventType, set_current_job
from tests.servers.model import LLAMA_CPP_PYTHON_ERROR, Fault, ModelServer, schema_answer

LEVEL_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["level", "evidence"],
    "properties": {"level": {"type": "string", "enum": [*LEVELS, "unclear"]},
                   "evidence": {"type": "string", "maxLength": 40}},
}
MESSAGES = [{"role": "system", "content": "You read job postings."},
            {"role": "user", "content": "Staff Engineer at Acme. 10+ years."}]
TOKEN = "s3cret-token-value"


@pytest.fixture
def server() -> Iterator[ModelServer]:
    with ModelServer() as running:
        yield running


class Sleeps:
    """An injected sleep that records the delays instead of waiting."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def config(url: str, **overrides: Any) -> LLMConfig:
    return LLMConfig(**{"url": url, "model": "test-model", **overrides})


def client_for(url: str, sleeps: Sleeps | None = None, **overrides: Any) -> LLMClient:
    return LLMClient(config(url, **overrides), sleep=sleeps or Sleeps(), random=lambda: 0.0)


async def ask(client: LLMClient, unit_key: str = "posting:1", task: str = "level") -> Answer:
    return await client.ask(task, MESSAGES, LEVEL_SCHEMA, unit_key=unit_key)


async def _job(events: list[Event], awaitable: Awaitable[Any]) -> Any:
    set_current_job(events.append, "Acme — Staff Engineer", "level")
    return await awaitable


async def as_job(awaitable: Awaitable[Any]) -> tuple[Any, list[Event]]:
    """Run `awaitable` as a job's asyncio task; return its result (or error) and events."""
    events: list[Event] = []
    try:
        result = await asyncio.create_task(_job(events, awaitable))
    except LLMError as exc:
        result = exc
    return result, events


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


# --- probe ----------------------------------------------------------------------------

async def test_probe_finds_the_configured_model(server: ModelServer) -> None:
    async with client_for(server.url) as client:
        probe = await client.probe()
    assert (probe.ok, probe.reason, probe.models) == (True, None, ["test-model"])
    assert server.requests[0].path == "/v1/models"


async def test_probe_of_a_server_that_is_not_there_says_unreachable() -> None:
    url = closed_port_url()
    async with client_for(url) as client:
        probe = await client.probe()
    assert not probe.ok
    assert probe.reason == f"model server at {url} unreachable: ConnectError"
    assert probe.available_for("level") == probe.reason


async def test_probe_reason_leaves_out_a_password_in_the_url() -> None:
    url = closed_port_url().replace("http://", "http://me:hunter2@")
    async with client_for(url) as client:
        probe = await client.probe()
    assert probe.reason is not None and "unreachable" in probe.reason
    assert "hunter2" not in probe.reason and "me:" not in probe.reason


async def test_probe_names_a_missing_model_and_what_the_server_has(server: ModelServer) -> None:
    async with client_for(server.url, model="qwen3:8b") as client:
        probe = await client.probe()
    assert not probe.ok
    assert probe.reason == f"model 'qwen3:8b' not listed by {server.url} (has: test-model)"


async def test_probe_reads_llama_cpp_listing_and_ollama_tags() -> None:
    with ModelServer(models=("qwen3:latest", "smollm2"), models_key=True) as server:
        async with client_for(server.url, model="qwen3") as client:
            probe = await client.probe()
    assert probe.ok, probe.reason
    assert probe.models == ["qwen3:latest", "smollm2"]


async def test_probe_checks_each_task_model(server: ModelServer) -> None:
    async with client_for(server.url, models={"tailor": "big-model"}) as client:
        probe = await client.probe()
        assert client.available_for("level") is None
        assert "model 'big-model' not listed" in (client.available_for("tailor") or "")
    assert probe.ok
    assert probe.available_for("judge") is None


async def test_probe_without_a_model_configured() -> None:
    async with LLMClient(LLMConfig(url=None)) as client:
        assert (await client.probe()).reason == "no model configured"
        with pytest.raises(LLMError, match="no model configured"):
            await ask(client)


# --- the request ------------------------------------------------------------------------

async def test_request_body_has_the_contract_shape(server: ModelServer) -> None:
    async with client_for(server.url, max_tokens={"default": 64, "tailor": 900},
                          models={"tailor": "test-model"}) as client:
        answer = await ask(client)
        await ask(client, task="tailor")
    level, tailor = (r.json for r in server.chat_requests)
    assert server.chat_requests[0].path == "/v1/chat/completions"
    assert level == {
        "model": "test-model", "messages": MESSAGES, "temperature": 0, "max_tokens": 64,
        "response_format": {"type": "json_schema", "json_schema": {
            "name": "level", "schema": LEVEL_SCHEMA, "strict": True}},
    }
    assert tailor["max_tokens"] == 900
    assert tailor["response_format"]["json_schema"]["name"] == "tailor"
    assert answer.data == {"level": "intern", "evidence": "example"}
    assert (answer.model, answer.attempts) == ("test-model", 1)
    assert answer.input_tokens > 0 and answer.output_tokens > 0


async def test_per_task_model_is_sent(server: ModelServer) -> None:
    server.models.append("big-model")
    async with client_for(server.url, models={"tailor": "big-model"}) as client:
        answer = await ask(client, task="tailor")
    assert server.chat_requests[0].json["model"] == answer.model == "big-model"


async def test_idempotency_key_is_stable_per_unit(server: ModelServer) -> None:
    async with client_for(server.url) as client:
        await ask(client, "posting:1")
        await ask(client, "posting:1")
        await ask(client, "posting:2")
        await ask(client, "posting:1", task="judge")
    keys = [r.headers["idempotency-key"] for r in server.chat_requests]
    assert keys[0] == keys[1] == hashlib.sha256(b"level:posting:1").hexdigest()
    assert len(set(keys)) == 3
    assert idempotency_key("level", "posting:2") == keys[2]


async def test_no_authorization_header_unless_the_named_variable_is_set(
        server: ModelServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JT_TEST_KEY", raising=False)
    async with client_for(server.url, api_key_env="JT_TEST_KEY") as client:
        await ask(client)
    monkeypatch.setenv("JT_TEST_KEY", TOKEN)
    async with client_for(server.url, api_key_env="JT_TEST_KEY") as client:
        await client.probe()
        await ask(client)
    first, probe, second = server.requests
    assert "authorization" not in first.headers
    assert probe.headers["authorization"] == second.headers["authorization"] == f"Bearer {TOKEN}"


async def test_the_token_never_appears_in_events_or_errors(
        server: ModelServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JT_TEST_KEY", TOKEN)
    echo = json.dumps({"error": {"message": f"bad key Bearer {TOKEN}"}})
    server.queue(Fault.status(500, body=echo), Fault.status(401, body=echo))
    async with client_for(server.url, api_key_env="JT_TEST_KEY") as client:
        error, events = await as_job(ask(client))
    assert isinstance(error, LLMError) and error.status == 401
    texts = [str(error), repr(error), *(json.dumps(e.to_json()) for e in events)]
    assert all(TOKEN not in text for text in texts), texts
    assert "***" in str(error)


# --- answers ----------------------------------------------------------------------------

@pytest.mark.parametrize("content", [
    '\n\n  {"level" :\t"staff",\n "evidence": "10+ years"}  \n',
    '```json\n{"level": "staff", "evidence": "10+ years"}\n```',
    '<think>the title says staff</think>\n{"level": "staff", "evidence": "10+ years"}',
])
async def test_odd_but_honest_answers_are_accepted(server: ModelServer, content: str) -> None:
    server.queue(Fault.content(content))
    async with client_for(server.url) as client:
        answer = await ask(client)
    assert answer.data == {"level": "staff", "evidence": "10+ years"}


async def test_control_characters_are_stripped_from_answers(server: ModelServer) -> None:
    server.queue(Fault.content(json.dumps({"level": "staff", "evidence": "\x1b[31mred\x9b\u202e"})))
    async with client_for(server.url) as client:
        answer = await ask(client)
    assert answer.data["evidence"] == "red"


async def test_extra_fields_in_answers_are_ignored() -> None:
    with ModelServer(extra_fields=True) as server:
        async with client_for(server.url) as client:
            answer = await ask(client)
    assert answer.data["level"] == "intern"


# --- retries ----------------------------------------------------------------------------

async def test_429_waits_as_long_as_retry_after_says(server: ModelServer) -> None:
    sleeps = Sleeps()
    server.queue(Fault.status(429, retry_after=7), Fault.status(429, retry_after_ms=1500),
                 Fault.status(503, retry_after=3600))
    async with client_for(server.url, sleeps, retries=4) as client:
        answer = await ask(client)
    assert sleeps.delays == [7.0, 1.5, 60.0]
    assert answer.attempts == 4
    assert server.chat_count == 4


def test_retry_after_reads_seconds_milliseconds_and_dates() -> None:
    now = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
    later = format_datetime(now + timedelta(seconds=30), usegmt=True)
    assert retry_after({"retry-after": later}, now.timestamp()) == pytest.approx(30)
    assert retry_after({"retry-after-ms": "250", "retry-after": "9"}, 0) == 0.25
    assert retry_after({"retry-after": "2.5"}, 0) == 2.5
    assert retry_after({"retry-after": "soon"}, 0) is None
    assert retry_after({"retry-after": "-4"}, 0) is None
    assert retry_after({}, 0) is None


def test_backoff_doubles_to_a_cap_with_jitter_below_it() -> None:
    assert [backoff(n, lambda: 0.0) for n in range(1, 7)] == [0.5, 1, 2, 4, 8, 8]
    assert backoff(2, lambda: 0.999) == pytest.approx(0.75, abs=0.001)


async def test_server_errors_are_retried_with_backoff_then_fail(server: ModelServer) -> None:
    sleeps = Sleeps()
    server.queue(*[Fault.status(500)] * 3)
    async with client_for(server.url, sleeps) as client:
        error, events = await as_job(ask(client))
    assert str(error) == "HTTP 500 after 3 attempts"
    assert (error.status, error.attempts) == (500, 3)
    assert sleeps.delays == [0.5, 1.0]
    assert [e.data["reason"] for e in events if e.type == EventType.CALL_RETRYING] == ["500"] * 2
    assert server.chat_count == 3


@pytest.mark.parametrize(("fault", "reason"), [
    (Fault.drop(), "dropped"),
    (Fault.raw("<html>bad gateway</html>"), "bad response"),
    (Fault.content('{"level": "ninja", "evidence": ""}'), "off schema"),
    (Fault.content("I think it is staff."), "not JSON"),
    (Fault.length(), "cut off"),
    (Fault.status(408), "408"),
    (Fault.status(409), "409"),
])
async def test_each_transient_failure_is_retried(server: ModelServer, fault: Fault,
                                                 reason: str) -> None:
    server.queue(fault)
    async with client_for(server.url) as client:
        answer, events = await as_job(ask(client))
    assert isinstance(answer, Answer), answer
    assert answer.attempts == 2
    retrying = [e.data for e in events if e.type == EventType.CALL_RETRYING]
    assert retrying == [{"attempt": 1, "attempts": 3, "reason": reason, "delay": 0.5}]


class TimeoutOnHang:
    """The client's bound on one exchange, fired when the server starts hanging the
    request made inside it, never by a clock.

    With a real 0.3 s clock this test raced its own work: the answered attempt had to
    come back from this process's own server thread within 0.3 s, and on a loaded
    machine (two cores, many suites) a thread can wait longer than that to run; a
    hung attempt that timed out before the server had read it also left its fault
    queued for the next request. Here a timeout fires only once its request is
    hanging, and an answered request has no deadline to beat, so the outcome no longer
    depends on scheduling. The real clock is shown by the next test, where nothing
    has to beat it."""

    def __init__(self, server: ModelServer) -> None:
        self.server = server

    @contextlib.asynccontextmanager
    async def __call__(self, seconds: float) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(None) as bound:
            open_ = [True]

            def expire() -> None:
                if open_[0]:
                    bound.reschedule(loop.time())

            def hung() -> None:       # in the server's thread
                loop.call_soon_threadsafe(expire)

            self.server.on_hang.append(hung)
            try:
                yield
            finally:
                open_[0] = False
                self.server.on_hang.remove(hung)


async def test_a_call_that_hangs_times_out_and_is_retried(server: ModelServer) -> None:
    server.queue(Fault.hang(), Fault.hang())
    async with LLMClient(config(server.url, timeout=0.3, retries=2), sleep=Sleeps(),
                         random=lambda: 0.0, timeout=TimeoutOnHang(server)) as client:
        error, events = await as_job(ask(client))
        server.queue(Fault.hang())
        answer = await ask(client)
    assert str(error) == "no answer within 0.3 s after 2 attempts"
    assert [e.data["reason"] for e in events if e.type == EventType.CALL_RETRYING] == [
        "timeout"]
    assert answer.attempts == 2
    assert len(server.chat_requests) == 4


async def test_a_hung_call_ends_on_the_real_clock(server: ModelServer) -> None:
    """The production bound (asyncio.timeout) on a real clock: every request hangs, so
    nothing has to come back before it fires."""
    server.rule(lambda body: True, Fault.hang())
    async with client_for(server.url, timeout=0.3, retries=2) as client:
        assert client._timeout is asyncio.timeout
        with pytest.raises(LLMError, match=r"^no answer within 0\.3 s after 2 attempts$"):
            await ask(client)


@pytest.mark.parametrize(("fault", "message"), [
    (Fault.content('{"level": "ninja", "evidence": ""}'),
     "answer off schema: level: 'ninja' is not one of ['intern', 'junior'"),
    (Fault.length(), "answer cut off at max_tokens after 2 attempts"),
    (Fault.raw("not json"), "response is not a chat completion after 2 attempts"),
])
async def test_final_failure_says_why_in_one_line(server: ModelServer, fault: Fault,
                                                  message: str) -> None:
    server.queue(fault, fault)
    async with client_for(server.url, retries=2) as client:
        with pytest.raises(LLMError) as caught:
            await ask(client)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
async def test_other_client_errors_fail_at_once(server: ModelServer, status: int) -> None:
    sleeps = Sleeps()
    server.queue(Fault.status(status))
    async with client_for(server.url, sleeps) as client:
        with pytest.raises(LLMError) as caught:
            await ask(client)
    assert caught.value.status == status and caught.value.attempts == 1
    assert str(caught.value).startswith(f"HTTP {status}")
    assert server.chat_count == 1 and sleeps.delays == []


async def test_an_unknown_model_is_a_404_not_retried(server: ModelServer) -> None:
    async with client_for(server.url, model="gone") as client:
        with pytest.raises(LLMError, match="HTTP 404: model 'gone' not found"):
            await ask(client)
    assert server.chat_count == 1


# --- the llama-cpp-python fallback ------------------------------------------------------

async def test_flat_json_object_fallback_is_found_once_and_remembered() -> None:
    with ModelServer(flat_only=True) as server:
        async with client_for(server.url) as client:
            first, events = await as_job(ask(client))
            second = await ask(client, "posting:2")
        formats = [r.json["response_format"] for r in server.chat_requests]
    assert first.attempts == second.attempts == 1
    assert client.flat_response_format
    assert formats[0]["type"] == "json_schema"
    assert formats[1:] == [{"type": "json_object", "schema": LEVEL_SCHEMA}] * 2
    assert not [e for e in events if e.type == EventType.CALL_RETRYING]


async def test_fallback_also_on_a_400_with_that_message(server: ModelServer) -> None:
    server.queue(Fault.status(400, body=json.dumps({"detail": LLAMA_CPP_PYTHON_ERROR})))
    async with client_for(server.url) as client:
        answer = await ask(client)
    assert answer.attempts == 1
    assert server.chat_requests[1].json["response_format"]["type"] == "json_object"


# --- events and bounds ------------------------------------------------------------------

async def test_events_carry_retries_and_usage(server: ModelServer) -> None:
    server.queue(Fault.status(429, retry_after=2))
    async with client_for(server.url) as client:
        answer, events = await as_job(ask(client))
    assert [e.type for e in events] == [EventType.JOB_PROGRESS, EventType.CALL_RETRYING,
                                        EventType.CALL_FINISHED]
    assert events[0].data == {"phase": "asking"}
    assert events[1].data == {"attempt": 1, "attempts": 3, "reason": "429", "delay": 2.0}
    finished = events[2].data
    assert finished["model"] == "test-model"
    assert (finished["input_tokens"], finished["output_tokens"]) == (
        answer.input_tokens, answer.output_tokens)
    usage = server.chat_requests[-1].json   # the server counts len(text) // 4
    assert finished["input_tokens"] == sum(len(m["content"]) for m in usage["messages"]) // 4
    assert finished["seconds"] >= 0
    assert {e.job for e in events} == {"Acme — Staff Engineer"}


class UsageServer(ModelServer):
    """Answers well, but reports `usage` as given."""

    def __init__(self, usage: Any) -> None:
        super().__init__()
        self.usage = usage

    def completion(self, body: dict[str, Any], content: Any,
                   finish_reason: str = "stop") -> dict[str, Any]:
        return {**super().completion(body, content, finish_reason), "usage": self.usage}


BAD_COUNTS = [-1, -10**6, "12", "", 3.5, 1e9, True, None, [], {"n": 1}, 10**12, float("nan")]


@pytest.mark.parametrize("usage", [
    *({"prompt_tokens": bad, "completion_tokens": bad} for bad in BAD_COUNTS),
    "lots", [1, 2], 42, None,
])
async def test_implausible_usage_counts_are_recorded_as_zero(usage: Any) -> None:
    with UsageServer(usage) as server:
        async with client_for(server.url) as client:
            answer, events = await as_job(ask(client))
    assert isinstance(answer, Answer) and (answer.input_tokens, answer.output_tokens) == (0, 0)
    finished = [e.data for e in events if e.type is EventType.CALL_FINISHED]
    assert [(d["input_tokens"], d["output_tokens"]) for d in finished] == [(0, 0)]


async def test_plausible_usage_counts_pass_through() -> None:
    with UsageServer({"prompt_tokens": 0, "completion_tokens": 7}) as server:
        async with client_for(server.url) as client:
            answer = await ask(client)
    assert (answer.input_tokens, answer.output_tokens) == (0, 7)


async def test_max_in_flight_bounds_concurrent_calls() -> None:
    with ModelServer(latency=0.05) as server:
        async with LLMClient(config(server.url), max_in_flight=3) as client:
            await asyncio.gather(*(ask(client, f"posting:{n}") for n in range(10)))
        bounded = server.peak_in_flight
        server.reset()
        async with LLMClient(config(server.url)) as client:
            await asyncio.gather(*(ask(client, f"posting:{n}") for n in range(10)))
        unbounded = server.peak_in_flight
    assert bounded == 3
    assert unbounded > 3


# --- pieces -----------------------------------------------------------------------------

def test_parse_content_rejects_prose() -> None:
    with pytest.raises(ValueError):
        parse_content("The level is staff.")


def test_the_test_servers_default_answer_fits_the_schema() -> None:
    schema = {"type": "object", "additionalProperties": False,
              "required": ["verdict", "reasons", "score", "note"],
              "properties": {
                  "verdict": {"type": "string", "enum": ["strong", "good", "weak", "no"]},
                  "reasons": {"type": "array", "minItems": 2, "maxItems": 3,
                              "items": {"type": "string", "minLength": 12, "maxLength": 20}},
                  "score": {"type": "integer", "minimum": 1, "maximum": 5},
                  "note": {"type": ["string", "null"], "maxLength": 3}}}
    body = {"response_format": {"type": "json_schema", "json_schema": {"schema": schema}}}
    answer = schema_answer(body)
    Draft202012Validator(schema).validate(answer)
    assert answer["verdict"] == "strong" and len(answer["reasons"]) == 2


async def test_the_test_servers_rules_pick_calls_by_body(server: ModelServer) -> None:
    server.rule(lambda body: "Acme" in json.dumps(body["messages"]), Fault.status(500), times=1)
    other = [{"role": "user", "content": "Bolt is hiring."}]
    async with client_for(server.url) as client:
        bolt = await client.ask("level", other, LEVEL_SCHEMA, unit_key="posting:2")
        acme = await ask(client)
        again = await ask(client)
    assert (bolt.attempts, acme.attempts, again.attempts) == (1, 2, 1)
