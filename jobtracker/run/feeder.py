"""One task's units through a run: listed in batches within the budget, then asked,
parsed and applied in the order they were listed.

A `Feeder` is the job loop's handler for its task. It owns what only its task's
units share — their numbers in the in-order gate, when each was listed, how many
applied — and works with the run's other parts through their methods: the
`Database`, the `Ledger`, the shared `Budget` and, in a continuous run, the
feeders of later tasks that a finished unit may have given work.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import Any, Protocol, runtime_checkable

from opentelemetry.trace import Tracer

from jobtracker import store
from jobtracker.llm.client import LLMClient
from jobtracker.run.database import Database
from jobtracker.run.gate import InOrder
from jobtracker.run.ledger import Ledger
from jobtracker.tasks import Context, Task, Unit
from jobtracker.workers.events import ANSWERED, APPLYING, EventType, report
from jobtracker.workers.job import Job
from jobtracker.workers.loop import release_slot

BATCH = 256          # units read per pending() query
RECHECK_AFTER = 2.0  # seconds a listed unit may wait before done() asks the database again


@runtime_checkable
class OneStatement(Protocol):
    """A task whose `apply` is one SQL statement, which it can also hand over as such
    (jobtracker/tasks/level.py): the same statement, the same label."""

    def apply_statement(self, unit: Unit, result: Any, ctx: Context,
                        model: str) -> tuple[str, tuple[Any, ...], str]: ...


class Budget:
    """How many units the run may still submit, all tasks together, and what it spent
    them on. `stop()` closes it: nothing more is listed."""

    def __init__(self, limit: int | None) -> None:
        self.left = limit
        self.stopped = False
        self.spent: dict[str, int] = {}   # task -> units submitted, in order of first use

    @property
    def used_up(self) -> bool:
        return self.left is not None and self.left <= 0

    @property
    def closed(self) -> bool:
        return self.stopped or self.used_up

    def allows(self, wanted: int) -> int:
        return wanted if self.left is None else min(wanted, self.left)

    def spend(self, task: str) -> None:
        if self.left is not None:
            self.left -= 1
        self.spent[task] = self.spent.get(task, 0) + 1

    def stop(self) -> None:
        self.stopped = True


class Feeder:
    """The job loop's handler for one task's units: list, ask, parse, apply in order."""

    def __init__(self, task: Task, db: Database, ctx: Context, client: LLMClient,
                 ledger: Ledger, budget: Budget, tracer: Tracer | None, *, low_water: int,
                 on_store_error: Callable[[store.StoreError], None] = lambda exc: None) -> None:
        self.task, self.db, self.ctx, self.client = task, db, ctx, client
        # The database itself failed (disk full, damage): no later unit can be written
        # either, so the run is told and stops, instead of failing every unit in turn.
        self.on_store_error = on_store_error
        # Where each unit's span goes; None when telemetry is off (no span is made).
        self.ledger, self.budget, self.tracer = ledger, budget, tracer
        self.low_water = low_water
        self.gate = InOrder()
        self.listed_at: dict[str, float] = {}
        self.applied = 0
        self.followers: list[Feeder] = []   # later tasks a finished unit may give work
        self.draining = False               # this task's stage is the one being worked
        self.span_context: Any = None       # the stage span its units' spans nest under
        self._refreshed = 0                 # `applied` when derived data was last refreshed
        self._clock = asyncio.get_running_loop().time
        self._one_statement = task if isinstance(task, OneStatement) else None

    # --- listing -------------------------------------------------------------------

    def take(self, units: Iterable[Unit]) -> list[Unit]:
        """Number fresh units for submission, within the budget. Skips set-aside ones and
        ones already submitted in this run (a failure is never retried in the same run)."""
        set_aside = self.ledger.set_aside(self.task.name)
        fresh = []
        for unit in units:
            if self.budget.used_up:
                break
            key = unit.unit_key
            if key in self.gate or key in set_aside:
                continue
            self.gate.take(key)
            self.listed_at[key] = self._clock()
            self.budget.spend(self.task.name)
            fresh.append(unit)
        return fresh

    async def next_batch(self) -> list[Unit]:
        if self.budget.closed:
            return []
        # Units submitted but not applied, and set-aside ones, are still listed by
        # pending(): read past them to get a full batch of fresh ones.
        skip = len(self.gate) - self.applied + len(self.ledger.set_aside(self.task.name))
        async with self.db.lock:
            units = await self.task.pending(self.db.conn, self.ctx,
                                            limit=self.budget.allows(BATCH) + skip)
        return self.take(units)

    async def listed_for(self, subject: int | str) -> list[Unit]:
        """This task's fresh units about `subject` (a follow-up of another task's unit)."""
        async with self.db.lock:
            units = await self.task.pending(self.db.conn, self.ctx, subject=subject)
        return self.take(units)

    # --- the job loop's handler ------------------------------------------------------

    async def done(self, unit: Unit) -> bool:
        """Skip-on-done: the unit is no longer pending (answered or changed since it was
        listed). A unit listed moments ago is its own check — pending() just listed it
        and this run holds the workspace — so only one that waited is asked again."""
        listed = self.listed_at.pop(unit.unit_key, None)
        if listed is not None and self._clock() - listed < RECHECK_AFTER:
            return False
        try:
            async with self.db.lock:
                is_done = not await self._still_pending(unit)
        except BaseException:
            self.gate.advance(unit.unit_key)
            raise
        if is_done:
            self.gate.advance(unit.unit_key)
        return is_done

    async def _still_pending(self, unit: Unit) -> bool:
        """Whether `unit` is still listed by pending(). Units that waited long enough to
        need this usually wait together (a slow server, a busy machine), so one query
        lists again every unit this run has listed and not applied, and each unit still
        waiting that it finds counts as listed now: the units behind this one need no
        query of their own. The caller holds the database lock."""
        key = unit.unit_key
        limit = len(self.gate) - self.applied + len(self.ledger.set_aside(self.task.name))
        live = await self.task.pending(self.db.conn, self.ctx, limit=limit)
        keys = {other.unit_key for other in live}
        now = self._clock()
        for other in keys & self.listed_at.keys():
            self.listed_at[other] = now
        if key in keys:
            return True
        if len(live) < limit:      # the whole list: the unit is not in it
            return False
        # Rows newer than this run's (another process stored postings) can push the unit
        # past the limit: only its own subject tells.
        live = await self.task.pending(self.db.conn, self.ctx, subject=unit.subject)
        return any(other.unit_key == key for other in live)

    async def run(self, unit: Unit) -> str | None:
        if self.tracer is None:    # telemetry is off: no span for the unit
            return await self._ask_and_apply(unit)
        with self.tracer.start_as_current_span(
                "task.unit", context=self.span_context,
                attributes={"task.name": self.task.name}) as span:
            try:
                label = await self._ask_and_apply(unit)
            except BaseException as exc:
                span.set_attribute("task.outcome", "failed")
                span.record_exception(exc)
                raise
            span.set_attribute("task.outcome", "finished")
            return label

    async def follow_ups(self, unit: Unit, result: str | None) -> list[Job]:
        fresh: list[Job] = []
        if result is not None:
            for later in self.followers:
                fresh += await later.listed_for(unit.subject)
        # Keep the loop fed: top up this task's queue before it runs dry, from
        # inside a finishing unit, so the loop never sees an empty queue mid-stage.
        if self.gate.open < self.low_water and self.draining:
            fresh += await self.next_batch()
        return fresh

    # --- one unit ----------------------------------------------------------------------

    async def _ask_and_apply(self, unit: Unit) -> str:
        task, key = self.task, unit.unit_key
        try:
            request = task.request(unit, self.ctx)
            answer = await self.client.ask(task.name, request.messages, request.schema,
                                           unit_key=key)
            result = task.parse(unit, answer.data, self.ctx)
        except asyncio.CancelledError:
            self.gate.advance(key)
            raise
        except Exception as exc:
            self._leave_slot(key)      # no more calls for this unit: its failure is written
            try:
                await self.gate.turn(key)
                await self._record_failure(unit, exc)
            finally:
                self.gate.advance(key)
            raise
        self._leave_slot(key)
        try:
            await self.gate.turn(key)
            report(EventType.JOB_PROGRESS, phase=APPLYING)
            label = await self._apply(unit, result, answer.model)
        except asyncio.CancelledError:
            raise
        except store.StoreError as exc:
            self.on_store_error(exc)
            raise
        except Exception as exc:
            # _apply() raised: its transaction rolled back; the unit is a failure.
            await self._record_failure(unit, exc)
            raise
        finally:
            self.gate.advance(key)
        self.applied += 1
        return label

    def _leave_slot(self, key: str) -> None:
        """The unit asks nothing more: its model slot goes to the next unit while this one
        waits its turn and writes (a slow answer ahead no longer idles the server). When
        it has to wait, it says so (`answered`), so the dashboard counts it as writing."""
        if release_slot() and not self.gate.is_next(key):
            report(EventType.JOB_PROGRESS, phase=ANSWERED)

    async def _record_failure(self, unit: Unit, exc: Exception) -> None:
        try:
            await self.ledger.record_failure(self.task.name, unit, exc)
        except store.StoreError as error:
            self.on_store_error(error)
            raise

    async def _apply(self, unit: Unit, result: Any, model: str) -> str:
        """Write one unit's result and clear its ledger row, in one transaction. A task
        that writes its answer with one statement (`OneStatement`), for a unit with no
        ledger row, commits that statement on its own: atomic all the same, and one
        exchange with the database thread instead of three."""
        task = self.task
        if self._one_statement is not None and not self.ledger.has_row(task.name,
                                                                        unit.unit_key):
            sql, params, label = self._one_statement.apply_statement(unit, result, self.ctx,
                                                                     model)
            async with self.db.lock:
                await self.db.write_one(sql, params)
            return label
        async with self.db.lock, store.write(self.db.conn):
            label = await task.apply(self.db.conn, unit, result, self.ctx, model)
            await self.ledger.clear(task.name, unit.unit_key)
        return label

    # --- after a stage -----------------------------------------------------------------

    async def refresh_derived(self) -> None:
        """Let the task refresh what it derives from its answers, when it applied new
        ones since the last time (its units also run as follow-ups in other stages)."""
        fresh = self.applied - self._refreshed
        if fresh:
            self._refreshed = self.applied
            async with self.db.lock:
                await self.task.after_applied(self.db.conn, self.ctx, fresh)
