"""What can happen during a run, how each shows on a terminal, and how code reports it.

The loop emits job events; code deep inside a job (the model client retrying a
call, say) emits its own with `report()`. It has no handle on the loop, so the
loop writes down, per asyncio task, which job that task is running and where its
events go (`set_current_job`); `report()` reads that back. A ContextVar holds a
separate value in each asyncio task, so ten jobs running at once each see their
own, and the value disappears with the task: there is nothing to reset.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Protocol


class EventType(StrEnum):
    # Emitted by the loop, once per job.
    JOB_STARTED = "job_started"
    JOB_FINISHED = "job_finished"
    JOB_FAILED = "job_failed"
    JOB_SKIPPED = "job_skipped"
    # Emitted from inside a job through report().
    JOB_PROGRESS = "job_progress"      # data: phase (waiting, asking, applying, ...)
    CALL_RETRYING = "call_retrying"    # data: attempt, attempts, reason, delay
    CALL_FINISHED = "call_finished"    # data: model, input_tokens, output_tokens, seconds
    # Emitted once per run of the loop, about the whole run (job and kind are empty).
    STAGE_FINISHED = "stage_finished"  # data: finished, failed, skipped, elapsed


# The word each event shows as on a terminal; verbose-only events are marked.
WORDS: dict[EventType, str] = {
    EventType.JOB_STARTED: "start",
    EventType.JOB_FINISHED: "done",
    EventType.JOB_FAILED: "fail",
    EventType.JOB_SKIPPED: "skip",
    EventType.JOB_PROGRESS: "step",
    EventType.CALL_RETRYING: "retry",
    EventType.CALL_FINISHED: "call",
    EventType.STAGE_FINISHED: "end",
}
VERBOSE_ONLY = frozenset({EventType.JOB_PROGRESS, EventType.CALL_FINISHED})


def _now() -> datetime:
    """The one place event times come from (a named function so tests can replace it)."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class Event:
    """One thing that happened. `job` and `kind` are empty for a stage event."""

    type: EventType
    job: str = ""
    kind: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    time: datetime = field(default_factory=_now)

    def to_json(self) -> dict[str, Any]:
        # Built field by field: dataclasses.asdict deep-copies everything, the
        # datetime included, and was most of the cost of writing events.jsonl.
        return {"type": str(self.type), "job": self.job, "kind": self.kind,
                "data": dict(self.data),
                "time": self.time.isoformat().replace("+00:00", "Z")}


class Reporter(Protocol):
    """A destination for events: the terminal, events.jsonl, the TUI, telemetry."""

    def emit(self, event: Event) -> None: ...


@dataclass(frozen=True)
class _CurrentJob:
    """The job an asyncio task is running, and where its events go."""

    emit: Callable[[Event], None]
    label: str
    kind: str


# One value per asyncio task: the job that task runs, or None outside a job.
_current_job: ContextVar[_CurrentJob | None] = ContextVar("current_job", default=None)


def set_current_job(emit: Callable[[Event], None], label: str, kind: str) -> None:
    """Called by the loop at the start of each job's own asyncio task."""
    _current_job.set(_CurrentJob(emit, label, kind))


def report(type: EventType, **data: Any) -> None:
    """Report an event as the current job's. Outside a job it goes nowhere."""
    current = _current_job.get()
    if current is not None:
        current.emit(Event(type, current.label, current.kind, data))
