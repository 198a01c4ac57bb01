"""Metrics: cached tokens and generation speed recorded with bounded attributes."""

from __future__ import annotations

from typing import Any

from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from jobtracker.telemetry import Telemetry
from jobtracker.workers.events import CallFinished


def call(**data: Any) -> CallFinished:
    return CallFinished(kind="judge", **data)


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


def test_units_make_spans_only_when_a_tracer_provider_is_given() -> None:
    from opentelemetry.sdk.trace import TracerProvider

    # Off (no provider, as from_env() without the OTEL variables): a run's units make no
    # span; with one, each unit's `task.unit` (tests/integration/test_run_run.py).
    assert Telemetry().tracing is False
    assert Telemetry(TracerProvider()).tracing is True
