"""A run over an open workspace: the thin `Run` that wires the parts, and `work()`.

`work()` owns every socket, transaction and clock read of a run; task modules only
describe. A run:

1. loads the workspace's settings and takes the workspace lease;
2. brings outside input (mail) into the database with the intake steps the tasks
   name (jobtracker/intake), then lets every task refresh what it derives from the
   database (`Task.bring_in`);
3. probes the model server — with no model it reports the queue and changes
   nothing;
4. works units through the job loop. Each unit is asked, parsed, applied and
   committed on its own, so an interrupted run keeps every unit committed
   before it. Results are applied in the order `pending()` listed them (units
   that finish early wait their turn), so nothing depends on which answer came
   back first. After each stage every task may refresh what it derives from
   its new answers (`Task.after_applied`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import aiosqlite

from jobtracker import files, store
from jobtracker.clock import now, now_iso
from jobtracker.lease import Lease
from jobtracker.llm.client import LLMClient
from jobtracker.llm.local import run_client
from jobtracker.run.ids import run_id
from jobtracker.run.queue import TaskState, bring_in, choose, survey, survey_between_runs
from jobtracker.run.setup import RunOptions, Setup
from jobtracker.tasks import Context, Task
from jobtracker.telemetry import Telemetry
from jobtracker.workers.events import Reporter

if TYPE_CHECKING:   # the loop's parts load once a run has units to work (not for an empty one)
    from jobtracker.run.feeder import Feeder


@dataclass
class RunResult:
    states: list[TaskState] = field(default_factory=list)   # the queue when the run began
    model_reason: str | None = None     # set when no model could be used
    # Models the server is up but does not list (task → why): a configuration error,
    # whether it stopped the whole run (the default model) or only its task.
    unlisted: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=lambda: {
        "finished": 0, "failed": 0, "skipped": 0})
    worked: list[str] = field(default_factory=list)          # tasks that had units submitted
    elapsed: float = 0.0
    run_dir: Path | None = None
    reporter_errors: list[str] = field(default_factory=list)   # reporters that stopped, why
    brought_in: int = 0      # rows stored before the survey (intake: mail read, ...)

    @property
    def exit_code(self) -> int:
        """1 when units were attempted and every one of them failed; else 0."""
        attempted = self.counts["finished"] + self.counts["failed"]
        return 1 if attempted and self.counts["failed"] == attempted else 0


class Run:
    """One run of the loop over an open workspace: a feeder per task, the ledger and
    the budget they share, and the job loop that runs their units."""

    def __init__(self, conn: aiosqlite.Connection, ctx: Context, client: LLMClient,
                 tasks: list[Task], options: RunOptions, reporters: list[Reporter],
                 telemetry: Telemetry, model_reasons: dict[str, str | None],
                 concurrency: int) -> None:
        # The loop's parts (OpenTelemetry's API among them): only a run with work builds one.
        from jobtracker.run.database import Database
        from jobtracker.run.feeder import Budget, Feeder
        from jobtracker.run.ledger import Ledger
        from jobtracker.workers.loop import JobLoop

        self.ctx, self.tasks, self.options, self.telemetry = ctx, tasks, options, telemetry
        self.model_reasons = model_reasons
        self.db = Database(conn)
        self.ledger = Ledger(self.db)
        self.budget = Budget(options.budget)
        self.feeders = {t.name: Feeder(t, self.db, ctx, client, self.ledger, self.budget,
                                       telemetry.tracer if telemetry.tracing else None,
                                       low_water=max(4, concurrency * 2),
                                       on_store_error=self._store_failed)
                        for t in tasks}
        self.store_error: store.StoreError | None = None
        # A settled unit may give later stages work in this run, unless it is pinned to one.
        if options.continuous and options.task is None:
            for feeder in self.feeders.values():
                feeder.followers = [f for f in self.feeders.values()
                                    if f.task.priority > feeder.task.priority]
        self.loop = JobLoop(self.feeders, concurrency=concurrency,
                            priorities={t.name: t.priority for t in tasks},
                            reporters=reporters)

    @property
    def worked(self) -> list[str]:
        """Tasks that had units submitted, in the order they first did."""
        return list(self.budget.spent)

    # --- control, for signals and the TUI -------------------------------------------

    def pause(self) -> None:
        self.loop.pause()

    def resume(self) -> None:
        self.loop.resume()

    def stop(self) -> None:
        """Start nothing more; units in flight finish and are kept."""
        self.budget.stop()
        self.loop.stop()

    def _store_failed(self, error: store.StoreError) -> None:
        """The database cannot be written (disk full, damage): stop, and let work() end
        with that error, one line and exit 2, rather than fail every unit after it."""
        if self.store_error is None:
            self.store_error = error
        self.stop()

    def at_deadline(self, client: LLMClient) -> None:
        """--deadline passed: start nothing more, and end the retry waits of units in
        flight (they fail, recorded as failures), so no retry outlives the deadline."""
        self.stop()
        client.stop_retrying()

    # --- stages ----------------------------------------------------------------------

    async def drain(self, feeder: Feeder) -> None:
        """Work one task until nothing is pending, the budget is spent, or stop()."""
        from opentelemetry import trace

        feeder.draining = True
        self.loop.stage = feeder.task.name
        with self.telemetry.tracer.start_as_current_span(
                "task.run", attributes={"task.name": feeder.task.name}) as span:
            stage = trace.set_span_in_context(span)
            for each in self.feeders.values():   # follow-ups nest under this stage too
                each.span_context = stage
            while not self.budget.stopped:
                batch = await feeder.next_batch()
                if not batch:
                    break
                for unit in batch:
                    self.loop.submit(unit)
                await self.loop.run()
        feeder.draining = False
        for each in self.feeders.values():
            await each.refresh_derived()

    async def work(self, states: list[TaskState]) -> None:
        await self._work(states)
        if self.store_error is not None:
            raise self.store_error

    async def _work(self, states: list[TaskState]) -> None:
        await self.ledger.read(self.tasks, self.ctx)
        if not self.options.continuous:
            chosen = choose(states, self.options.task)
            if chosen is not None:
                await self.drain(self.feeders[chosen.name])
            return
        while not self.budget.stopped:
            progressed = False
            for state in states:
                if state.has_work and (self.options.task in (None, state.name)):
                    before = self.loop.counts
                    await self.drain(self.feeders[state.name])
                    progressed |= self.loop.counts != before
            if not progressed or self.budget.stopped:
                return
            async with self.db.lock:
                states = await survey(self.db.conn, self.ctx, self.tasks, self.model_reasons)
            if not any(s.has_work for s in states):
                return


async def without_model(conn: aiosqlite.Connection, setup: Setup) -> None:
    """The run's work that asks no model, after the stages: propose `ghosted` for
    applications silent too long (jobtracker/tracker/ghosting.py)."""
    from jobtracker import tracker  # the tracker and its proposal kinds: `--run`'s end alone

    async with store.write(conn):
        await tracker.propose_ghosted(conn, setup.config.followup, now_iso())


async def rescore(setup: Setup) -> int:
    """Recompute every judged posting's score; needs no model (the second half of `rank`)."""
    from jobtracker.ranking import scoring

    async with store.connect(setup.ws.db) as conn:
        return await scoring.rescore(conn, setup.profile, now_iso())


async def dry_run(setup: Setup) -> tuple[list[TaskState], TaskState | None]:
    """The queue, without the lease or a model. Changes nothing but a first migration."""
    async with store.connect(setup.ws.db) as conn:
        states = await queue_between_runs(conn, setup, setup.context(now_iso()))
    return states, None if not states else choose(states)


async def filtered_counts(setup: Setup) -> dict[str, int]:
    """Per rule of `profile.yaml`'s filters, how many postings it keeps from the model
    (and `total`); empty when no filter is set. Changes nothing."""
    if not setup.profile.filters.active:
        return {}
    from jobtracker.ranking import matches  # the matches query: --dry-run with filters alone

    async with store.connect(setup.ws.db) as conn:
        return await matches.filtered_counts(conn, setup.profile, now_iso())


async def queue_between_runs(conn: aiosqlite.Connection, setup: Setup, ctx: Context,
                             model_reasons: dict[str, str | None] | None = None
                             ) -> list[TaskState]:
    """The survey as seen outside a run (a dry run, the dashboard while idle)."""
    return await survey_between_runs(conn, ctx, setup.tasks, model_reasons)


async def _changes(conn: aiosqlite.Connection) -> int:
    """Rows this connection has inserted, updated or deleted so far (SQLite's count)."""
    row = await (await conn.execute("SELECT total_changes()")).fetchone()
    return int(row[0])


async def work(setup: Setup, options: RunOptions, reporters: Sequence[Reporter] = (),
               telemetry: Telemetry | None = None,
               on_start: Callable[[Run], object] | None = None) -> RunResult:
    """One run of `jobtracker work` / `jobtracker-tui --run`. Raises LeaseHeld when
    another run holds the workspace; ConfigError for bad settings."""
    started = now()
    result = RunResult()
    loop = asyncio.get_running_loop()
    # --deadline counts from the start: it bounds the first exchanges (mail brought in,
    # the model probe) as much as the units after them.
    ends_at = loop.time() + options.deadline if options.deadline else None
    with Lease(setup.ws.lock):
        async with store.connect(setup.ws.db) as conn:
            ctx = setup.context(now_iso())
            before = await _changes(conn)
            # With llm.gguf this starts the embedded llama.cpp server for the run.
            async with run_client(setup.config.llm,
                                  max_in_flight=setup.config.concurrency) as client:
                try:
                    async with asyncio.timeout_at(ends_at):
                        await bring_in(conn, ctx, setup.tasks)
                        probe = await client.probe()
                except TimeoutError:
                    probe = client.not_asked(
                        f"the run's --deadline ({options.deadline:g} s) passed before the "
                        "model server was asked")
                result.brought_in = await _changes(conn) - before
                reasons = {t.name: (probe.reason if not probe.ok else client.available_for(t.name))
                           for t in setup.tasks}
                result.states = await survey(conn, ctx, setup.tasks, reasons)
                if probe.reachable:
                    result.unlisted = {task: why for task, why in reasons.items() if why}
                if not probe.ok:
                    result.model_reason = probe.reason
                    if options.continuous:   # `jobtracker-tui --run` ends with it regardless
                        await without_model(conn, setup)
                    return result
                run_dir = setup.ws.runs / run_id(started)
                files.guard_inside(setup.ws.home, run_dir)   # runs/ may not link elsewhere
                run_dir.mkdir(parents=True, exist_ok=True)
                result.run_dir = run_dir
                from jobtracker.workers.reporters import EventsFileReporter

                # Made once there is a model to ask: an empty run loads no OpenTelemetry.
                telemetry = telemetry or Telemetry.from_env()
                events = EventsFileReporter(run_dir / "events.jsonl")
                all_reporters = [*reporters, events, telemetry.reporter()]
                available = [t for t in setup.tasks if reasons[t.name] is None]
                run = Run(conn, ctx, client, available, options, all_reporters, telemetry,
                          reasons, setup.config.concurrency)
                if on_start is not None:
                    on_start(run)
                deadline = (loop.call_at(ends_at, run.at_deadline, client)
                            if ends_at is not None else None)
                try:
                    await run.work(result.states)
                    await without_model(conn, setup)
                finally:
                    if deadline is not None:
                        deadline.cancel()
                    events.close()
                    counts = run.loop.counts
                    result.counts = {k: counts[k] for k in ("finished", "failed", "skipped")}
                    result.worked = run.worked
                    result.elapsed = (now() - started).total_seconds()
                    result.reporter_errors = run.loop.reporter_error_lines
    return result
