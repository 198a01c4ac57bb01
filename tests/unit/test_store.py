"""The store: connect(), migrations, the description_hash function, concurrent writers."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from jobtracker import store


def test_description_hash_definition() -> None:
    assert store.description_hash(None) == ""
    assert store.description_hash("") == ""
    assert store.description_hash("abc") == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"[:16])


async def test_sql_function_agrees_with_python(tmp_path: Path) -> None:
    async with store.connect(tmp_path / "db.sqlite") as conn:
        for text in ["abc", "", None, "ünïcødé\n"]:
            row = await (await conn.execute("SELECT description_hash(?)", (text,))).fetchone()
            assert row[0] == store.description_hash(text)


async def test_connect_sets_wal_foreign_keys_and_migrates(tmp_path: Path) -> None:
    async with store.connect(tmp_path / "db.sqlite") as conn:
        assert (await (await conn.execute("PRAGMA journal_mode")).fetchone())[0] == "wal"
        assert (await (await conn.execute("PRAGMA foreign_keys")).fetchone())[0] == 1
        version = (await (await conn.execute("PRAGMA user_version")).fetchone())[0]
        assert version == store.list_migrations()[-1][0]
        tables = {r[0] for r in await conn.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"postings", "task_attempts", "applications"} <= tables


async def test_newer_database_than_code_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    async with store.connect(path) as conn:
        await conn.execute("PRAGMA user_version = 999")
    with pytest.raises(store.StoreError, match="newer than this jobtracker"):
        async with store.connect(path):
            pass


async def test_write_rolls_back_on_error(tmp_path: Path) -> None:
    async with store.connect(tmp_path / "db.sqlite") as conn:
        with pytest.raises(RuntimeError):
            async with store.write(conn):
                await conn.execute(
                    "INSERT INTO task_attempts (task, unit_key, last_attempt) VALUES ('t','k','x')")
                raise RuntimeError("boom")
        rows = await conn.execute_fetchall("SELECT * FROM task_attempts")
        assert rows == []


WRITER = textwrap.dedent("""
    import asyncio, sys
    from pathlib import Path
    from jobtracker import store

    async def main(path, who, n):
        async with store.connect(Path(path)) as conn:
            for i in range(n):
                async with store.write(conn):
                    row = await (await conn.execute(
                        "SELECT COUNT(*) FROM task_attempts")).fetchone()
                    await conn.execute(
                        "INSERT INTO task_attempts (task, unit_key, failures, last_attempt)"
                        " VALUES (?, ?, ?, 'now')", (who, str(i), row[0]))
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
""")


@pytest.mark.parametrize("attempt", range(4))
def test_two_processes_write_at_once_without_database_locked(tmp_path: Path,
                                                             attempt: int) -> None:
    """Two processes open a brand-new database at once (racing to create it and switch
    it to WAL) and then interleave read-then-write transactions: both finish. Repeated,
    because the creation race is a matter of timing."""
    path = tmp_path / "db.sqlite"
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), who, "100"],
                              stderr=subprocess.PIPE, text=True) for who in ("a", "b")]
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errors
    import sqlite3

    with sqlite3.connect(path) as conn:
        counts = dict(conn.execute("SELECT task, COUNT(*) FROM task_attempts GROUP BY task"))
    assert counts == {"a": 100, "b": 100}


async def test_upsert_writes_a_whole_row_and_replaces_the_one_under_its_key(
        tmp_path: Path) -> None:
    async with store.connect(tmp_path / "db.sqlite") as conn:
        row = {"account": "ada@imap:993", "folder": "INBOX", "uidvalidity": 7, "last_uid": 10,
               "synced_at": "t1"}
        async with store.write(conn):
            await store.upsert(conn, "imap_folders", row, key=["account", "folder"])
            await store.upsert(conn, "imap_folders", {**row, "folder": "Jobs"},
                               key=["account", "folder"])
            await store.upsert(conn, "imap_folders", {**row, "last_uid": 12, "synced_at": "t2"},
                               key=["account", "folder"])
        rows = await conn.execute_fetchall(
            "SELECT folder, uidvalidity, last_uid, synced_at FROM imap_folders ORDER BY folder")
        assert [tuple(r) for r in rows] == [("INBOX", 7, 12, "t2"), ("Jobs", 7, 10, "t1")]


def test_upsert_sql_names_every_column_but_the_key_and_refuses_odd_names() -> None:
    sql = store.upsert_sql("scores", ("posting_id", "score", "parts"), ("posting_id",))
    assert sql == ("INSERT INTO scores (posting_id, score, parts) VALUES (?, ?, ?) "
                   "ON CONFLICT (posting_id) DO UPDATE SET score = excluded.score, "
                   "parts = excluded.parts")
    for table, columns, key in [("scores; DROP TABLE x", ("a", "b"), ("a",)),
                                ("scores", ("a", "b c"), ("a",)),
                                ("scores", ("a", "b"), ("c",)),
                                ("scores", ("a",), ("a",))]:
        with pytest.raises(ValueError):
            store.upsert_sql(table, columns, key)


def test_a_connection_cancelled_again_while_closing_leaves_no_thread_behind(
        tmp_path: Path) -> None:
    """A TUI that quits mid-read cancels the reading worker, then asyncio.run cancels what
    is left: `connect`'s close was cancelled too, aiosqlite's thread finished the
    statement after the loop had closed and died raising "Event loop is closed" (seen as
    a failed TUI test under load). A cancelled close now waits for that thread."""
    errors: list[threading.ExceptHookArgs] = []
    before = set(threading.enumerate())
    previous = threading.excepthook
    threading.excepthook = errors.append

    async def read(started: asyncio.Event) -> None:
        async with store.connect(tmp_path / "db.sqlite") as conn:
            await conn.create_function("slow", 0, lambda: time.sleep(0.3) or 1)
            started.set()
            await conn.execute("SELECT slow()")

    async def cancelled_three_times() -> None:
        started = asyncio.Event()
        task = asyncio.create_task(read(started))
        await started.wait()
        for _ in range(3):                  # the read, then each await of the close
            for _ in range(3):
                await asyncio.sleep(0)
            task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    try:
        asyncio.run(cancelled_three_times())      # the loop closes straight after
        for thread in set(threading.enumerate()) - before:
            thread.join(5)
    finally:
        threading.excepthook = previous
    assert errors == []


async def test_the_tables_expected_are_those_every_migration_leaves(tmp_path: Path) -> None:
    """The check of every table runs only the migrations' table statements (issue 41):
    the same set as running every statement, and as a database migrated for real."""
    assert store.expected_tables() == store.migrated_tables(every_statement=True)
    async with store.connect(tmp_path / "db.sqlite") as conn:
        present = {row[0] for row in await conn.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
    assert store.expected_tables() == present


def test_a_table_statement_is_told_from_one_that_makes_no_table() -> None:
    """A table made, dropped or renamed counts, also after a comment; an index, a
    trigger, a row or a column renamed does not."""
    counts = ["CREATE TABLE a (x)", "-- why\ncreate virtual table t USING fts5(x)",
              "CREATE TEMP TABLE t (x)", "DROP TABLE a", "ALTER TABLE a_new RENAME TO a"]
    skipped = ["CREATE INDEX i ON a (x)", "CREATE TRIGGER t AFTER INSERT ON a BEGIN "
               "SELECT 1; END", "INSERT INTO a VALUES (1)", "ALTER TABLE a ADD COLUMN y",
               "ALTER TABLE a RENAME COLUMN x TO y", "UPDATE a SET x = 1"]
    assert all(store._TABLE_STATEMENT.match(s) for s in counts)
    assert not any(store._TABLE_STATEMENT.match(s) for s in skipped)
