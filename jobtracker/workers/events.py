"""What can happen during a run, how each shows on a terminal, and how code reports it.

Each kind of event is its own frozen dataclass: the fields it carries, the word
it shows as, and the short detail that follows the label on a line (`detail()`,
the one formatter every reporter uses). Every event names the unit it is about
by its `key` (the job's identity within its kind) as well as its `job` label
(for people), so a consumer tracks units by key and never parses text another
module wrote.

The loop emits job events; code deep inside a job (the model client retrying a
call, say) emits its own with `report()`. It has no handle on the loop, so the
loop writes down, per asyncio task, which job that task is running and where its
events go (`set_current_job`); `report()` reads that back. A ContextVar holds a
separate value in each asyncio task, so ten jobs running at once each see their
own, and the value disappears with the task: there is nothing to reset.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any, ClassVar, Protocol

# The phases (JOB_PROGRESS) of a unit that has its model's answer and holds no model
# slot: waiting for its turn to write, and writing (jobtracker/run/feeder.py). The
# dashboard counts a unit in either as writing, not in flight to the model.
ANSWERED, APPLYING = "answered", "applying"
WRITING_PHASES = frozenset({ANSWERED, APPLYING})


class EventType(StrEnum):
    # Emitted by the loop, once per job.
    JOB_STARTED = "job_started"
    JOB_FINISHED = "job_finished"
    JOB_FAILED = "job_failed"
    JOB_SKIPPED = "job_skipped"
    # Emitted from inside a job through report().
    JOB_PROGRESS = "job_progress"
    CALL_RETRYING = "call_retrying"
    CALL_FINISHED = "call_finished"
    # Emitted once per run of the loop, about the whole run (job, kind and key are empty).
    STAGE_FINISHED = "stage_finished"


def _now() -> datetime:
    """The one place event times come from (a named function so tests can replace it)."""
    return datetime.now(UTC)


def hms(seconds: float | None) -> str:
    """A duration as H:MM:SS, whole seconds."""
    return str(timedelta(seconds=round(seconds or 0)))


class _Untyped(type):
    """Lets `Event(type, job, kind, data, time)` — the untyped form older callers and
    tests use — build the typed event for `type`; subclasses construct as usual."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is Event:
            return make_event(*args, **kwargs)
        return super().__call__(*args, **kwargs)


@dataclass(frozen=True, kw_only=True)
class Event(metaclass=_Untyped):
    """One thing that happened, about the unit `key` of `kind` (labelled `job` for people).

    Payload fields are None when not known; `data` (and events.jsonl) leave those out.
    `extra` keeps keys a caller reported beyond the type's fields, so an unforeseen
    `report(..., note=...)` is kept rather than refused.
    """

    type: ClassVar[EventType]
    word: ClassVar[str]               # how the event shows on a terminal line
    verbose_only: ClassVar[bool] = False

    job: str = ""
    kind: str = ""
    key: str = ""
    time: datetime = field(default_factory=_now)
    extra: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def payload_fields(cls) -> tuple[str, ...]:
        """The names of this type's own fields (its payload), in order."""
        return _PAYLOAD[cls]

    @property
    def data(self) -> dict[str, Any]:
        """The payload as plain data: the type's known fields, then any extra keys."""
        data = {name: value for name in self.payload_fields()
                if (value := getattr(self, name)) is not None}
        if self.extra:
            data.update(self.extra)
        return data

    def parts(self) -> list[object]:
        """What this event adds beyond its word, kind and label (none by default)."""
        return []

    def detail(self, clean: Callable[[str], str] = str) -> str:
        """The end of a line: the parts that are known, each passed through `clean` (a
        sink's own rule for untrusted text), two spaces apart."""
        return "  ".join(clean(str(p)) for p in self.parts() if p not in (None, ""))

    def to_json(self) -> dict[str, Any]:
        # Built field by field: dataclasses.asdict deep-copies everything, the
        # datetime included, and was most of the cost of writing events.jsonl.
        data = self.data
        if self.key:
            data["key"] = self.key
        return {"type": str(self.type), "job": self.job, "kind": self.kind, "data": data,
                "time": self.time.isoformat().replace("+00:00", "Z")}


_BASE_FIELDS = frozenset({"job", "kind", "key", "time", "extra"})


@dataclass(frozen=True, kw_only=True)
class JobStarted(Event):
    type = EventType.JOB_STARTED
    word = "start"


@dataclass(frozen=True, kw_only=True)
class JobFinished(Event):
    type = EventType.JOB_FINISHED
    word = "done"
    result: str | None = None          # the handler's short result label
    elapsed: float | None = None       # seconds from admission to the end

    def parts(self) -> list[object]:
        return [self.result, hms(self.elapsed)]


@dataclass(frozen=True, kw_only=True)
class JobFailed(Event):
    type = EventType.JOB_FAILED
    word = "fail"
    error: str | None = None           # one line
    elapsed: float | None = None
    phase: str | None = None           # the step that raised: "done", "run" or "follow_ups"

    def parts(self) -> list[object]:
        return [self.error]


@dataclass(frozen=True, kw_only=True)
class JobSkipped(Event):
    type = EventType.JOB_SKIPPED
    word = "skip"
    elapsed: float | None = None


@dataclass(frozen=True, kw_only=True)
class JobProgress(Event):
    type = EventType.JOB_PROGRESS
    word = "step"
    verbose_only = True
    phase: str | None = None           # what the unit does now: asking, applying, ...

    def parts(self) -> list[object]:
        return [self.phase]


@dataclass(frozen=True, kw_only=True)
class CallRetrying(Event):
    type = EventType.CALL_RETRYING
    word = "retry"
    attempt: int | None = None         # the attempt that failed
    attempts: int | None = None
    reason: str | None = None          # a short word: "429", "timeout", ...
    delay: float | None = None         # seconds until the next attempt

    def parts(self) -> list[object]:
        def known(value: object) -> object:
            return "?" if value is None else value
        return [self.reason, f"attempt {known(self.attempt)}/{known(self.attempts)}",
                f"in {float(self.delay or 0):.1f}s"]


@dataclass(frozen=True, kw_only=True)
class CallFinished(Event):
    type = EventType.CALL_FINISHED
    word = "call"
    verbose_only = True
    model: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    seconds: float | None = None
    # What the server said of its own work, when it says (llama.cpp, vLLM):
    cached_tokens: int | None = None        # prompt tokens served from its prefix cache
    evaluated_tokens: int | None = None     # prompt tokens it computed
    tokens_per_second: float | None = None  # its generation speed

    def parts(self) -> list[object]:
        def count(value: int | None) -> object:
            return "?" if value is None else value
        cached = "" if self.cached_tokens is None else f" ({self.cached_tokens} cached)"
        return [self.model,
                f"{count(self.input_tokens)} in{cached} / {count(self.output_tokens)} out",
                hms(self.seconds)]


@dataclass(frozen=True, kw_only=True)
class StageFinished(Event):
    type = EventType.STAGE_FINISHED
    word = "end"
    stage: str | None = None
    finished: int = 0
    failed: int = 0
    skipped: int = 0
    running: int | None = None
    waiting: int | None = None          # jobs a stop left unstarted
    elapsed: float | None = None

    def parts(self) -> list[object]:
        counts = (f"{self.finished} finished, {self.failed} failed, {self.skipped} skipped "
                  f"in {hms(self.elapsed)}")
        return [counts, f"{self.waiting} not started" if self.waiting else None]


EVENTS: dict[EventType, type[Event]] = {cls.type: cls for cls in (
    JobStarted, JobFinished, JobFailed, JobSkipped, JobProgress, CallRetrying, CallFinished,
    StageFinished)}
# Worked out once: dataclasses.fields() is too slow to call per event.
_PAYLOAD: dict[type[Event], tuple[str, ...]] = {
    cls: tuple(f.name for f in dataclasses.fields(cls) if f.name not in _BASE_FIELDS)
    for cls in EVENTS.values()}


def make_event(type: EventType, job: str = "", kind: str = "",
               data: Mapping[str, Any] | None = None, time: datetime | None = None, *,
               key: str = "") -> Event:
    """The typed event for `type` from loose data: keys the type knows become its fields,
    the rest go to `extra`."""
    cls = EVENTS[type]
    known = cls.payload_fields()
    fields: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for name, value in (data or {}).items():
        (fields if name in known else extra)[name] = value
    return cls(job=job, kind=kind, key=key, time=time or _now(), extra=extra, **fields)


class Reporter(Protocol):
    """A destination for events: the terminal, events.jsonl, the TUI, telemetry."""

    def emit(self, event: Event) -> None: ...


@dataclass(frozen=True)
class _CurrentJob:
    """The job an asyncio task is running, and where its events go."""

    emit: Callable[[Event], None]
    label: str
    kind: str
    key: str = ""


# One value per asyncio task: the job that task runs, or None outside a job.
_current_job: ContextVar[_CurrentJob | None] = ContextVar("current_job", default=None)


def set_current_job(emit: Callable[[Event], None], label: str, kind: str,
                    key: str = "") -> None:
    """Called by the loop at the start of each job's own asyncio task."""
    _current_job.set(_CurrentJob(emit, label, kind, key))


def report(type: EventType, **data: Any) -> None:
    """Report an event as the current job's. Outside a job it goes nowhere."""
    current = _current_job.get()
    if current is not None:
        current.emit(make_event(type, current.label, current.kind, data, key=current.key))
