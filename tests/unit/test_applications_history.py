"""The status history: every change a row with its source, written by the one writer;
the `ghosted` rule; existing databases migrate their statuses as a first row."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
from pathlib import Path

import pytest

from jobtracker import applications, proposals, store
from jobtracker.applications import HAND, status_change_applies
from jobtracker.config import STATUSES
from jobtracker.workspace import Workspace
from tests.db import raw_connect
from tests.tracker_seed import postings, set_status

T1, T2, T3 = "2026-10-01T09:00:00Z", "2026-10-05T09:00:00Z", "2026-10-09T09:00:00Z"


async def _history(conn) -> list[tuple]:
    return [tuple(r) for r in await conn.execute_fetchall(
        "SELECT application_id, at, from_status, to_status, source, proposal_id, evidence, "
        "message_at FROM application_history ORDER BY id")]


def test_every_change_by_hand_is_a_row_never_overwritten(ws: Workspace) -> None:
    async def go() -> list[tuple]:
        async with store.connect(ws.db) as conn, store.write(conn):
            await postings(conn, (1, "Acme", "Engineer"))
            app = await set_status(conn, 1, "applied", T1)
            await set_status(conn, 1, "screening", T2)
            await set_status(conn, 1, "screening", T3)   # no change is still a recorded act
            assert app == 1
            return await _history(conn)
    assert asyncio.run(go()) == [
        (1, T1, None, "applied", "hand", None, None, None),
        (1, T2, "applied", "screening", "hand", None, None, None),
        (1, T3, "screening", "screening", "hand", None, None, None)]


def test_an_accepted_proposal_records_its_id_evidence_and_email_date_and_undo_says_so(
        ws: Workspace) -> None:
    async def go() -> list[tuple]:
        async with store.connect(ws.db) as conn:
            async with store.write(conn):
                await postings(conn, (1, "Acme", "Engineer"))
                pid = await proposals.create(
                    conn, kind="status", task="inbox", unit_key="m:ack", now=T2, posting_id=1,
                    summary="ack", payload={"to_status": "applied", "company": "Acme",
                                            "evidence": "we received your application",
                                            "message": {"date": T1}})
            [decision] = await proposals.accept(conn, [pid], T2, None)
            assert decision.ok
            assert (await proposals.undo_last(conn, T3, None)) is not None
            return await _history(conn)
    # Undo of a created application deletes it, and its history goes with it.
    assert asyncio.run(go()) == []


def test_undo_of_a_change_adds_a_row_saying_it_undid(ws: Workspace) -> None:
    async def go() -> list[tuple]:
        async with store.connect(ws.db) as conn:
            async with store.write(conn):
                await postings(conn, (1, "Acme", "Engineer"))
                await set_status(conn, 1, "applied", T1)
                pid = await proposals.create(
                    conn, kind="status", task="inbox", unit_key="m:inv", now=T2, posting_id=1,
                    summary="invite", payload={"to_status": "interviewing", "company": "Acme",
                                               "evidence": "we would like to invite you",
                                               "message": {"date": T2}})
            assert (await proposals.accept(conn, [pid], T2, None))[0].ok
            await proposals.undo_last(conn, T3, None)
            return await _history(conn)
    rows = asyncio.run(go())
    assert rows[1] == (1, T2, "applied", "interviewing", "proposal", 1,
                       "we would like to invite you", T2)
    assert rows[2] == (1, T3, "interviewing", "applied", "proposal", 1,
                       "undid accepting proposal 1", None)


def test_a_note_keeps_the_application_an_undo_would_delete(ws: Workspace) -> None:
    async def go() -> str:
        async with store.connect(ws.db) as conn:
            async with store.write(conn):
                await postings(conn, (1, "Acme", "Engineer"))
                pid = await proposals.create(
                    conn, kind="status", task="inbox", unit_key="m:ack", now=T1, posting_id=1,
                    summary="ack", payload={"to_status": "applied", "company": "Acme"})
            await proposals.accept(conn, [pid], T1, None)
            async with store.write(conn):
                await applications.add_note(conn, 1, "spoke to Rita", T2)
            undo = await proposals.undo_last(conn, T3, None)
            assert undo is not None and not undo.ok, undo
            row = await (await conn.execute("SELECT status FROM applications")).fetchone()
            return row[0]
    assert asyncio.run(go()) == "applied"


@pytest.mark.parametrize(("current", "target", "applies"), [
    ("applied", "ghosted", True), ("screening", "ghosted", True),
    ("interviewing", "ghosted", True), ("saved", "ghosted", False),
    ("offer", "ghosted", False), ("rejected", "ghosted", False), (None, "ghosted", False),
    ("ghosted", "ghosted", False), ("ghosted", "interviewing", True),
    ("ghosted", "applied", False), ("ghosted", "rejected", True),
])
def test_ghosted_applies_to_open_applications_and_a_reply_moves_on(
        current: str | None, target: str, applies: bool) -> None:
    assert status_change_applies(current, target) is applies


def _database_at_version_7(db: Path) -> None:
    conn = raw_connect(db)
    for version, _name, sql in store.list_migrations()[:7]:
        conn.executescript(sql)
        conn.execute(f"PRAGMA user_version = {version}")
    conn.executescript("""
        INSERT INTO boards (id, source, token) VALUES (1, 'greenhouse', 'acme');
        INSERT INTO postings (id, board_id, external_id, company, title, first_seen, last_seen)
            VALUES (1, 1, '1', 'Acme', 'Engineer', 't', 't'), (2, 1, '2', 'Bolt', 'SRE', 't', 't');
        INSERT INTO applications (id, posting_id, company, status, created_at, updated_at)
            VALUES (1, 1, 'Acme', 'interviewing', '2026-09-01T00:00:00Z', '2026-09-20T00:00:00Z'),
                   (2, 2, 'Bolt', 'applied', '2026-09-02T00:00:00Z', '2026-09-03T00:00:00Z');
        INSERT INTO proposals (id, kind, task, unit_key, posting_id, application_id, payload,
                               state, created_at, decided_at, decision, decision_seq)
            VALUES (7, 'status', 'inbox', 'm:x', 1, 1,
                    '{"to_status": "interviewing", "evidence": "come in on Monday",
                      "message": {"date": "2026-09-19T08:00:00Z"}}',
                    'accepted', 't', 't',
                    '{"application_id": 1, "status": "interviewing", "previous_status": "applied"}',
                    1);
    """)
    conn.commit()
    conn.close()


def test_migration_keeps_statuses_as_a_first_history_row_and_the_proposals_links(
        tmp_path: Path) -> None:
    db = tmp_path / "jobtracker.db"
    _database_at_version_7(db)

    async def go() -> tuple[list[tuple], list[tuple]]:
        async with store.connect(db) as conn:
            links = [tuple(r) for r in await conn.execute_fetchall(
                "SELECT id, application_id FROM proposals")]
            async with store.write(conn):   # the widened CHECK takes the new status
                await applications.set_status(conn, "ghosted", "2026-11-01T00:00:00Z", HAND,
                                              application_id=2)
            return await _history(conn), links
    history, links = asyncio.run(go())
    assert links == [(7, 1)]
    assert history == [
        (1, "2026-09-20T00:00:00Z", None, "interviewing", "proposal", 7, "come in on Monday",
         "2026-09-19T08:00:00Z"),
        (2, "2026-09-03T00:00:00Z", None, "applied", "hand", None, None, None),
        (2, "2026-11-01T00:00:00Z", "applied", "ghosted", "hand", None, None, None)]
    check = sqlite3.connect(db)
    # The dates the list reads were derived from the migrated history (migration 0013):
    # Acme went out on its email's date; Bolt's last change is the ghosting.
    assert check.execute(_KEPT).fetchall() == [
        (1, "2026-09-19T08:00:00Z", "2026-09-20T00:00:00Z", 0, 1, 0),
        (2, "2026-09-03T00:00:00Z", "2026-11-01T00:00:00Z", 0, 0, 0)]
    assert check.execute("PRAGMA foreign_key_check").fetchall() == []
    assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


# What the list reads from each application, and the same derived from its history.
_KEPT = ("SELECT id, applied_at, changed_at, screened, interviewed, offered "
         "FROM applications ORDER BY id")
_SENT = ", ".join(f"'{s}'" for s in applications.PROGRESSION[1:])
_DERIVED = f"""
    SELECT a.id, MIN(CASE WHEN h.to_status IN ({_SENT}) THEN COALESCE(h.message_at, h.at) END),
           MAX(h.at), COALESCE(MAX(h.to_status = 'screening'), 0),
           COALESCE(MAX(h.to_status = 'interviewing'), 0), COALESCE(MAX(h.to_status = 'offer'), 0)
    FROM applications AS a LEFT JOIN application_history AS h ON h.application_id = a.id
    GROUP BY a.id ORDER BY a.id"""


@pytest.mark.parametrize("seed", range(5))
def test_the_dates_kept_on_an_application_equal_its_history_summarised(
        ws: Workspace, seed: int) -> None:
    """Whatever order changes come in (times out of order, undone changes, an email's
    date standing for a change's own, history written by another hand), the trigger
    keeps each application's dates equal to a summary of its history."""
    rng = random.Random(seed)

    async def go() -> tuple[list[tuple], list[tuple]]:
        async with store.connect(ws.db) as conn, store.write(conn):
            await postings(conn, *[(i, f"Co{i}", f"Role {i}") for i in range(1, 6)])
            changes: list[applications.Change] = []
            for _ in range(60):
                at = f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T09:00:00Z"
                roll = rng.random()
                if roll < 0.1 and changes:
                    change = changes.pop()
                    with contextlib.suppress(applications.ApplicationError):
                        await applications.restore(conn, change, at, HAND)
                elif roll < 0.25 and changes:
                    await conn.execute(
                        "INSERT INTO application_history (application_id, at, from_status, "
                        "to_status, source, message_at) VALUES (?, ?, NULL, ?, 'hand', ?)",
                        (changes[-1].application_id, at, rng.choice(STATUSES),
                         rng.choice([None, at.replace("09:00", "07:00")])))
                else:
                    changes.append(await applications.set_status(
                        conn, rng.choice(STATUSES), at, HAND, posting_id=rng.randint(1, 5)))
            kept = [tuple(r) for r in await conn.execute_fetchall(_KEPT)]
            derived = [tuple(r) for r in await conn.execute_fetchall(_DERIVED)]
            return kept, derived
    kept, derived = asyncio.run(go())
    assert kept and kept == derived
