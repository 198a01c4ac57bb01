"""The failure ledger, `task_attempts`: failures only, never successes.

A unit that fails `MAX_FAILURES` times in a row is set aside — still counted, never
deleted — and a success clears its row. A set-aside unit whose inputs change has a
new key, so its old row no longer holds anything back.
"""

from __future__ import annotations

from collections.abc import Iterable

import aiosqlite

from jobtracker import store
from jobtracker.clock import now_iso
from jobtracker.run.database import Database
from jobtracker.secrets import redact
from jobtracker.tasks import Context, Task, Unit

MAX_FAILURES = 3


def _subject(value: str) -> int | str:
    return int(value) if value.isdigit() else value


async def live_set_aside(conn: aiosqlite.Connection, task: Task, ctx: Context) -> set[str]:
    """Keys set aside that are still pending. A set-aside unit whose inputs changed has
    a new key, so its old ledger row no longer holds anything back."""
    rows = await conn.execute_fetchall(
        "SELECT unit_key, subject FROM task_attempts WHERE task = ? AND failures >= ?",
        (task.name, MAX_FAILURES))
    live: set[str] = set()
    for key, subject in rows:
        units = await task.pending(conn, ctx, subject=_subject(str(subject)))
        if any(unit.unit_key == str(key) for unit in units):
            live.add(str(key))
    return live


class Ledger:
    """What the ledger holds for each task of a run, read once at its start: set-aside
    keys are never submitted (follow-ups included), and only keys with a row need it
    cleared on success. This run's own failures are not retried in it."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._set_aside: dict[str, set[str]] = {}
        self._on_ledger: dict[str, set[str]] = {}   # keys with a row when the run began

    async def read(self, tasks: Iterable[Task], ctx: Context) -> None:
        async with self.db.lock:
            for task in tasks:
                self._set_aside[task.name] = await live_set_aside(self.db.conn, task, ctx)
                self._on_ledger[task.name] = {str(row[0]) for row in
                                              await self.db.conn.execute_fetchall(
                    "SELECT unit_key FROM task_attempts WHERE task = ?", (task.name,))}

    def set_aside(self, task: str) -> set[str]:
        return self._set_aside.setdefault(task, set())

    def has_row(self, task: str, key: str) -> bool:
        """Whether `key` had a failure row when the run began (a success must clear it)."""
        return key in self._on_ledger.get(task, ())

    async def clear(self, task: str, key: str) -> None:
        """A success resets the count. Runs inside the caller's transaction (which holds
        the lock), so the answer and the cleared row commit together."""
        if self.has_row(task, key):
            await self.db.conn.execute(
                "DELETE FROM task_attempts WHERE task = ? AND unit_key = ?", (task, key))

    async def record_failure(self, task: str, unit: Unit, exc: BaseException) -> None:
        # Redacted before it is cut, so a credential cut in half cannot slip through.
        reason = " ".join(redact(str(exc)).split())[:200] or type(exc).__name__
        async with self.db.lock, store.write(self.db.conn):
            await self.db.conn.execute(
                "INSERT INTO task_attempts (task, unit_key, subject, failures, last_error,"
                " last_attempt) VALUES (?, ?, ?, 1, ?, ?) ON CONFLICT (task, unit_key) DO UPDATE"
                " SET failures = failures + 1, last_error = excluded.last_error,"
                " last_attempt = excluded.last_attempt",
                (task, unit.unit_key, str(unit.subject), reason, now_iso()))
