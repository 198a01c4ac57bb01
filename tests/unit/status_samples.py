"""The database the status kind's tests share: a migrated store, an `acme` posting with
an application at applied, and proposing a status change and reading a proposal back.

A test file takes the `conn` and `acme` fixtures by binding them by name (`conn, acme =
status_samples.conn, status_samples.acme`); one of its own would take precedence."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest
from mail_samples import NOW, add_application, add_posting

from jobtracker import proposals, store
from jobtracker.proposals import Proposal

LATER = "2026-09-13T08:00:00Z"


@pytest.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with store.connect(tmp_path / "db.sqlite") as connection:
        yield connection


async def propose(conn: aiosqlite.Connection, to_status: str, *, unit_key: str = "m:a",
                  posting_id: int | None = None, application_id: int | None = None,
                  company: str | None = "Acme", from_status: str | None = None) -> int:
    async with store.write(conn):
        return await proposals.create(
            conn, kind="status", task="inbox", unit_key=unit_key, now=NOW,
            posting_id=posting_id, application_id=application_id,
            summary=f"{company}: {from_status} → {to_status}",
            payload={"to_status": to_status, "from_status": from_status, "company": company,
                     "evidence": "a sentence"})


@pytest.fixture
async def acme(conn: aiosqlite.Connection) -> dict[str, int]:
    posting = await add_posting(conn, "Acme", "Staff Engineer", "1")
    return {"posting": posting, "application": await add_application(conn, posting, "applied")}


async def one(conn: aiosqlite.Connection, proposal_id: int) -> Proposal:
    found = await proposals.get(conn, proposal_id)
    assert found is not None
    return found
