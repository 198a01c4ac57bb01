"""The queue: what each task could do now, and which task a run works."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import aiosqlite

from jobtracker import intake
from jobtracker.run.ledger import live_set_aside
from jobtracker.tasks import Context, Task


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


def choose(states: Sequence[TaskState], pinned: str | None = None) -> TaskState | None:
    """The pinned task if it has work, else the first task in priority order with work."""
    for state in states:
        if (pinned is None or state.name == pinned) and state.has_work:
            return state
    return None


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


async def survey_between_runs(conn: aiosqlite.Connection, ctx: Context, tasks: Sequence[Task],
                              model_reasons: dict[str, str | None] | None = None
                              ) -> list[TaskState]:
    """The survey as seen outside a run (a dry run, the dashboard while idle). Input
    that a run would bring in first (new mail) is not in the database yet, and reading
    it in would be a change; each available task counts what its intake steps would
    bring as work instead (`intake.waiting`), so new input never shows as nothing to do."""
    states = await survey(conn, ctx, tasks, model_reasons)
    shown = []
    for task, state in zip(tasks, states, strict=True):
        waiting = await intake.waiting(conn, ctx, task) if state.available else 0
        shown.append(replace(state, pending=state.pending + waiting) if waiting else state)
    return shown


async def bring_in(conn: aiosqlite.Connection, ctx: Context, tasks: Sequence[Task]) -> None:
    """Before the survey: the intake steps these tasks read from bring their outside
    input into the database (mail; jobtracker/intake), then every task brings what it
    derives from the database up to date (`Task.bring_in`: judge's pre-rank)."""
    await intake.bring_in(conn, ctx, tasks)
    for task in tasks:
        await task.bring_in(conn, ctx)
