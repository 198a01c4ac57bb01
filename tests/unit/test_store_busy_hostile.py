"""Another process holding the write lock past the busy timeout: one line saying the
database is busy and which process has it open, exit 2, nothing changed; never a raw
`database is locked` traceback."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from jobtracker import store
from jobtracker.cli import main
from jobtracker.workspace import Workspace
from tests.tracker_seed import postings, seeded

HOLD = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("held", flush=True)
sys.stdin.read()
"""


@pytest.fixture
def short_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "BUSY_TIMEOUT_MS", 300)


def holding(db: Path) -> Iterator[subprocess.Popen[str]]:
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(db)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    try:
        yield holder
    finally:
        holder.communicate("", timeout=10)


@pytest.fixture
def world(ws: Workspace) -> Workspace:
    async def body(conn) -> None:
        await postings(conn, (1, "Acme", "Engineer"))
    asyncio.run(seeded(ws.db, body))
    return ws


@pytest.mark.parametrize("command", [["status", "1", "applied"],
                                     ["applications", "note", "1", "a note"]])
def test_a_write_past_the_busy_timeout_is_one_line_naming_the_holder(
        world: Workspace, short_wait: None, capsys: pytest.CaptureFixture[str],
        command: list[str]) -> None:
    if command[0] == "applications":
        assert main(["--home", str(world.home), "status", "1", "saved"]) == 0
    capsys.readouterr()
    for holder in holding(world.db):
        assert main(["--home", str(world.home), *command]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1, err
        assert "the database is busy" in err[0] and f"pid {holder.pid}" in err[0]
        assert "Traceback" not in err[0]


async def write_one(db: Path) -> None:
    async with store.connect(db) as conn, store.write(conn):
        await conn.execute("UPDATE postings SET title = 'changed' WHERE id = 1")


def test_store_write_says_busy_as_a_store_error(world: Workspace, short_wait: None) -> None:
    for _ in holding(world.db):
        with pytest.raises(store.StoreError, match="database is busy"):
            asyncio.run(write_one(world.db))
