"""What the dashboard knows about the run in progress, kept by a reporter.

`LiveReporter` is the TUI's destination for the run's events. Its `emit()` runs
inline in the job loop, so it only does O(1) bookkeeping — the units in flight
and what each is doing, per-task counts, a bounded buffer of log lines — and
never touches a widget. The dashboard reads it a few times a second. It imports
no Textual, so the benchmark and unit tests can drive it alone.

Counts and the in-flight table are never dropped; only log lines are, when more
arrive between two reads than the log could show anyway.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field

from jobtracker.workers.events import WORDS, Event, EventType
from jobtracker.workers.reporters import hms
from tui.clock import AppClock
from tui.literal import plain

LOG_BUFFER = 1000         # log lines held between two reads of the dashboard
TERMINAL = frozenset({EventType.JOB_FINISHED, EventType.JOB_FAILED, EventType.JOB_SKIPPED})
# Events shown in the log; progress steps and per-call detail show in the in-flight pane.
LOGGED = frozenset({*TERMINAL, EventType.CALL_RETRYING, EventType.STAGE_FINISHED})


@dataclass
class InFlight:
    """One unit running now, as the in-flight pane shows it."""

    kind: str
    label: str
    started: float                  # the app clock's monotonic seconds
    phase: str = "waiting"
    input_tokens: int = 0
    output_tokens: int = 0
    calls: int = 0

    @property
    def tokens(self) -> str:
        return f"{self.input_tokens}/{self.output_tokens}" if self.calls else ""


@dataclass
class TaskCounts:
    finished: int = 0
    failed: int = 0
    skipped: int = 0

    @property
    def done(self) -> int:
        return self.finished + self.failed + self.skipped


@dataclass
class LogLine:
    kind: str
    text: str


def phase_of(event: Event) -> str | None:
    """What a unit is doing now, from an event about it (None: no change)."""
    data = event.data
    if event.type is EventType.JOB_PROGRESS:
        return str(data.get("phase") or "") or None
    if event.type is EventType.CALL_RETRYING:
        # `attempt` is the attempt that failed; the unit now waits to make the next one.
        attempt, attempts = data.get("attempt"), data.get("attempts", "?")
        following = attempt + 1 if isinstance(attempt, int) else "?"
        reason = plain(data.get("reason") or "")[:16] or "an error"
        return f"retry {following}/{attempts} after {reason}"
    return None


def detail_of(event: Event) -> str:
    """The end of a log line: what this event adds beyond its word, task and label."""
    data = event.data
    match event.type:
        case EventType.JOB_FINISHED:
            parts = [data.get("result"), hms(data.get("elapsed", 0))]
        case EventType.JOB_FAILED:
            parts = [data.get("error")]
        case EventType.CALL_RETRYING:
            parts = [data.get("reason"), f"in {float(data.get('delay') or 0):.1f}s"]
        case EventType.STAGE_FINISHED:
            parts = [f"{data.get('finished', 0)} finished, {data.get('failed', 0)} failed, "
                     f"{data.get('skipped', 0)} skipped in {hms(data.get('elapsed', 0))}"]
        case _:
            parts = []
    return "  ".join(plain(p) for p in parts if p not in (None, ""))


def _was_started(event: Event) -> bool:
    """Whether a unit's end follows its start: a skip, or a failure in the loop's
    done() check, comes before any JOB_STARTED."""
    if event.type is EventType.JOB_SKIPPED:
        return False
    return not str(event.data.get("error") or "").startswith("done()")


@dataclass
class LiveReporter:
    """The run as the dashboard sees it. One per app; `reset()` at each run's start."""

    clock: AppClock = field(default_factory=AppClock)
    buffer: int = LOG_BUFFER
    in_flight: dict[int, InFlight] = field(default_factory=dict)
    counts: dict[str, TaskCounts] = field(default_factory=dict)
    stages: int = 0                  # STAGE_FINISHED seen: the queue is worth re-surveying
    version: int = 0                 # bumped on every event, so readers skip idle redraws
    dropped: int = 0                 # log lines pushed out before anyone read them

    def __post_init__(self) -> None:
        self._lines: deque[LogLine] = deque(maxlen=self.buffer)
        # A label can repeat (two postings with one title); keep each one's units in order.
        self._by_job: dict[tuple[str, str], deque[int]] = {}
        self._next_id = 0

    def reset(self) -> None:
        self.in_flight.clear()
        self._by_job.clear()
        self.counts.clear()

    # --- the reporter --------------------------------------------------------------

    def emit(self, event: Event) -> None:
        self.version += 1
        kind = event.kind
        job = (kind, event.job)
        if event.type is EventType.JOB_STARTED:
            self._next_id += 1
            self.in_flight[self._next_id] = InFlight(kind, plain(event.job),
                                                     self.clock.monotonic())
            self._by_job.setdefault(job, deque()).append(self._next_id)
        elif event.type in TERMINAL:
            if _was_started(event):
                self._finish(job)
            counts = self.counts.setdefault(kind, TaskCounts())
            if event.type is EventType.JOB_FINISHED:
                counts.finished += 1
            elif event.type is EventType.JOB_FAILED:
                counts.failed += 1
            else:
                counts.skipped += 1
        elif event.type is EventType.STAGE_FINISHED:
            self.stages += 1
        else:
            self._update(job, event)
        if event.type in LOGGED:
            if len(self._lines) == self._lines.maxlen:
                self.dropped += 1
            self._lines.append(LogLine(kind, self.format(event)))

    def _finish(self, job: tuple[str, str]) -> None:
        ids = self._by_job.get(job)
        if ids:
            self.in_flight.pop(ids.popleft(), None)
            if not ids:
                del self._by_job[job]

    def _update(self, job: tuple[str, str], event: Event) -> None:
        ids = self._by_job.get(job)
        if not ids:
            return
        unit = self.in_flight[ids[0]]
        if event.type is EventType.CALL_FINISHED:
            unit.calls += 1
            unit.input_tokens += int(event.data.get("input_tokens") or 0)
            unit.output_tokens += int(event.data.get("output_tokens") or 0)
            return
        phase = phase_of(event)
        if phase:
            unit.phase = phase

    # --- for the dashboard ---------------------------------------------------------

    def format(self, event: Event) -> str:
        """`HH:MM:SS word  task  label  detail`, one clean line."""
        word = WORDS.get(event.type, str(event.type))
        kind = event.kind or str(event.data.get("stage") or "run")
        text = f"{self.clock.time_of_day(event.time)} {word:<5} {kind:<6} {plain(event.job)}"
        detail = detail_of(event)
        return f"{text.rstrip()}  {detail}" if detail else text.rstrip()

    def take_lines(self) -> tuple[list[LogLine], int]:
        """The log lines since the last call, and how many were dropped before them."""
        lines = list(self._lines)
        self._lines.clear()
        dropped, self.dropped = self.dropped, 0
        return lines, dropped

    def units(self) -> list[InFlight]:
        """The units in flight, oldest first."""
        return list(self.in_flight.values())

    def done(self, kind: str) -> TaskCounts:
        return self.counts.get(kind, TaskCounts())

    def totals(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for counts in self.counts.values():
            total.update(finished=counts.finished, failed=counts.failed,
                         skipped=counts.skipped)
        return total
