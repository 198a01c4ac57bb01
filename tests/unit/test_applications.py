"""jobtracker.applications: one rule for finding and changing an application, whoever asks."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest
from mail_samples import NOW, add_application, add_posting, application_status

from jobtracker import applications, proposals, store
from jobtracker.applications import HAND, ApplicationError, Change, Source, UnknownPosting

LATER = "2026-09-13T08:00:00Z"


@pytest.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with store.connect(tmp_path / "db.sqlite") as connection:
        yield connection


async def set_status(conn: aiosqlite.Connection, status: str, source: Source = HAND,
                     **target: int | str | None) -> Change:
    async with store.write(conn):
        return await applications.set_status(conn, status, LATER, source, **target)


async def test_by_hand_creates_the_application_with_the_postings_company(
        conn: aiosqlite.Connection) -> None:
    posting = await add_posting(conn, "Acme", "Staff Engineer", "1")
    change = await set_status(conn, "applied", posting_id=posting)
    assert change.created and change.before is None and change.after == "applied"
    found = await applications.find(conn, posting_id=posting)
    assert found == applications.Application(change.application_id, posting, "Acme", "applied")
    again = await set_status(conn, "screening", posting_id=posting)
    assert (again.application_id, again.before, again.created) == (
        change.application_id, "applied", False)


async def test_find_goes_by_id_then_posting_then_the_companys_only_application(
        conn: aiosqlite.Connection) -> None:
    posting = await add_posting(conn, "Acme", "Staff Engineer", "1")
    by_posting = await add_application(conn, posting, "applied")
    loose = await add_application(conn, None, "saved", company="Bolt")
    found = await applications.find(conn, application_id=loose, posting_id=posting)
    assert found is not None and found.id == loose
    found = await applications.find(conn, application_id=999, posting_id=posting)
    assert found is not None and found.id == by_posting
    found = await applications.find(conn, company="bolt")
    assert found is not None and found.id == loose
    await add_application(conn, None, "saved", company="BOLT")
    assert await applications.find(conn, company="Bolt") is None   # which one is ambiguous


async def test_a_status_proposal_and_the_hand_change_the_same_application(
        conn: aiosqlite.Connection) -> None:
    posting = await add_posting(conn, "Acme", "Staff Engineer", "1")
    by_hand = await set_status(conn, "applied", posting_id=posting)
    async with store.write(conn):
        pid = await proposals.create(
            conn, kind="status", task="inbox", unit_key="m:a", now=NOW, posting_id=posting,
            summary="Acme: applied → interviewing",
            payload={"to_status": "interviewing", "from_status": "applied", "company": "Acme"})
    (decision,) = await proposals.accept(conn, [pid], LATER)
    assert decision.ok, decision.message
    assert await application_status(conn, by_hand.application_id) == "interviewing"
    rows = await conn.execute_fetchall("SELECT COUNT(*) FROM applications")
    assert rows[0][0] == 1


async def test_an_unknown_posting_or_nothing_to_name_is_refused_and_changes_nothing(
        conn: aiosqlite.Connection) -> None:
    with pytest.raises(UnknownPosting, match="posting 404"):
        await set_status(conn, "applied", posting_id=404)
    with pytest.raises(ApplicationError, match="names no posting, application or company"):
        await set_status(conn, "applied")
    with pytest.raises(ValueError, match="not an application status"):
        await set_status(conn, "hired", company="Acme")
    assert (await conn.execute_fetchall("SELECT COUNT(*) FROM applications"))[0][0] == 0
    assert not conn.in_transaction


async def test_a_status_proposal_for_a_vanished_posting_is_refused_cleanly(
        conn: aiosqlite.Connection) -> None:
    # The applier used to reach the INSERT and fail on the foreign key, uncaught.
    posting = await add_posting(conn, "Acme", "Staff Engineer", "1")
    async with store.write(conn):
        pid = await proposals.create(
            conn, kind="status", task="inbox", unit_key="m:a", now=NOW, posting_id=posting,
            summary="s", payload={"to_status": "applied", "from_status": None})
    await conn.execute("PRAGMA foreign_keys = OFF")
    await conn.execute("DELETE FROM postings WHERE id = ?", (posting,))
    await conn.execute("PRAGMA foreign_keys = ON")
    (decision,) = await proposals.accept(conn, [pid], LATER)
    assert not decision.ok
    assert f"proposal {pid} names posting {posting}, which does not exist" in decision.message


async def test_restore_takes_a_change_back_only_while_it_stands(
        conn: aiosqlite.Connection) -> None:
    posting = await add_posting(conn, "Acme", "Staff Engineer", "1")
    created = await set_status(conn, "applied", posting_id=posting)
    moved = await set_status(conn, "offer", posting_id=posting)
    async with store.write(conn):
        await applications.restore(conn, moved, LATER, HAND)
    assert await application_status(conn, created.application_id) == "applied"
    with pytest.raises(ApplicationError, match="status changed since \\(now 'applied'\\)"):
        async with store.write(conn):
            await applications.restore(conn, moved, LATER, HAND)
    async with store.write(conn):
        await applications.restore(conn, created, LATER, HAND)
    assert await application_status(conn, created.application_id) is None


def test_a_source_is_one_of_the_known_ones() -> None:
    assert Source("proposal", 7).proposal_id == 7
    with pytest.raises(ValueError, match="unknown source 'cron'"):
        Source("cron")
