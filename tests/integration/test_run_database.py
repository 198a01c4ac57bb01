"""The run's connection: an answer written as one statement, committed on its own."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from jobtracker import store
from jobtracker.run.database import Database
from jobtracker.run.setup import load_setup
from jobtracker.tasks import Unit
from jobtracker.tasks.level import TASK as LEVEL
from tests.db import raw_connect
from tests.run_world import make_workspace


def test_the_one_statement_writes_what_apply_writes_and_commits_it(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, None, postings=2)
    ctx = load_setup(ws).context("2026-11-02T00:00:00Z")

    async def both() -> list[Unit]:
        async with store.connect(ws.db) as conn:
            first, second = sorted(await LEVEL.pending(conn, ctx), key=lambda u: u.subject)
            async with store.write(conn):
                assert await LEVEL.apply(conn, first, {"level": "senior"}, ctx, "m") == "senior"
            sql, params, label = LEVEL.apply_statement(second, {"level": "senior"}, ctx, "m")
            assert label == "senior"
            await Database(conn).write_one(sql, params)
            # Committed: nothing is left open on this connection.
            assert not conn.in_transaction
            return [first, second]

    first, second = asyncio.run(both())
    with raw_connect(ws.db) as other:
        rows = other.execute("SELECT posting_id, level, model, prompt_version, read_at, "
                             "source_hash != '' FROM level_readings ORDER BY posting_id"
                             ).fetchall()
    assert [row[0] for row in rows] == [first.subject, second.subject]
    assert rows[0][1:] == rows[1][1:] == ("senior", "m", LEVEL.prompt_version,
                                          "2026-11-02T00:00:00Z", 1)


def test_a_statement_that_fails_writes_nothing_and_raises(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, None, postings=1)
    ctx = load_setup(ws).context("2026-11-02T00:00:00Z")

    async def fail() -> None:
        async with store.connect(ws.db) as conn:
            (unit,) = await LEVEL.pending(conn, ctx)
            sql, params, _ = LEVEL.apply_statement(unit, {"level": "senior"}, ctx, "m")
            gone = (999_999, *params[1:])   # no such posting: its foreign key fails
            with pytest.raises(sqlite3.IntegrityError):
                await Database(conn).write_one(sql, gone)
            assert not conn.in_transaction

    asyncio.run(fail())
    with raw_connect(ws.db) as other:
        assert other.execute("SELECT COUNT(*) FROM level_readings").fetchone()[0] == 0


def test_a_write_the_file_refuses_is_said_as_a_store_error_naming_it(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, None, postings=1)

    async def refused() -> None:
        async with store.connect(ws.db) as conn:
            await conn.execute("PRAGMA query_only = ON")   # every write now fails read-only
            with pytest.raises(store.StoreError) as raised:
                await Database(conn).write_one("DELETE FROM postings", ())
            assert str(ws.db) in str(raised.value)

    asyncio.run(refused())
