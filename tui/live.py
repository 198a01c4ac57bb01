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

from jobtracker.text import one_line
from jobtracker.workers.events import (
    WRITING_PHASES,
    CallFinished,
    CallRetrying,
    Event,
    EventType,
    JobFailed,
    JobFinished,
    JobProgress,
    JobSkipped,
    JobStarted,
    StageFinished,
)
from tui.clock import AppClock
from tui.literal import plain

LOG_BUFFER = 1000         # log lines held between two reads of the dashboard
LABEL_MIN = 12            # cells a unit's label keeps in a narrow log
TERMINAL = (JobFinished, JobFailed, JobSkipped)
# Events shown in the log; progress steps and per-call detail show in the in-flight pane.
LOGGED = frozenset({EventType.JOB_FINISHED, EventType.JOB_FAILED, EventType.JOB_SKIPPED,
                    EventType.CALL_RETRYING, EventType.STAGE_FINISHED})


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

    @property
    def writing(self) -> bool:
        """It has its answer and holds no model slot (waiting its turn, or writing)."""
        return self.phase in WRITING_PHASES


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
    """One line of the event log. An event's line also keeps its parts, so a narrow
    log cuts the label (the unit's name) and never the detail at its end — the
    verdict, the reason a unit failed, the duration: what a reader looks for."""

    kind: str
    text: str
    head: str = ""       # time, word and task
    label: str = ""      # the unit's label
    detail: str = ""     # the event's own end

    def fit(self, width: int) -> str:
        """The line in `width` cells: whole when it fits; else the label gives way
        (down to LABEL_MIN), then the end is cut."""
        if width <= 0 or len(self.text) <= width or not self.head:
            return self.text
        tail = f"  {self.detail}" if self.detail else ""
        room = max(width - len(self.head) - 1 - len(tail), LABEL_MIN)
        text = f"{self.head} {one_line(self.label, room)}{tail}"
        # Still too long (a long reason): its end is cut, its spacing kept.
        return text if len(text) <= width else text[:width - 1].rstrip() + "…"


def phase_of(event: Event) -> str | None:
    """What a unit is doing now, from an event about it (None: no change)."""
    match event:
        case JobProgress(phase=phase):
            return plain(phase) or None
        case CallRetrying(attempt=attempt, attempts=attempts, reason=reason):
            # `attempt` is the attempt that failed; the unit now waits to make the next one.
            following = attempt + 1 if isinstance(attempt, int) else "?"
            return (f"retry {following}/{attempts if attempts is not None else '?'} "
                    f"after {plain(reason)[:16] or 'an error'}")
    return None


def unit_of(event: Event) -> tuple[str, str]:
    """Which unit an event is about: its kind and key. An event built without a key
    (by hand, in a test) is known by its label instead."""
    return event.kind, event.key or event.job


@dataclass
class LiveReporter:
    """The run as the dashboard sees it. One per app; `reset()` at each run's start."""

    clock: AppClock = field(default_factory=AppClock)
    buffer: int = LOG_BUFFER
    # By (kind, key): a key names one unit of its kind, whatever its label.
    in_flight: dict[tuple[str, str], InFlight] = field(default_factory=dict)
    counts: dict[str, TaskCounts] = field(default_factory=dict)
    stages: int = 0                  # STAGE_FINISHED seen: the queue is worth re-surveying
    version: int = 0                 # bumped on every event, so readers skip idle redraws
    dropped: int = 0                 # log lines pushed out before anyone read them

    def __post_init__(self) -> None:
        self._lines: deque[LogLine] = deque(maxlen=self.buffer)

    def reset(self) -> None:
        self.in_flight.clear()
        self.counts.clear()

    # --- the reporter --------------------------------------------------------------

    def emit(self, event: Event) -> None:
        self.version += 1
        kind = event.kind
        if isinstance(event, JobStarted):
            self.in_flight[unit_of(event)] = InFlight(kind, plain(event.job),
                                                   self.clock.monotonic())
        elif isinstance(event, TERMINAL):
            # A unit skipped, or failed before it started (in the done() check), was
            # never in flight: popping its key finds nothing.
            self.in_flight.pop(unit_of(event), None)
            counts = self.counts.setdefault(kind, TaskCounts())
            if isinstance(event, JobFinished):
                counts.finished += 1
            elif isinstance(event, JobFailed):
                counts.failed += 1
            else:
                counts.skipped += 1
        elif isinstance(event, StageFinished):
            self.stages += 1
        else:
            self._update(event)
        if event.type in LOGGED:
            if len(self._lines) == self._lines.maxlen:
                self.dropped += 1
            self._lines.append(self.log_line(event))

    def _update(self, event: Event) -> None:
        unit = self.in_flight.get(unit_of(event))
        if unit is None:
            return
        if isinstance(event, CallFinished):
            unit.calls += 1
            unit.input_tokens += event.input_tokens or 0
            unit.output_tokens += event.output_tokens or 0
            return
        phase = phase_of(event)
        if phase:
            unit.phase = phase

    # --- for the dashboard ---------------------------------------------------------

    def format(self, event: Event) -> str:
        """`HH:MM:SS word  task  label  detail`, one clean line; the detail is the event's
        own (the plain-line reporter's too)."""
        return self.log_line(event).text

    def log_line(self, event: Event) -> LogLine:
        """The event's log line, with its parts (LogLine.fit cuts the label first)."""
        stage = event.stage if isinstance(event, StageFinished) else None
        kind = event.kind or stage or "run"
        head = f"{self.clock.time_of_day(event.time)} {event.word:<5} {kind:<6}"
        label = plain(event.job)
        detail = event.detail(plain)
        text = f"{head} {label}".rstrip()
        text = f"{text}  {detail}" if detail else text
        return LogLine(event.kind, text, head if label else "", label, detail)

    @property
    def has_lines(self) -> bool:
        """Whether log lines (or a count of dropped ones) wait to be taken."""
        return bool(self._lines) or self.dropped > 0

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
