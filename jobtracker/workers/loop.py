"""The job loop: run submitted jobs under caps, in priority order, one outcome each."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from contextvars import ContextVar
from itertools import count
from typing import Any

from jobtracker.workers.events import (
    Event,
    JobFailed,
    JobFinished,
    JobSkipped,
    JobStarted,
    Reporter,
    StageFinished,
    set_current_job,
)
from jobtracker.workers.job import Handler, Job, Outcome, Status

_REASON_MAX = 200  # a failure reason is one short line, for a terminal and a metric-free log


def _reason(exc: BaseException, phase: str) -> str:
    """One short line naming the error, and the step when it was not run()."""
    text = " ".join(str(exc).split())
    reason = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    if phase != "run":
        reason = f"{phase}(): {reason}"
    return reason[:_REASON_MAX]


def reporter_name(reporter: Reporter) -> str:
    """What a reporter is called in a message: its `name` if it has one, else its class."""
    return str(getattr(reporter, "name", "") or type(reporter).__name__)


def describe_reporter_error(reporter: Reporter, exc: Exception) -> str:
    """One line saying which reporter stopped and why."""
    text = " ".join(str(exc).split())
    why = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return f"events to {reporter_name(reporter)} stopped ({why})"


def say_on_stderr(reporter: Reporter, exc: Exception) -> None:
    """The default for a reporter that fails: one line on stderr, looked up now (so a
    redirect or a test's capture made after the loop was built still gets it)."""
    with contextlib.suppress(OSError):   # stderr itself gone: nowhere left to say it
        print(f"jobtracker: {describe_reporter_error(reporter, exc)}; the run goes on",
              file=sys.stderr, flush=True)


# The running job's way to give its slot up (`release_slot`), set in the job's own task.
_release: ContextVar[Callable[[], bool] | None] = ContextVar("release_slot", default=None)


def release_slot() -> bool:
    """Tell the loop the current job no longer needs its slot: it has the model's answer
    and only waits for its turn to write it. The loop starts the next waiting job at
    once, while this one carries on to its outcome. At most `concurrency` jobs are held
    so at a time; past that (or outside a job, or with no cap) nothing changes and the
    answer is False. A held job still counts as running, but not against the cap."""
    release = _release.get()
    return release() if release is not None else False


def _being_cancelled() -> bool:
    """Whether someone asked to cancel the current task (not a stray CancelledError)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


class JobLoop:
    """Runs jobs by their kind's handler, under one global cap and optional per-kind caps.

    `submit()` queues a job and never waits; `run()` starts waiting jobs while a
    slot is free and returns when every job submitted, follow-ups included, has
    its outcome. A class because the caller, finished jobs (their follow-ups)
    and the UI (pause, stop, live state) all act on the same queues and counts.

    Args:
        handlers: the handler for each kind; a job of another kind is refused.
        concurrency: jobs running at once, all kinds together (None or 0: no limit).
            A job that gives its slot up (`release_slot`) runs on outside the cap;
            at most `concurrency` jobs are held so at once.
        caps: jobs running at once per kind, under the global cap (None or 0: no limit).
        priorities: per kind; lower is admitted first, submission order within a
            kind. A kind not listed has priority 0.
        reporters: where every event goes, in this order.
        stage: a name carried by the closing STAGE_FINISHED event.
        on_reporter_error: told once about each reporter that raises (it is then
            dropped); by default a line on stderr, so a full disk never silently
            stops events.jsonl.
    """

    def __init__(self, handlers: Mapping[str, Handler[Any]], *, concurrency: int | None,
                 caps: Mapping[str, int | None] | None = None,
                 priorities: Mapping[str, int] | None = None,
                 reporters: Iterable[Reporter] = (), stage: str = "",
                 on_reporter_error: Callable[[Reporter, Exception], None] | None = say_on_stderr,
                 ) -> None:
        self._handlers = dict(handlers)
        self._limit = concurrency or 0
        self._caps = {kind: cap for kind, cap in (caps or {}).items() if cap}
        self._priorities = dict(priorities or {})
        self._reporters = list(reporters)
        self.stage = stage  # named in STAGE_FINISHED; a caller may rename it per run()
        # Waiting jobs, one FIFO per kind, each entry tagged with its submission
        # number. Admission picks the best head among kinds with room, so a kind
        # at its cap never holds up another kind queued behind it.
        self._queues: dict[str, deque[tuple[int, Job]]] = {}
        self._order = count()
        self._seen: set[tuple[str, str]] = set()
        self._running: dict[asyncio.Task[None], Job] = {}
        self._running_by_kind: dict[str, int] = dict.fromkeys(self._handlers, 0)
        # Running jobs that gave their slot up (`release_slot`): not under the caps.
        self._held: set[asyncio.Task[None]] = set()
        self._counts = dict.fromkeys(Status, 0)
        # Per kind too: a stage's closing line counts its own task's units, not every
        # unit the loop has run (follow-ups of other kinds, earlier stages).
        self._kind_counts: dict[str, dict[Status, int]] = {}
        # When each kind's last outcome of the current run() came (monotonic seconds).
        self._last_outcome: dict[str, float] = {}
        self._outcomes: list[Outcome] = []
        self._group: asyncio.TaskGroup | None = None  # set only while run() runs
        self._paused = False
        self._stopped = False
        self._idle = asyncio.Event()
        # Reporters that raised, with the error; each is dropped at its first
        # failure (a closed pipe or a full disk fails the same way every time),
        # so each is said once.
        self.reporter_errors: list[tuple[Reporter, Exception]] = []
        self._on_reporter_error = on_reporter_error

    # --- feeding and controlling --------------------------------------------

    def submit(self, job: Job) -> bool:
        """Queue a job; never waits. False if its (kind, key) was already submitted.

        Refusing repeats means a failed job is never run twice in one loop, and a
        caller that re-lists work while jobs are in flight does not duplicate them.
        """
        if job.kind not in self._handlers:
            raise ValueError(f"no handler for job kind {job.kind!r}")
        identity = (job.kind, job.key)
        if identity in self._seen:
            return False
        self._seen.add(identity)
        self._queues.setdefault(job.kind, deque()).append((next(self._order), job))
        self._admit()
        return True

    def pause(self) -> None:
        """Start nothing new until resume(); jobs in flight carry on."""
        self._paused = True

    def resume(self) -> None:
        self._paused = False
        self._admit()
        self._check_idle()

    def stop(self) -> None:
        """Start nothing more: run() returns when the jobs in flight end.

        Jobs still waiting get no outcome and no event; `counts["waiting"]` says
        how many. They are simply not done, so the next run lists them again.
        """
        self._stopped = True
        self._check_idle()

    # --- live state, cheap enough to poll from a UI -------------------------

    @property
    def in_flight(self) -> list[Job]:
        """The jobs running now, in the order they started."""
        return list(self._running.values())

    @property
    def counts(self) -> dict[str, int]:
        """finished, failed, skipped so far, plus running and waiting now."""
        return {**{str(s): n for s, n in self._counts.items()},
                "running": len(self._running),
                "waiting": sum(len(q) for q in self._queues.values())}

    def stage_counts(self, kind: str) -> dict[str, int]:
        """`counts`, narrowed to one kind's finished, failed and skipped when `kind` is
        one the loop has handlers for (running and waiting stay the loop's)."""
        counts = self.counts
        if kind in self._handlers:
            own = self._kind_counts.get(kind, {})
            counts.update({str(s): own.get(s, 0) for s in Status})
        return counts

    @property
    def reporter_error_lines(self) -> list[str]:
        """One line per reporter that stopped, saying which and why."""
        return [describe_reporter_error(r, e) for r, e in self.reporter_errors]

    # --- running ------------------------------------------------------------

    async def run(self) -> list[Outcome]:
        """Run until every submitted job has its outcome (or stop()); return them.

        Cancelling run() cancels the jobs in flight: each sees CancelledError where
        it is awaiting, so its caller can roll back, and it gets no outcome.
        """
        if self._group is not None:
            raise RuntimeError("this JobLoop is already running")
        started = time.monotonic()
        first = len(self._outcomes)
        self._last_outcome.clear()
        try:
            async with asyncio.TaskGroup() as group:
                self._group = group
                try:
                    self._admit()
                    while not self._finished():
                        self._idle.clear()
                        await self._idle.wait()
                finally:
                    # Start nothing more. On cancellation the group then cancels
                    # the jobs in flight and waits for each to unwind.
                    self._group = None
        except asyncio.CancelledError:
            self._stopped = True
            raise
        finally:
            self._emit_stage_ends(started)
        return self._outcomes[first:]

    def _emit_stage_ends(self, started: float) -> None:
        """The closing STAGE_FINISHED. When the stage is a kind, every other kind whose
        units ran in it as follow-ups (a tailor's cover letter) gets its own, with its
        own counts and time, all in the order each kind's last unit ended: one closing
        line must not count and time two tasks' work as the stage's."""
        ended = time.monotonic()
        if self.stage in self._handlers:
            last = {**self._last_outcome}
            last.setdefault(self.stage, ended)
        else:
            last = {self.stage: ended}
        for kind in sorted(last, key=last.__getitem__):
            counts = self.stage_counts(kind)
            self._emit(StageFinished(
                stage=kind, finished=counts["finished"], failed=counts["failed"],
                skipped=counts["skipped"], running=counts["running"],
                waiting=counts["waiting"], elapsed=round(last[kind] - started, 3)))

    def _admit(self) -> None:
        """Start waiting jobs while a slot is free, best (priority, order) first."""
        if self._group is None or self._paused or self._stopped:
            return
        while not self._limit or len(self._running) - len(self._held) < self._limit:
            kind = self._next_kind()
            if kind is None:
                return
            _, job = self._queues[kind].popleft()
            self._running_by_kind[kind] += 1
            task = self._group.create_task(self._run_one(job))
            self._running[task] = job

    def _next_kind(self) -> str | None:
        """The kind whose oldest waiting job goes next; kinds are few, so a scan."""
        best: tuple[int, int] | None = None
        chosen = None
        for kind, queue in self._queues.items():
            cap = self._caps.get(kind)
            if not queue or (cap and self._running_by_kind[kind] >= cap):
                continue
            rank = (self._priorities.get(kind, 0), queue[0][0])
            if best is None or rank < best:
                best, chosen = rank, kind
        return chosen

    def _finished(self) -> bool:
        """Nothing runs and nothing more will start (paused with jobs waiting is not)."""
        return not self._running and (self._stopped or not any(self._queues.values()))

    def _check_idle(self) -> None:
        """Wake run() to look again when it may be finished."""
        if self._finished():
            self._idle.set()

    async def _run_one(self, job: Job) -> None:
        """One job in its own task: one outcome, then its follow-ups are queued."""
        # In this task's own context, so report() inside the handler is this job's.
        set_current_job(self._emit, job.label, job.kind, job.key)
        task = asyncio.current_task()
        assert task is not None
        _release.set(lambda: self._release(task, job))
        outcome: Outcome | None = None
        follow_ups: list[Job] = []
        try:
            outcome, follow_ups = await self._attempt(job)
        finally:
            # Also on cancellation: the slot is freed, but a cancelled job gets no
            # outcome, so nothing about it is half-counted.
            del self._running[task]
            if task in self._held:
                self._held.discard(task)
            else:
                self._running_by_kind[job.kind] -= 1
            if outcome is not None:
                self._record(outcome)
            for follow_up in follow_ups:
                self.submit(follow_up)
            self._admit()
            self._check_idle()

    def _release(self, task: asyncio.Task[None], job: Job) -> bool:
        """`release_slot` for the job running as `task`."""
        if not self._limit or task in self._held or len(self._held) >= self._limit \
                or task not in self._running:
            return False
        self._held.add(task)
        self._running_by_kind[job.kind] -= 1
        self._admit()
        return True

    async def _attempt(self, job: Job) -> tuple[Outcome, list[Job]]:
        """Ask the handler; any error from any of its steps is this job's failure."""
        handler = self._handlers[job.kind]
        started = time.monotonic()
        phase = "done"
        result: str | None = None
        try:
            if await handler.done(job):
                status = Status.SKIPPED
            else:
                phase = "run"
                if self._reporters:  # no event objects at all when nobody listens
                    self._emit(JobStarted(job=job.label, kind=job.kind, key=job.key))
                result = await handler.run(job)
                status = Status.FINISHED
            phase = "follow_ups"
            follow_ups = list(await handler.follow_ups(job, result))
            unknown = {f.kind for f in follow_ups} - self._handlers.keys()
            if unknown:
                raise ValueError(f"follow-up of unknown kind {sorted(unknown)}")
        except asyncio.CancelledError as exc:
            if _being_cancelled():
                raise
            # A CancelledError nobody asked for (an inner task's) is a plain failure.
            return self._failed(job, started, exc, phase), []
        except Exception as exc:
            return self._failed(job, started, exc, phase), []
        elapsed = time.monotonic() - started
        return Outcome(job, status, elapsed, result=result), follow_ups

    def _failed(self, job: Job, started: float, exc: BaseException, phase: str) -> Outcome:
        return Outcome(job, Status.FAILED, time.monotonic() - started,
                       error=_reason(exc, phase), phase=phase)

    def _record(self, outcome: Outcome) -> None:
        self._outcomes.append(outcome)
        self._counts[outcome.status] += 1
        own = self._kind_counts.setdefault(outcome.job.kind, dict.fromkeys(Status, 0))
        own[outcome.status] += 1
        self._last_outcome[outcome.job.kind] = time.monotonic()
        if not self._reporters:   # no event objects at all when nobody listens
            return
        job, elapsed = outcome.job, round(outcome.elapsed, 3)
        event: Event
        if outcome.status is Status.FINISHED:
            event = JobFinished(job=job.label, kind=job.kind, key=job.key,
                                result=outcome.result, elapsed=elapsed)
        elif outcome.status is Status.FAILED:
            event = JobFailed(job=job.label, kind=job.kind, key=job.key, error=outcome.error,
                              elapsed=elapsed, phase=outcome.phase)
        else:
            event = JobSkipped(job=job.label, kind=job.kind, key=job.key, elapsed=elapsed)
        self._emit(event)

    # --- events -------------------------------------------------------------

    def _emit(self, event: Event) -> None:
        """Hand an event to every reporter. A reporter that raises is dropped, recorded
        and said once; it never stops the loop or another reporter."""
        for reporter in list(self._reporters):
            try:
                reporter.emit(event)
            except Exception as exc:
                self._reporters.remove(reporter)
                self.reporter_errors.append((reporter, exc))
                if self._on_reporter_error is not None:
                    self._on_reporter_error(reporter, exc)
