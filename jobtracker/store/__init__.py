"""The SQLite store: schema, forward-only migrations, and `connect()`.

This module is the single owner of how the database is opened. Every
connection — the CLI's, the runner's, the TUI's — comes from `connect()`, so
every one of them has WAL, a busy timeout, foreign keys, and the
`description_hash` SQL function that the pending queries and indexes use.

Writers start their transactions with `BEGIN IMMEDIATE` (see `write()`): a
transaction that reads and then writes would otherwise fail with SQLITE_BUSY
at once when another process committed in between, ignoring busy_timeout.

A database that cannot be used — read-only, damaged, truncated, a folder, a
table missing, the disk full — is a `StoreError` whose message is one line for
people: what is wrong, with which file, and what to do (see `explain()`). The
commands turn it into exit 2; nobody sees a traceback.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 30_000


class StoreError(Exception):
    """The workspace's state cannot be used as it is: the database is newer than this
    code, damaged, read-only, missing a table, on a full disk (or the lock file is
    unsafe). `str()` is one line: what, which file, what to do."""


_MOVE_ASIDE = "restore it from a backup, or move it aside to start a new, empty one"


def explain(path: Path, exc: BaseException) -> StoreError | None:
    """`exc`, raised while using the database at `path`, as a StoreError for people;
    None when it is not about the file (a constraint, a bug: those stay as they are)."""
    if isinstance(exc, StoreError):
        return exc
    if isinstance(exc, UnicodeDecodeError):
        # Every text jobtracker stores is UTF-8: text that does not decode is damage.
        return StoreError(f"{path}: the database is damaged (text that is not UTF-8 where "
                          f"SQLite keeps its settings or schema); {_MOVE_ASIDE}")
    if isinstance(exc, OSError):
        return StoreError(f"{path.parent}: cannot create the workspace folder: "
                          f"{exc.strerror or exc}; check the path and its permissions")
    if not isinstance(exc, sqlite3.DatabaseError) or isinstance(exc, sqlite3.IntegrityError):
        return None
    code = getattr(exc, "sqlite_errorname", "") or ""
    said = " ".join(str(exc).split())
    if code == "SQLITE_FULL" or "disk is full" in said:
        return StoreError(f"{path}: disk full while writing the database; the write was "
                          "rolled back and nothing before it is lost. Free some space and "
                          "run again")
    if code.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "malformed" in said \
            or "not a database" in said:
        return StoreError(f"{path}: the database is damaged (SQLite: {said}); {_MOVE_ASIDE}")
    if code.startswith("SQLITE_READONLY") or "readonly" in said:
        return StoreError(f"{path}: the database cannot be written (SQLite: {said}); make "
                          "the file and its folder writable")
    if code.startswith("SQLITE_CANTOPEN") or "unable to open" in said:
        if path.is_dir():
            return StoreError(f"{path}: is a folder, not a database file; move it aside "
                              "(a new database is then created) or choose another --home")
        if path.parent.is_dir() and not os.access(path.parent, os.W_OK):
            return StoreError(f"{path.parent}: the workspace folder is read-only; jobtracker "
                              "writes its database (and journal) there: make it writable")
        return StoreError(f"{path}: cannot open or create the database (SQLite: {said}); "
                          f"check that {path.parent} exists and is writable")
    if code.startswith("SQLITE_IOERR") or "I/O error" in said:
        return StoreError(f"{path}: disk I/O error on the database (SQLite: {said}); check "
                          "the disk and its free space, then run `jobtracker check`")
    if code.startswith("SQLITE_PERM") or code.startswith("SQLITE_AUTH"):
        return StoreError(f"{path}: access to the database denied (SQLite: {said}); check "
                          "the file's permissions")
    if said.startswith(("no such table", "no such column")):
        return StoreError(f"{path}: the database lacks part of its schema (SQLite: {said}); "
                          f"{_MOVE_ASIDE}")
    if code.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in said:
        return StoreError(f"{path}: the database is busy: another process has held its "
                          f"write lock for more than {BUSY_TIMEOUT_MS // 1000:g} s "
                          f"({holders(path)}); this command changed nothing. Try again "
                          "when that process ends")
    return None


def holders(path: Path, limit: int = 3) -> str:
    """Which other processes have the database open (from /proc: pid and command line),
    to say who holds a lock SQLite itself does not name; a plain phrase elsewhere."""
    wanted = {str(path.resolve()), f"{path.resolve()}-wal"}
    found: list[str] = []
    try:
        pids = [entry for entry in os.listdir("/proc") if entry.isdigit()]
    except OSError:
        return "which one cannot be seen here"
    for pid in pids:
        if int(pid) == os.getpid() or len(found) >= limit:
            continue
        try:
            opened = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
            if not opened & wanted:
                continue
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                words = handle.read(600).split(b"\0")
        except OSError:            # gone, or not ours to look at
            continue
        command = " ".join(" ".join(w.decode("utf-8", "replace") for w in words).split())[:120]
        found.append(f"pid {pid}: {command}" if command else f"pid {pid}")
    return "; ".join(found) if found else "no other process is seen with it open"


# The statements that can change which tables exist: a table made (virtual ones make
# their shadow tables too), dropped or renamed. Indexes, triggers, rows and added columns
# cannot, and skipping them makes the check's first use ~5 times cheaper (some 20 ms of
# every command that opens the store); tests/unit/test_store.py checks the two agree.
_TABLE_STATEMENT = re.compile(
    r"(?:\s|--[^\n]*\n)*(?:CREATE\s+(?:TEMP\s+|TEMPORARY\s+|VIRTUAL\s+)?TABLE|DROP\s+TABLE|"
    r"ALTER\s+TABLE\s+\S+\s+RENAME\s+TO)\b", re.I)


def migrated_tables(every_statement: bool = False) -> frozenset[str]:
    """The tables the migrations leave, found by running them on an empty database in
    memory (so the check can never disagree with the migrations themselves): the
    statements that make, drop or rename tables, or with `every_statement` all of them."""
    memory = sqlite3.connect(":memory:")
    try:
        memory.create_function("description_hash", 1, description_hash, deterministic=True)
        for _version, _name, sql in list_migrations():
            for statement in _split_statements(sql):
                if every_statement or _TABLE_STATEMENT.match(statement):
                    memory.execute(statement)
        return frozenset(row[0] for row in memory.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
    finally:
        memory.close()


@lru_cache(maxsize=1)
def expected_tables() -> frozenset[str]:
    """Every table the migrations create (`migrated_tables`), worked out once a process."""
    return migrated_tables()


async def missing_tables(conn: aiosqlite.Connection) -> list[str]:
    """The expected tables this database lacks (a table dropped by hand, say)."""
    present = {str(row[0]) for row in await conn.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    return sorted(expected_tables() - present)


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


async def _pragma(conn: aiosqlite.Connection, name: str) -> Any:
    """The value a reading PRAGMA answers (one row, one column)."""
    row = await (await conn.execute(f"PRAGMA {name}")).fetchone()
    if row is None:
        raise sqlite3.DatabaseError(f"PRAGMA {name} answered no row")
    return row[0]


async def _migrate(conn: aiosqlite.Connection, path: Path) -> None:
    current = await _pragma(conn, "user_version")
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
            if await _pragma(conn, "user_version") >= version:
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
    # Every migration ran, yet a table can be gone (dropped by hand, a bad restore):
    # say so now rather than with "no such table" in the middle of a command.
    missing = await missing_tables(conn)
    if missing:
        raise StoreError(f"{path}: the database lacks the table(s) {', '.join(missing)} "
                         f"(at schema version {latest}); {_MOVE_ASIDE}")


async def _use_wal(conn: aiosqlite.Connection) -> None:
    """Switch the file to WAL once. Two processes opening a brand-new database at once
    race for the switch, and SQLite answers "database is locked" to the loser at once,
    without waiting for busy_timeout: so check first, and retry briefly."""
    delay = 0.01
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        if str(await _pragma(conn, "journal_mode")).lower() == "wal":
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
    """Open, configure and migrate a connection. Prefer `connect()`, which closes it.
    A database that cannot be used raises StoreError, phrased for people."""
    try:
        return await _open_connection(path)
    except (sqlite3.Error, OSError, UnicodeDecodeError) as exc:
        error = explain(path, exc)
        if error is None:
            raise
        raise error from None


async def _open_connection(path: Path) -> aiosqlite.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    # A new database is made 0600 here: SQLite gives its -wal and -shm files the
    # database file's own mode, and it holds mail and applications. Anything that
    # stops this (it exists; a read-only folder) is left for SQLite to say below.
    with suppress(OSError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600))
    # Open once in this thread first: when aiosqlite's own open fails, its worker
    # thread outlives the event loop and prints a traceback at exit.
    sqlite3.connect(path).close()
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
        await close(conn)
        raise
    return conn


async def close(conn: aiosqlite.Connection) -> None:
    """Close `conn`, and when the closing is itself cancelled, wait here for the
    connection's thread to finish what it was given.

    A TUI that quits cancels its workers, and `asyncio.run` then cancels whatever is
    left: a close can be cancelled more than once. aiosqlite's thread carries on with
    the queued statements and then answers their futures through the event loop; if
    the loop has closed by then, the thread dies raising "Event loop is closed". So a
    cancelled close blocks the loop (its own thread) until that thread has stopped —
    a statement's time, at most the busy timeout — and then lets the cancel go on.
    """
    try:
        await conn.close()
    except asyncio.CancelledError:
        # close() has queued the thread's stop already, whatever await it was cancelled at.
        thread = getattr(conn, "_thread", None)   # aiosqlite's worker (tests pin this)
        if thread is not None and thread.is_alive():
            thread.join(BUSY_TIMEOUT_MS / 1000 + 5)
        raise


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
    except sqlite3.DatabaseError as exc:   # damage or a full disk found mid-command
        error = explain(path, exc)
        if error is None:
            raise
        raise error from None
    finally:
        await close(conn)


async def check_usable(path: Path) -> None:
    """Open, migrate and close the database at `path`: StoreError, phrased for people,
    when it cannot be used (damaged, read-only, a folder, a table missing)."""
    async with connect(path):
        pass


@asynccontextmanager
async def write(conn: aiosqlite.Connection) -> AsyncIterator[aiosqlite.Connection]:
    """One writing transaction: BEGIN IMMEDIATE, COMMIT on success, ROLLBACK on error.

    SQLite rolls back by itself on some errors (a full disk, an I/O error); a ROLLBACK
    after that fails with "no transaction is active" and would hide the real error,
    so the rollback's own failure is ignored and the original error raised."""
    try:
        await conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:    # busy past the timeout: say who holds it
        error = explain(await _file_of(conn), exc)
        if error is None:
            raise
        raise error from None
    try:
        yield conn
        await conn.execute("COMMIT")
    except BaseException as exc:
        with suppress(sqlite3.Error):
            await conn.execute("ROLLBACK")
        if isinstance(exc, sqlite3.DatabaseError):
            error = explain(await _file_of(conn), exc)
            if error is not None:   # "disk full", not "cannot rollback"
                raise error from None
        raise


# --- writing whole rows -----------------------------------------------------------------

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@lru_cache(maxsize=128)
def upsert_sql(table: str, columns: tuple[str, ...], key: tuple[str, ...]) -> str:
    """`INSERT INTO table (columns) ... ON CONFLICT (key) DO UPDATE SET` every other
    column to the value given: the row as given, whether one was stored under its key
    or not. Names are the code's own, never input, and are checked to be plain ones."""
    for name in (table, *columns):
        if not _NAME.match(name):
            raise ValueError(f"not a plain SQL name: {name!r}")
    if not key or not set(key) <= set(columns) or set(key) == set(columns):
        raise ValueError(f"{table}: the key {key} must be some of the columns {columns}")
    updates = ", ".join(f"{column} = excluded.{column}" for column in columns
                        if column not in key)
    return (f"INSERT INTO {table} ({', '.join(columns)}) "
            f"VALUES ({', '.join('?' for _ in columns)}) "
            f"ON CONFLICT ({', '.join(key)}) DO UPDATE SET {updates}")


async def upsert(conn: aiosqlite.Connection, table: str, row: Mapping[str, Any],
                 key: Sequence[str]) -> None:
    """Write `row` (column → value) into `table`, replacing the row stored under the
    same `key` columns, inside the caller's transaction."""
    await conn.execute(upsert_sql(table, tuple(row), tuple(key)), tuple(row.values()))


async def upsert_many(conn: aiosqlite.Connection, table: str,
                      rows: Sequence[Mapping[str, Any]], key: Sequence[str]) -> None:
    """`upsert` for many rows with the same columns, in one statement run for each."""
    if not rows:
        return
    columns = tuple(rows[0])
    await conn.executemany(upsert_sql(table, columns, tuple(key)),
                           [tuple(row[column] for column in columns) for row in rows])


async def _file_of(conn: aiosqlite.Connection) -> Path:
    """The main database file of `conn`, for messages."""
    with suppress(sqlite3.Error):
        for row in await conn.execute_fetchall("PRAGMA database_list"):
            if row[1] == "main":
                return Path(row[2])
    return Path("jobtracker.db")


async def integrity_check(conn: aiosqlite.Connection) -> str:
    """'ok', or SQLite's first problems, joined on one line."""
    rows = await conn.execute_fetchall("PRAGMA integrity_check(20)")
    return "; ".join(str(row[0]) for row in rows)
