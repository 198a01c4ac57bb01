"""The SQLite store: schema, forward-only migrations, and `connect()`.

This module is the single owner of how the database is opened. Every
connection — the CLI's, the runner's, the TUI's — comes from `connect()`, so
every one of them has WAL, a busy timeout, foreign keys, and the
`description_hash` SQL function that the pending queries and indexes use.

Writers start their transactions with `BEGIN IMMEDIATE` (see `write()`): a
transaction that reads and then writes would otherwise fail with SQLITE_BUSY
at once when another process committed in between, ignoring busy_timeout.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 30_000


class StoreError(Exception):
    """The database cannot be used as it is (for example, it is newer than this code)."""


def description_hash(text: str | None) -> str:
    """The one definition of a description's hash: sha256, first 16 hex chars.

    NULL and empty text hash to ''. Registered as a deterministic SQL function of
    the same name on every connection, so SQL and Python always agree.
    """
    if not text:
        return ""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def list_migrations() -> list[tuple[int, str, str]]:
    """(version, name, sql) for every migration file, in version order.

    A migration is one file `NNNN_name.sql` in `jobtracker/store/migrations/`;
    adding a table is adding a file.
    """
    found = []
    for entry in resources.files("jobtracker.store.migrations").iterdir():
        name = entry.name
        if not name.endswith(".sql"):
            continue
        version = int(name.split("_", 1)[0])
        found.append((version, name, entry.read_text(encoding="utf-8")))
    found.sort()
    versions = [v for v, _, _ in found]
    # Versions run 1, 2, 3, ... with no gap: a database at version N is taken to have
    # every migration up to N, so one numbered below N arriving later would never run.
    if versions != list(range(1, len(versions) + 1)):
        raise StoreError(f"migration versions must be 1..N with no gap or repeat: {versions}")
    return found


def _split_statements(sql: str) -> list[str]:
    """Split a migration into statements without executescript (which commits)."""
    statements, buf = [], ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                statements.append(buf.strip())
            buf = ""
    if buf.strip():
        statements.append(buf.strip())
    return statements


async def _migrate(conn: aiosqlite.Connection, path: Path) -> None:
    current = (await (await conn.execute("PRAGMA user_version")).fetchone())[0]
    known = list_migrations()
    latest = known[-1][0] if known else 0
    if current > latest:
        raise StoreError(
            f"{path}: the database is at schema version {current}, newer than this "
            f"jobtracker understands ({latest}); upgrade jobtracker"
        )
    for version, name, sql in known:
        if version <= current:
            continue
        await conn.execute("BEGIN IMMEDIATE")
        try:
            # Re-read inside the write lock: another process may have migrated.
            row = await (await conn.execute("PRAGMA user_version")).fetchone()
            if row[0] >= version:
                await conn.execute("ROLLBACK")
                continue
            for statement in _split_statements(sql):
                await conn.execute(statement)
            await conn.execute(f"PRAGMA user_version = {version}")
            await conn.execute("COMMIT")
        except BaseException:
            await conn.execute("ROLLBACK")
            raise
        log.info("applied migration %s", name)


async def _use_wal(conn: aiosqlite.Connection) -> None:
    """Switch the file to WAL once. Two processes opening a brand-new database at once
    race for the switch, and SQLite answers "database is locked" to the loser at once,
    without waiting for busy_timeout: so check first, and retry briefly."""
    delay = 0.01
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        row = await (await conn.execute("PRAGMA journal_mode")).fetchone()
        if str(row[0]).lower() == "wal":
            return
        try:
            await conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
        await asyncio.sleep(delay)
        delay = min(delay * 2, 0.5)


async def open_connection(path: Path) -> aiosqlite.Connection:
    """Open, configure and migrate a connection. Prefer `connect()`, which closes it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await _use_wal(conn)
        await conn.execute("PRAGMA synchronous = NORMAL")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.create_function("description_hash", 1, description_hash, deterministic=True)
        await _migrate(conn, path)
    except BaseException:
        await conn.close()
        raise
    return conn


@asynccontextmanager
async def connect(path: Path) -> AsyncIterator[aiosqlite.Connection]:
    """A configured, migrated connection that is always closed.

    aiosqlite runs each connection in a non-daemon thread, so an unclosed one
    hangs the interpreter at exit; this context manager is the only sanctioned
    way to hold one.
    """
    conn = await open_connection(path)
    try:
        yield conn
    finally:
        await conn.close()


@asynccontextmanager
async def write(conn: aiosqlite.Connection) -> AsyncIterator[aiosqlite.Connection]:
    """One writing transaction: BEGIN IMMEDIATE, COMMIT on success, ROLLBACK on error."""
    await conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        await conn.execute("ROLLBACK")
        raise
    await conn.execute("COMMIT")


async def integrity_check(conn: aiosqlite.Connection) -> str:
    row = await (await conn.execute("PRAGMA integrity_check")).fetchone()
    return str(row[0])
