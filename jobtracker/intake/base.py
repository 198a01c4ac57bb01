"""What an intake step is: work a run does before the survey that brings outside input
(mail) into the database. It asks no model; the tasks that read what it stored name it
in their `intake` declaration."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    import aiosqlite

    from jobtracker.tasks.base import Context


class Step:
    """Base class of an intake step. Subclasses set `name` and override `bring_in`."""

    name: ClassVar[str]      # what a task's `intake` names it by

    async def bring_in(self, conn: aiosqlite.Connection, ctx: Context) -> None:
        """Store new outside input, at the start of a run under the workspace lease. An
        input that cannot be read is recorded as `ctx.run.intake_failures[name]` (the
        reason), never raised: the run goes on without it."""

    async def waiting(self, conn: aiosqlite.Connection, ctx: Context) -> int:
        """Units' worth of input `bring_in` would store now, counted without changing
        anything: the queue between runs (`--dry-run`, the idle dashboard) shows it as
        pending work of the tasks that read it."""
        return 0
