"""Server timings: what llama.cpp (`timings`) and vLLM (`prompt_tokens_details`) say
about their own work, read without trusting it, carried on `call_finished`, summed
for the run's closing line and recorded as OpenTelemetry metrics."""

from __future__ import annotations

import asyncio
import math
from typing import Any

from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from jobtracker.config import LLMConfig
from jobtracker.llm.answer import MAX_TOKEN_COUNT, Timings, server_timings
from jobtracker.llm.client import LLMClient
from jobtracker.telemetry import Telemetry
from jobtracker.workers.calltotals import CallTotals
from jobtracker.workers.events import CallFinished, Event, JobFinished, set_current_job
from tests.servers.model import ModelServer

SCHEMA = {"type": "object", "properties": {"level": {"type": "string", "enum": ["senior"]}},
          "required": ["level"], "additionalProperties": False}
SYSTEM = {"role": "system", "content": "You read one posting. " * 40}


def test_llama_cpp_timings_are_read() -> None:
    payload = {"usage": {"prompt_tokens": 485, "prompt_tokens_details": {"cached_tokens": 1}},
               "timings": {"prompt_n": 203, "cache_n": 282, "predicted_n": 20,
                           "predicted_per_second": 41.5}}
    assert server_timings(payload, 485) == Timings(282, 203, 20, 41.5)


def test_vllm_cached_tokens_are_read() -> None:
    payload = {"usage": {"prompt_tokens": 900, "prompt_tokens_details": {"cached_tokens": 896}}}
    assert server_timings(payload, 900) == Timings(cached_tokens=896)


def test_a_server_that_says_nothing_gives_nothing() -> None:
    assert server_timings({"usage": {"prompt_tokens": 5}}, 5) == Timings()
    assert server_timings({"usage": "x", "timings": [1]}, 0) == Timings()


def test_figures_that_are_not_plausible_are_not_believed() -> None:
    for lie in (-1, "282", True, 1.5, MAX_TOKEN_COUNT + 1, None):
        payload = {"timings": {"cache_n": lie, "prompt_n": lie, "predicted_n": lie}}
        assert server_timings(payload, 100) == Timings(), lie
    for rate in (0, -3.0, math.inf, math.nan, "fast", True, 1e9):
        assert server_timings({"timings": {"predicted_per_second": rate}}, 10) == Timings()
    # More cached than the whole prompt: not believed; the vLLM figure is not used either.
    payload = {"usage": {"prompt_tokens_details": {"cached_tokens": 50}},
               "timings": {"cache_n": 500}}
    assert server_timings(payload, 100).cached_tokens == 50
    assert server_timings({"timings": {"cache_n": 500}}, 100).cached_tokens is None


async def _ask_twice(server: ModelServer) -> list[Event]:
    events: list[Event] = []

    async def job(user: str) -> None:
        set_current_job(events.append, "Acme — Engineer", "level", key="p1")
        await client.ask("level", [SYSTEM, {"role": "user", "content": user}], SCHEMA,
                         unit_key=user)

    async with LLMClient(LLMConfig(url=server.url, model="test-model")) as client:
        await asyncio.create_task(job("<posting>first</posting>"))
        await asyncio.create_task(job("<posting>second one</posting>"))
    return events


async def test_call_finished_carries_what_the_server_said() -> None:
    with ModelServer(extra_fields=True) as server:
        events = await _ask_twice(server)
    first, second = (e for e in events if isinstance(e, CallFinished))
    assert first.cached_tokens == 0
    # The second prompt shares the system prompt with the first: the simulated slot
    # serves it from its cache.
    shared = len(SYSTEM["content"]) // 4
    assert second.cached_tokens is not None and second.cached_tokens >= shared
    assert second.evaluated_tokens == second.input_tokens - second.cached_tokens
    assert second.tokens_per_second == 40.0
    data = second.data
    assert {"model", "input_tokens", "output_tokens", "seconds", "cached_tokens",
            "evaluated_tokens", "tokens_per_second"} <= set(data)
    assert "cached)" in second.detail()


async def test_call_finished_without_timings_leaves_them_out() -> None:
    with ModelServer() as server:
        events = await _ask_twice(server)
    call = next(e for e in events if isinstance(e, CallFinished))
    assert call.cached_tokens is None
    assert set(call.data) == {"model", "input_tokens", "output_tokens", "seconds"}


async def test_a_lying_server_is_recorded_as_saying_nothing() -> None:
    with ModelServer(extra_fields=True) as server:
        server.timings = {"cache_n": -5, "prompt_n": "many", "predicted_per_second": -1}
        events = await _ask_twice(server)
    for call in (e for e in events if isinstance(e, CallFinished)):
        # cache_n is a lie: the figure from prompt_tokens_details stands in for it.
        assert call.cached_tokens == call.data["cached_tokens"]
        assert call.evaluated_tokens is None and call.tokens_per_second is None


def call(**data: Any) -> CallFinished:
    return CallFinished(kind="judge", **data)


def test_totals_say_prompt_cache_share_generated_and_speed() -> None:
    totals = CallTotals()
    assert totals.describe() == ""
    totals.emit(JobFinished(kind="judge"))
    totals.emit(call(input_tokens=1000, output_tokens=100, seconds=3.0, cached_tokens=0,
                     tokens_per_second=50.0))
    totals.emit(call(input_tokens=1000, output_tokens=60, seconds=2.0, cached_tokens=900,
                     tokens_per_second=30.0))
    assert totals.calls == 2
    # 160 generated over 2 s + 2 s of the server's own generation time
    assert totals.describe() == "tokens: 2,000 prompt (45% cached), 160 generated, 40.0 tok/s"


def test_totals_without_server_timings_use_round_trips() -> None:
    totals = CallTotals()
    totals.emit(call(input_tokens=300, output_tokens=30, seconds=1.5))
    totals.emit(call(input_tokens=300, output_tokens=30, seconds=1.5))
    assert totals.describe() == "tokens: 600 prompt, 60 generated, 20.0 tok/s"


def test_metrics_record_cached_tokens_and_speed() -> None:
    reader = InMemoryMetricReader()
    telemetry = Telemetry(meter_provider=MeterProvider(metric_readers=[reader]))
    reporter = telemetry.reporter()
    reporter.emit(call(input_tokens=100, output_tokens=10, seconds=0.5, cached_tokens=80,
                       tokens_per_second=25.0))
    reporter.emit(call(input_tokens=100, output_tokens=10, seconds=0.5))
    points: dict[str, list[Any]] = {}
    for resource in reader.get_metrics_data().resource_metrics:
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                points[metric.name] = list(metric.data.data_points)
    (cached,) = points["jobtracker.tokens.cached"]
    assert cached.value == 80 and dict(cached.attributes) == {"task.name": "judge"}
    (speed,) = points["jobtracker.generation.speed"]
    assert (speed.count, speed.sum) == (1, 25.0)
