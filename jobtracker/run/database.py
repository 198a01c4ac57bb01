"""The one connection a run's units share."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass, field
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
        """One statement that commits on its own: the connection is in autocommit mode,
        so SQLite runs it as a transaction of one statement (all of it or none, waiting
        for another writer as BEGIN IMMEDIATE would). One exchange with the
        connection's thread instead of three (BEGIN, the statement, COMMIT): a run's
        answers are applied one after the other, so each exchange is on its critical
        path. Errors are phrased as `store.write` phrases them. The caller holds the
        lock."""
        try:
            await self.conn.execute(sql, params)
        except sqlite3.DatabaseError as exc:
            error = store.explain(await store._file_of(self.conn), exc)
            if error is None:
                raise
            raise error from None
