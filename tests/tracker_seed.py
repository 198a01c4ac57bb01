"""A small tracker world for tests: postings, applications set through the one writer
at chosen times, and mail linked to them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import aiosqlite

from jobtracker import applications, store


async def postings(conn: aiosqlite.Connection, *items: tuple[int, str, str],
                   board: tuple[str, str] = ("greenhouse", "acme")) -> None:
    """(id, company, title) postings on one board."""
    await conn.execute("INSERT OR IGNORE INTO boards (id, source, token, company) "
                       "VALUES (1, ?, ?, 'Acme')", board)
    for pid, company, title in items:
        await conn.execute(
            "INSERT INTO postings (id, board_id, external_id, company, title, url, first_seen,"
            " last_seen) VALUES (?, 1, ?, ?, ?, ?, '2026-01-01T00:00:00Z', "
            "'2026-01-01T00:00:00Z')", (pid, str(pid), company, title, f"https://x/{pid}"))


async def set_status(conn: aiosqlite.Connection, posting: int, status: str, at: str) -> int:
    change = await applications.set_status(conn, status, at, applications.HAND,
                                           posting_id=posting)
    return change.application_id


async def message(conn: aiosqlite.Connection, key: str, at: str, *, posting: int | None = None,
                  company: str | None = None, state: str | None = None,
                  subject: str = "Re: your application") -> None:
    await conn.execute(
        "INSERT INTO messages (key, content_hash, sender, subject, sent_at, company, "
        "posting_id, first_seen, state) VALUES (?, ?, 'Rita <rita@acme.test>', ?, ?, ?, ?, ?, ?)",
        (key, key, subject, at, company, posting, at, state))


async def seeded(db: Path, body: Callable[[aiosqlite.Connection], Awaitable[None]]) -> None:
    async with store.connect(db) as conn, store.write(conn):
        await body(conn)
