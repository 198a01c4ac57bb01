"""OpenTelemetry: spans `task.run` → `task.unit`, unit counters, a call-latency histogram.

Providers are passed in rather than set globally (the global ones can be set once
per process), so tests use in-memory ones. `Telemetry.from_env()` exports only when
the standard OTEL variables ask for it; otherwise everything is a no-op.

Attributes are bounded: task name × outcome × label (labels are bounded by each
task's `apply`), never a company, a title or any free string.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from jobtracker.workers.events import CallFinished, Event, JobFailed, JobFinished, JobSkipped

if TYPE_CHECKING:   # OpenTelemetry's API loads when a Telemetry is made (a run with work)
    from opentelemetry.metrics import MeterProvider
    from opentelemetry.trace import TracerProvider

_OUTCOMES: dict[type[Event], str] = {
    JobFinished: "finished",
    JobFailed: "failed",
    JobSkipped: "skipped",
}


class Telemetry:
    def __init__(self, tracer_provider: TracerProvider | None = None,
                 meter_provider: MeterProvider | None = None) -> None:
        from opentelemetry.metrics import NoOpMeterProvider
        from opentelemetry.trace import NoOpTracerProvider

        self.tracer = (tracer_provider or NoOpTracerProvider()).get_tracer("jobtracker")
        # Whether spans go anywhere: without a provider a unit makes none (a no-op span,
        # entered and left as the current one, costs a unit some 5 us for nothing).
        self.tracing = tracer_provider is not None
        meter = (meter_provider or NoOpMeterProvider()).get_meter("jobtracker")
        self.units = meter.create_counter(
            "jobtracker.units", unit="{unit}", description="units worked, by task and outcome")
        self.call_seconds = meter.create_histogram(
            "jobtracker.call.duration", unit="s", description="model call latency, by task")
        self.tokens = meter.create_counter(
            "jobtracker.tokens", unit="{token}", description="tokens, by task and direction")
        # Only where the server says (llama.cpp timings, vLLM prompt_tokens_details).
        self.cached_tokens = meter.create_counter(
            "jobtracker.tokens.cached", unit="{token}",
            description="prompt tokens the server served from its prefix cache, by task")
        self.generation_speed = meter.create_histogram(
            "jobtracker.generation.speed", unit="{token}/s",
            description="the server's own generation speed per call, by task")

    @classmethod
    def from_env(cls) -> Telemetry:
        """Export over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT (or a traces/metrics
        endpoint) is set and the `otlp` extra is installed; otherwise no-op."""
        endpoints = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                     "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT")
        if os.environ.get("OTEL_SDK_DISABLED", "").lower() == "true" or not any(
                os.environ.get(name) for name in endpoints):
            return cls()
        try:
            from opentelemetry.exporter.otlp.proto.http.metric_exporter import (
                OTLPMetricExporter,
            )
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        except ImportError:
            return cls()
        from opentelemetry.sdk.metrics import MeterProvider as SdkMeterProvider
        from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider as SdkTracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor

        # The exporters read the standard OTEL_EXPORTER_OTLP_* variables themselves.
        resource = Resource.create({"service.name": os.environ.get("OTEL_SERVICE_NAME",
                                                                   "jobtracker")})
        tracer_provider = SdkTracerProvider(resource=resource)
        tracer_provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
        meter_provider = SdkMeterProvider(
            resource=resource, metric_readers=[PeriodicExportingMetricReader(OTLPMetricExporter())])
        return cls(tracer_provider, meter_provider)

    def reporter(self) -> TelemetryReporter:
        return TelemetryReporter(self)


class TelemetryReporter:
    """Turns loop events into metric points. Quick and non-blocking, like every reporter."""

    def __init__(self, telemetry: Telemetry) -> None:
        self.telemetry = telemetry

    def emit(self, event: Event) -> None:
        outcome = _OUTCOMES.get(type(event))
        if outcome is not None:
            self.telemetry.units.add(1, {"task.name": event.kind, "task.outcome": outcome})
        elif isinstance(event, CallFinished):
            attrs: dict[str, Any] = {"task.name": event.kind}
            if isinstance(event.seconds, int | float):
                self.telemetry.call_seconds.record(float(event.seconds), attrs)
            for direction, count in (("input", event.input_tokens),
                                     ("output", event.output_tokens)):
                if isinstance(count, int):
                    self.telemetry.tokens.add(count, {**attrs, "direction": direction})
            if isinstance(event.cached_tokens, int):
                self.telemetry.cached_tokens.add(event.cached_tokens, attrs)
            if isinstance(event.tokens_per_second, int | float):
                self.telemetry.generation_speed.record(float(event.tokens_per_second), attrs)
