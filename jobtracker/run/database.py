"""The one connection a run's units share."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import aiosqlite

from jobtracker import store


@dataclass
class Database:
    """A connection and the lock that keeps its statement sequences apart: units run
    concurrently, but one connection runs one transaction at a time."""

    conn: aiosqlite.Connection
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def write_one(self, sql: str, params: tuple[Any, ...]) -> None:
        """One statement that commits on its own: `send_one`, then `written`. The caller
        holds the lock."""
        await self.written(await self.send_one(sql, params))

    async def send_one(self, sql: str, params: tuple[Any, ...]) -> asyncio.Future[Any]:
        """Hand one statement that commits on its own to the connection's thread, now,
        and return what tells when it has run (await it with `written`).

        The connection is in autocommit mode, so SQLite runs the statement as a
        transaction of one statement (all of it or none, waiting for another writer as
        BEGIN IMMEDIATE would): one exchange with the connection's thread instead of
        three (BEGIN, the statement, COMMIT). The thread runs what it is handed one at
        a time, in the order handed, so a statement handed over while the lock is held
        runs before any sequence a later holder of the lock sends: the caller may let
        go of the lock at once, and wait for `written` outside it. A run's answers are
        applied one after the other, so the next unit sends its own while this one is
        still on its way, instead of waiting for the thread to answer it (each answer
        takes the thread a wake-up, a GIL hand-over and a wake-up of the event loop).

        Handed over as aiosqlite's `execute` hands its statements (its private
        `_execute`: a future and the call, put on the thread's queue, which its
        coroutine does only once it first runs, a loop turn later);
        tests/integration/test_run_database.py holds it to that order. The caller holds
        the lock; it returns without giving up the event loop."""
        sent = asyncio.get_running_loop().create_future()
        queue = getattr(self.conn, "_tx", None)
        if queue is None or not getattr(self.conn, "_running", False):
            # Not an aiosqlite this knows (or closed, which execute says as it does): the
            # statement is run, and waited for, before the lock is let go.
            await self.written(asyncio.ensure_future(self.conn.execute(sql, params)))
            sent.set_result(None)
            return sent
        queue.put_nowait((sent, partial(self.conn._conn.execute, sql, params)))
        return sent

    async def written(self, sent: asyncio.Future[Any]) -> None:
        """Wait for a statement `send_one` handed over, its errors phrased as
        `store.write` phrases them. Needs no lock."""
        try:
            await sent
        except sqlite3.DatabaseError as exc:
            error = store.explain(await store._file_of(self.conn), exc)
            if error is None:
                raise
            raise error from None
