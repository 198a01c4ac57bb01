"""The runner: `survey()` and `work()`.

This module owns every socket, every transaction and every clock read of a
run; task modules only describe. A run:

1. loads the workspace's settings and takes the workspace lease;
2. brings outside inputs into the database (the Maildir, when configured);
3. probes the model server — with no model it reports the queue and changes
   nothing;
4. works units through the job loop. Each unit is asked, parsed, applied and
   committed on its own, so an interrupted run keeps every unit committed
   before it. Results are applied in the order `pending()` listed them (units
   that finish early wait their turn), so nothing depends on which answer came
   back first.

The failure ledger (`task_attempts`) records failures only: a unit that fails
`MAX_FAILURES` times in a row is set aside — still counted, never deleted — and
a success clears its row.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite
from opentelemetry import trace

from jobtracker import scoring, store
from jobtracker.config import Config, Profile, expand_path, normalize_llm_url
from jobtracker.lease import Lease
from jobtracker.llm import LLMClient
from jobtracker.local_model import run_client
from jobtracker.tasks import Context, Task, Unit, ordered
from jobtracker.telemetry import Telemetry
from jobtracker.workers.events import EventType, Reporter, report
from jobtracker.workers.loop import JobLoop
from jobtracker.workers.reporters import EventsFileReporter
from jobtracker.workspace import Workspace
from jobtracker.yamlfile import ConfigError

MAX_FAILURES = 3
BATCH = 256          # units read per pending() query
RECHECK_AFTER = 2.0  # seconds a listed unit may wait before done() asks the database again
TEXT_FILES = ("resume.md", "keywords.yaml", "coverletter.md", "answers.yaml")


def now_iso() -> str:
    """The runner's clock: ISO 8601 UTC, to the second."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


# --- the survey ----------------------------------------------------------------------

@dataclass(frozen=True)
class TaskState:
    """One row of the queue: what a task could do now."""

    name: str
    priority: int
    summary: str
    pending: int = 0
    set_aside: int = 0
    reason: str | None = None       # why it is unavailable, or None

    @property
    def available(self) -> bool:
        return self.reason is None

    @property
    def has_work(self) -> bool:
        return self.available and self.pending > 0

    def describe(self) -> str:
        if self.reason is not None:
            text = f"unavailable — {self.reason}"
        elif self.pending:
            text = f"{self.pending:,} pending"
        else:
            text = "nothing to do"
        if self.set_aside:
            text += f", {self.set_aside:,} set aside"
        return text


def format_queue(states: Sequence[TaskState], chosen: TaskState | None) -> str:
    """The queue as `work --dry-run` prints it (contract §3)."""
    lines = ["Task queue, in the order the scheduler considers it:", ""]
    for state in states:
        lines.append(f"{state.priority:>5}  {state.name:<10} {state.describe()}")
        lines.append(f"{'':18}{state.summary}")
    lines.append("")
    if chosen is None:
        lines.append("Would work: nothing")
    else:
        lines.append(f"Would work: {chosen.name} ({chosen.pending} unit(s))")
    return "\n".join(lines)


def choose(states: Sequence[TaskState], pinned: str | None = None) -> TaskState | None:
    """The pinned task if it has work, else the first task in priority order with work."""
    for state in states:
        if (pinned is None or state.name == pinned) and state.has_work:
            return state
    return None


async def _ledger_set_aside(conn: aiosqlite.Connection, task: str) -> list[tuple[str, str]]:
    rows = await conn.execute_fetchall(
        "SELECT unit_key, subject FROM task_attempts WHERE task = ? AND failures >= ?",
        (task, MAX_FAILURES))
    return [(str(key), str(subject)) for key, subject in rows]


def _subject(value: str) -> int | str:
    return int(value) if value.isdigit() else value


async def live_set_aside(conn: aiosqlite.Connection, task: Task, ctx: Context) -> set[str]:
    """Keys set aside that are still pending. A set-aside unit whose inputs changed has
    a new key, so its old ledger row no longer holds anything back."""
    live: set[str] = set()
    for key, subject in await _ledger_set_aside(conn, task.name):
        units = await task.pending(conn, ctx, subject=_subject(subject))
        if any(unit.unit_key == key for unit in units):
            live.add(key)
    return live


async def survey(conn: aiosqlite.Connection, ctx: Context, tasks: Iterable[Task],
                 model_reasons: dict[str, str | None] | None = None) -> list[TaskState]:
    """Per task, in priority order: pending and set-aside counts, or why it is unavailable.

    `model_reasons` maps a task to why its model cannot be used (None: usable);
    leave it out to survey without asking any model (a dry run).
    """
    states = []
    for task in tasks:
        reason = task.unavailable_reason(ctx)
        if reason is None and model_reasons is not None:
            reason = model_reasons.get(task.name)
        set_aside = len(await live_set_aside(conn, task, ctx))
        pending = (await task.count(conn, ctx)) - set_aside
        states.append(TaskState(task.name, task.priority, task.summary, max(pending, 0),
                                set_aside, reason))
    return states


# --- settings for a run ----------------------------------------------------------------

@dataclass(frozen=True)
class RunOptions:
    task: str | None = None          # pinned task
    budget: int | None = None        # at most this many units
    concurrency: int | None = None   # overrides config.yaml
    llm_url: str | None = None       # overrides config.yaml (and its llm.gguf)
    gguf: str | None = None          # overrides config.yaml: serve this model file embedded
    continuous: bool = False         # every task in priority order, re-surveying as stages drain
    deadline: float | None = None    # seconds; stop admitting units after it


@dataclass(frozen=True)
class Setup:
    """A workspace's settings, loaded and checked once per command."""

    ws: Workspace
    config: Config
    profile: Profile
    tasks: list[Task]

    def context(self, now: str) -> Context:
        texts: dict[str, str | None] = {}
        for name in TEXT_FILES:
            path = self.ws.home / name
            try:
                texts[name] = path.read_text(encoding="utf-8")
            except FileNotFoundError:
                texts[name] = None
            except UnicodeDecodeError as exc:
                raise ConfigError(path, f"not UTF-8 text ({exc.reason} at byte {exc.start})"
                                  ) from None
        return Context(home=self.ws.home, config=self.config, profile=self.profile, now=now,
                       texts=texts)


def load_setup(ws: Workspace, options: RunOptions = RunOptions()) -> Setup:
    """Read config, profile and plugins (ConfigError on a bad file); apply overrides."""
    config = ws.config()
    if options.llm_url:   # a server named for this run wins over the file's llm.gguf
        config = replace(config, llm=replace(config.llm, url=normalize_llm_url(options.llm_url),
                                             gguf=None))
    if options.gguf:
        config = replace(config, llm=replace(config.llm, gguf=expand_path(options.gguf)))
    if options.concurrency:
        config = replace(config, concurrency=options.concurrency)
    tasks = ordered(ws.plugins())
    if options.task is not None and options.task not in {t.name for t in tasks}:
        known = ", ".join(t.name for t in tasks) or "none"
        raise ConfigError(ws.home / "plugins.yaml",
                          f"task {options.task!r} is unknown or switched off (on: {known})")
    return Setup(ws, config, ws.profile(), tasks)


def _maildir_to_sync(setup: Setup) -> Path | None:
    """The Maildir to bring in: when the inbox task is on and the folder looks like a
    Maildir (otherwise the task's own unavailable reason says why)."""
    maildir = setup.config.maildir
    if maildir is None or all(t.name != "inbox" for t in setup.tasks):
        return None
    return maildir if (maildir / "cur").is_dir() or (maildir / "new").is_dir() else None


async def sync_inputs(conn: aiosqlite.Connection, setup: Setup, now: str) -> None:
    """Bring outside inputs into the database before surveying: the Maildir."""
    maildir = _maildir_to_sync(setup)
    if maildir is not None:
        from jobtracker.mail import sync_maildir

        await sync_maildir(conn, maildir, now)


async def rescore(setup: Setup) -> int:
    """Recompute every judged posting's score; needs no model (the second half of `rank`)."""
    async with store.connect(setup.ws.db) as conn:
        return await scoring.rescore(conn, setup.profile, now_iso())


async def dry_run(setup: Setup) -> tuple[list[TaskState], TaskState | None]:
    """The queue, without the lease or a model. Changes nothing but a first migration."""
    async with store.connect(setup.ws.db) as conn:
        states = await queue_between_runs(conn, setup, setup.context(now_iso()))
    return states, None if not states else choose(states)


async def queue_between_runs(conn: aiosqlite.Connection, setup: Setup, ctx: Context,
                             model_reasons: dict[str, str | None] | None = None
                             ) -> list[TaskState]:
    """The survey as seen outside a run (a dry run, the dashboard while idle). Mail that
    arrived since the last run is not in the database yet, and reading it in would be a
    change; it is counted as inbox work instead, so new replies never show as nothing."""
    states = await survey(conn, ctx, setup.tasks, model_reasons)
    maildir = _maildir_to_sync(setup)
    if maildir is None:
        return states
    from jobtracker.mail import unsynced_count

    waiting = await unsynced_count(conn, maildir)
    return [replace(s, pending=s.pending + waiting) if s.name == "inbox" and s.available else s
            for s in states]


# --- a run -----------------------------------------------------------------------------

@dataclass
class RunResult:
    states: list[TaskState] = field(default_factory=list)   # the queue when the run began
    model_reason: str | None = None     # set when no model could be used
    counts: dict[str, int] = field(default_factory=lambda: {
        "finished": 0, "failed": 0, "skipped": 0})
    worked: list[str] = field(default_factory=list)          # tasks that had units submitted
    elapsed: float = 0.0
    run_dir: Path | None = None
    reporter_errors: list[str] = field(default_factory=list)   # reporters that stopped, why

    @property
    def exit_code(self) -> int:
        """1 when units were attempted and every one of them failed; else 0."""
        attempted = self.counts["finished"] + self.counts["failed"]
        return 1 if attempted and self.counts["failed"] == attempted else 0


class _InOrder:
    """Lets units apply in the order they were submitted, one task at a time.

    Each submitted unit takes a number. A unit whose answer is ready waits for
    its `turn()`; `advance()` — called exactly once per number, whatever became
    of the unit — lets the next one go. The loop admits a kind's units in
    submission order, so the lowest open number is always in flight: waiting
    never deadlocks, and at most `concurrency` answers are held at once.
    """

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}
        self._next = 0
        self._done: set[int] = set()
        self._cond = asyncio.Condition()

    def take(self, key: str) -> None:
        self.numbers[key] = len(self.numbers)

    @property
    def open(self) -> int:
        """Units numbered and not yet advanced past."""
        return len(self.numbers) - self._next - len(self._done)

    async def turn(self, key: str) -> None:
        number = self.numbers[key]
        async with self._cond:
            await self._cond.wait_for(lambda: self._next == number)

    def advance(self, key: str) -> None:
        self._done.add(self.numbers[key])
        while self._next in self._done:
            self._done.discard(self._next)
            self._next += 1
        # Wake waiters without awaiting: advance() runs in finally blocks, cancelled too.
        asyncio.get_running_loop().create_task(self._notify())

    async def _notify(self) -> None:
        async with self._cond:
            self._cond.notify_all()


class _UnitHandler:
    """The job loop's handler for one task's units: ask, parse, apply in order."""

    def __init__(self, run: Run, task: Task) -> None:
        self.run_ = run
        self.task = task
        self.order = _InOrder()
        self.set_aside: set[str] = set()
        self.on_ledger: set[str] = set()      # keys with a failure row when the stage began
        self.listed_at: dict[str, float] = {}
        self.applied = 0

    async def done(self, unit: Unit) -> bool:
        """Skip-on-done: the unit is no longer pending (answered or changed since it was
        listed). A unit listed moments ago is its own check — pending() just listed it
        and this run holds the workspace — so only one that waited is asked again."""
        listed = self.listed_at.pop(unit.unit_key, None)
        if listed is not None and self.run_.clock() - listed < RECHECK_AFTER:
            return False
        try:
            async with self.run_.db_lock:
                live = await self.task.pending(self.run_.conn, self.run_.ctx, subject=unit.subject)
        except BaseException:
            self.order.advance(unit.unit_key)
            raise
        is_done = all(other.unit_key != unit.unit_key for other in live)
        if is_done:
            self.order.advance(unit.unit_key)
        return is_done

    async def run(self, unit: Unit) -> str | None:
        run = self.run_
        attributes = {"task.name": self.task.name}
        with run.telemetry.tracer.start_as_current_span(
                "task.unit", context=run.span_context, attributes=attributes) as span:
            try:
                label = await self._ask_and_apply(unit)
            except BaseException as exc:
                span.set_attribute("task.outcome", "failed")
                span.record_exception(exc)
                raise
            span.set_attribute("task.outcome", "finished")
            return label

    async def _ask_and_apply(self, unit: Unit) -> str:
        run, key = self.run_, unit.unit_key
        try:
            request = self.task.request(unit, run.ctx)
            answer = await run.client.ask(self.task.name, request.messages, request.schema,
                                          unit_key=key)
            result = self.task.parse(unit, answer.data, run.ctx)
        except asyncio.CancelledError:
            self.order.advance(key)
            raise
        except Exception as exc:
            try:
                await self.order.turn(key)
                await run.record_failure(self.task, unit, exc)
            finally:
                self.order.advance(key)
            raise
        try:
            await self.order.turn(key)
            report(EventType.JOB_PROGRESS, phase="applying")
            label = await run.apply(self.task, unit, result, answer.model)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            # apply() raised: its transaction rolled back; the unit is a failure.
            await run.record_failure(self.task, unit, exc)
            raise
        finally:
            self.order.advance(key)
        self.applied += 1
        return label

    async def follow_ups(self, unit: Unit, result: str | None) -> list[Unit]:
        run = self.run_
        fresh: list[Unit] = []
        if run.options.continuous and result is not None:
            for later in run.tasks_after(self.task):
                async with run.db_lock:
                    units = await later.pending(run.conn, run.ctx, subject=unit.subject)
                fresh += run.take(later, units)
        # Keep the loop fed: top up this task's queue before it runs dry, from
        # inside a finishing unit, so the loop never sees an empty queue mid-stage.
        if self.order.open < run.low_water and run.feeding == self.task.name:
            fresh += await run.next_batch(self.task)
        return fresh


class Run:
    """One run of the loop over an open workspace: the pieces every unit shares."""

    def __init__(self, conn: aiosqlite.Connection, ctx: Context, client: LLMClient,
                 setup: Setup, tasks: list[Task], options: RunOptions,
                 reporters: list[Reporter], telemetry: Telemetry,
                 model_reasons: dict[str, str | None]) -> None:
        self.conn, self.ctx, self.client = conn, ctx, client
        self.setup, self.tasks, self.options, self.telemetry = setup, tasks, options, telemetry
        self.db_lock = asyncio.Lock()   # one connection: one statement sequence at a time
        self.handlers = {task.name: _UnitHandler(self, task) for task in tasks}
        concurrency = setup.config.concurrency
        self.low_water = max(4, concurrency * 2)
        self.loop = JobLoop(self.handlers, concurrency=concurrency,
                            priorities={t.name: t.priority for t in tasks},
                            reporters=reporters)
        self.budget_left = options.budget
        self.feeding: str | None = None
        self.stopped = False
        self.span_context: Any = None
        self.worked: list[str] = []
        self.model_reasons = model_reasons
        self._scored_after = 0      # judge units applied when scores were last refreshed
        self.clock = asyncio.get_running_loop().time

    # --- control, for signals and the TUI -------------------------------------------

    def pause(self) -> None:
        self.loop.pause()

    def resume(self) -> None:
        self.loop.resume()

    def stop(self) -> None:
        """Start nothing more; units in flight finish and are kept."""
        self.stopped = True
        self.loop.stop()

    # --- units -----------------------------------------------------------------------

    def tasks_after(self, task: Task) -> list[Task]:
        return [t for t in self.tasks if t.priority > task.priority]

    def take(self, task: Task, units: Iterable[Unit]) -> list[Unit]:
        """Number fresh units for submission, within the budget. Skips set-aside ones and
        ones already submitted in this run (a failure is never retried in the same run)."""
        handler = self.handlers[task.name]
        fresh = []
        for unit in units:
            if self.budget_left is not None and self.budget_left <= 0:
                break
            if unit.unit_key in handler.order.numbers or unit.unit_key in handler.set_aside:
                continue
            handler.order.take(unit.unit_key)
            handler.listed_at[unit.unit_key] = self.clock()
            if self.budget_left is not None:
                self.budget_left -= 1
            fresh.append(unit)
        if fresh and task.name not in self.worked:
            self.worked.append(task.name)
        return fresh

    async def next_batch(self, task: Task) -> list[Unit]:
        if self.stopped or (self.budget_left is not None and self.budget_left <= 0):
            return []
        handler = self.handlers[task.name]
        # Units submitted but not applied, and set-aside ones, are still listed by
        # pending(): read past them to get a full batch of fresh ones.
        skip = len(handler.order.numbers) - handler.applied + len(handler.set_aside)
        want = BATCH if self.budget_left is None else min(BATCH, self.budget_left)
        async with self.db_lock:
            units = await task.pending(self.conn, self.ctx, limit=want + skip)
        return self.take(task, units)

    async def apply(self, task: Task, unit: Unit, result: Any, model: str) -> str:
        """Write one unit's result and clear its ledger row, in one transaction."""
        async with self.db_lock, store.write(self.conn):
            label = await task.apply(self.conn, unit, result, self.ctx, model)
            if unit.unit_key in self.handlers[task.name].on_ledger:   # a success resets
                await self.conn.execute(
                    "DELETE FROM task_attempts WHERE task = ? AND unit_key = ?",
                    (task.name, unit.unit_key))
        return label

    async def record_failure(self, task: Task, unit: Unit, exc: BaseException) -> None:
        reason = " ".join(str(exc).split())[:200] or type(exc).__name__
        async with self.db_lock, store.write(self.conn):
            await self.conn.execute(
                "INSERT INTO task_attempts (task, unit_key, subject, failures, last_error,"
                " last_attempt) VALUES (?, ?, ?, 1, ?, ?) ON CONFLICT (task, unit_key) DO UPDATE"
                " SET failures = failures + 1, last_error = excluded.last_error,"
                " last_attempt = excluded.last_attempt",
                (task.name, unit.unit_key, str(unit.subject), reason, now_iso()))

    # --- stages ----------------------------------------------------------------------

    async def read_ledger(self) -> None:
        """What the failure ledger holds for each task, read once at the start of a run:
        set-aside keys are never submitted (follow-ups included), and only keys with a
        row need it cleared on success. This run's own failures are not retried in it."""
        async with self.db_lock:
            for task in self.tasks:
                handler = self.handlers[task.name]
                handler.set_aside = await live_set_aside(self.conn, task, self.ctx)
                handler.on_ledger = {str(row[0]) for row in await self.conn.execute_fetchall(
                    "SELECT unit_key FROM task_attempts WHERE task = ?", (task.name,))}

    async def drain(self, task: Task) -> None:
        """Work `task` until nothing is pending, the budget is spent, or stop()."""
        self.feeding = task.name
        self.loop.stage = task.name
        with self.telemetry.tracer.start_as_current_span(
                "task.run", attributes={"task.name": task.name}) as span:
            self.span_context = trace.set_span_in_context(span)
            while not self.stopped:
                batch = await self.next_batch(task)
                if not batch:
                    break
                for unit in batch:
                    self.loop.submit(unit)
                await self.loop.run()
        self.feeding = None
        await self._rescore_if_judged()

    async def _rescore_if_judged(self) -> None:
        """Scores are arithmetic over verdicts, not a task. Refresh them whenever new
        verdicts were written (judge units also run as follow-ups inside other stages),
        so tailor, which works down scores, sees them in the same run."""
        judge = self.handlers.get("judge")
        if judge is not None and judge.applied > self._scored_after:
            self._scored_after = judge.applied
            async with self.db_lock:
                await scoring.rescore(self.conn, self.ctx.profile, self.ctx.now)

    async def work(self, states: list[TaskState]) -> None:
        await self.read_ledger()
        if not self.options.continuous:
            chosen = choose(states, self.options.task)
            if chosen is not None:
                await self.drain(self._task(chosen.name))
            return
        while not self.stopped:
            progressed = False
            for state in states:
                if state.has_work and (self.options.task in (None, state.name)):
                    before = self.loop.counts
                    await self.drain(self._task(state.name))
                    progressed |= self.loop.counts != before
            if not progressed or self.stopped:
                return
            async with self.db_lock:
                states = await survey(self.conn, self.ctx, self.tasks, self.model_reasons)
            if not any(s.has_work for s in states):
                return

    def _task(self, name: str) -> Task:
        return next(t for t in self.tasks if t.name == name)


def run_id(now: datetime | None = None) -> str:
    now = now or datetime.now(UTC)
    return f"{now:%Y%m%dT%H%M%SZ}-{os.getpid()}"


async def work(setup: Setup, options: RunOptions, reporters: Sequence[Reporter] = (),
               telemetry: Telemetry | None = None,
               on_start: Any = None) -> RunResult:
    """One run of `jobtracker work` / `jobtracker-tui --run`. Raises LeaseHeld when
    another run holds the workspace; ConfigError for bad settings."""
    telemetry = telemetry or Telemetry.from_env()
    started = datetime.now(UTC)
    result = RunResult()
    with Lease(setup.ws.lock):
        async with store.connect(setup.ws.db) as conn:
            now = now_iso()
            await sync_inputs(conn, setup, now)
            ctx = setup.context(now)
            # With llm.gguf this starts the embedded llama.cpp server for the run.
            async with run_client(setup.config.llm,
                                  max_in_flight=setup.config.concurrency) as client:
                probe = await client.probe()
                reasons = {t.name: (probe.reason if not probe.ok else client.available_for(t.name))
                           for t in setup.tasks}
                result.states = await survey(conn, ctx, setup.tasks, reasons)
                if not probe.ok:
                    result.model_reason = probe.reason
                    return result
                run_dir = setup.ws.runs / run_id(started)
                run_dir.mkdir(parents=True, exist_ok=True)
                result.run_dir = run_dir
                events = EventsFileReporter(run_dir / "events.jsonl")
                all_reporters = [*reporters, events, telemetry.reporter()]
                available = [t for t in setup.tasks if reasons[t.name] is None]
                run = Run(conn, ctx, client, setup, available, options, all_reporters, telemetry,
                          reasons)
                if on_start is not None:
                    on_start(run)
                deadline = (asyncio.get_running_loop().call_later(options.deadline, run.stop)
                            if options.deadline else None)
                try:
                    await run.work(result.states)
                finally:
                    if deadline is not None:
                        deadline.cancel()
                    events.close()
                    counts = run.loop.counts
                    result.counts = {k: counts[k] for k in ("finished", "failed", "skipped")}
                    result.worked = run.worked
                    result.elapsed = (datetime.now(UTC) - started).total_seconds()
                    result.reporter_errors = run.loop.reporter_error_lines
    return result

