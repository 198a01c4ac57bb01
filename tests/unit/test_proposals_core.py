"""The proposals store: idempotent create, accept/reject/undo, staleness, the kind registries."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from mail_samples import NOW, add_application, add_posting, application_status

from jobtracker import proposals, store
from jobtracker.applications import status_change_applies
from jobtracker.proposals import Kind, Proposal, ProposalError
from tests.db import raw_connect
from tests.toy_kind import toy_kind

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


# --- the status rule ----------------------------------------------------------------

@pytest.mark.parametrize(("current", "target", "applies"), [
    (None, "applied", True), ("saved", "applied", True), ("applied", "applied", False),
    ("interviewing", "applied", False), ("applied", "interviewing", True),
    ("offer", "rejected", True), ("rejected", "rejected", False),
    ("rejected", "interviewing", False), ("withdrawn", "offer", False),
    ("screening", "withdrawn", True),
])
def test_status_change_rule(current: str | None, target: str, applies: bool) -> None:
    assert status_change_applies(current, target) is applies


# --- create ---------------------------------------------------------------------------

async def test_create_is_idempotent_per_task_unit_and_item(conn: aiosqlite.Connection) -> None:
    first = await propose(conn, "rejected")
    again = await propose(conn, "offer")            # a rerun never duplicates or rewrites
    assert first == again
    (only,) = await proposals.list_proposals(conn)
    assert only.payload["to_status"] == "rejected"
    async with store.write(conn):
        other = await proposals.create(conn, kind="status", task="inbox", unit_key="m:a",
                                       item=1, now=NOW, summary="", payload={"to_status": "x"})
    assert other != first


async def test_create_refuses_an_unknown_kind(conn: aiosqlite.Connection) -> None:
    with pytest.raises(ValueError, match="unknown proposal kind"):
        await proposals.create(conn, kind="email", task="t", unit_key="k", now=NOW,
                               summary="", payload={})


# --- accept and reject ------------------------------------------------------------------

async def test_accept_updates_the_application_and_records_the_decision(
        conn: aiosqlite.Connection, acme: dict[str, int]) -> None:
    pid = await propose(conn, "interviewing", posting_id=acme["posting"],
                        application_id=acme["application"], from_status="applied")
    (decision,) = await proposals.accept(conn, [pid], LATER)
    assert decision.ok and decision.message.startswith(f"accepted {pid}")
    assert await application_status(conn, acme["application"]) == "interviewing"
    accepted = await one(conn, pid)
    assert (accepted.state, accepted.decided_at) == ("accepted", LATER)
    assert accepted.decision == {"application_id": acme["application"], "created": False,
                                 "previous_status": "applied", "status": "interviewing"}
    again = await proposals.accept(conn, [pid], LATER)
    assert again[0].ok and "already accepted" in again[0].message


async def test_accept_creates_the_application_only_then(conn: aiosqlite.Connection) -> None:
    posting = await add_posting(conn, "Bolt", "Engineer", "9")
    pid = await propose(conn, "interviewing", posting_id=posting, company="Bolt")
    assert await conn.execute_fetchall("SELECT * FROM applications") == []
    await proposals.accept(conn, [pid], LATER)
    rows = await conn.execute_fetchall("SELECT posting_id, company, status FROM applications")
    assert [tuple(r) for r in rows] == [(posting, "Bolt", "interviewing")]
    assert (await one(conn, pid)).application_id is not None


async def test_reject_changes_nothing_but_the_proposal(
        conn: aiosqlite.Connection, acme: dict[str, int]) -> None:
    pid = await propose(conn, "rejected", posting_id=acme["posting"])
    (decision,) = await proposals.reject(conn, [pid], LATER)
    assert decision.ok
    assert await application_status(conn, acme["application"]) == "applied"
    assert (await one(conn, pid)).state == "rejected"
    refused = await proposals.accept(conn, [pid], LATER)
    assert not refused[0].ok and "was rejected" in refused[0].message
    assert await application_status(conn, acme["application"]) == "applied"


async def test_unknown_ids_are_refused_by_name(conn: aiosqlite.Connection) -> None:
    (decision,) = await proposals.accept(conn, [404], NOW)
    assert not decision.ok and decision.message == "no proposal 404"
    assert await proposals.get(conn, 404) is None


# --- staleness ------------------------------------------------------------------------

async def test_a_proposal_whose_application_moved_on_is_stale_and_cannot_be_accepted(
        conn: aiosqlite.Connection, acme: dict[str, int]) -> None:
    ack = await propose(conn, "applied", unit_key="m:ack", posting_id=acme["posting"],
                        from_status="saved")
    reject = await propose(conn, "rejected", unit_key="m:rej", posting_id=acme["posting"])
    await conn.execute("UPDATE applications SET status = 'interviewing'")   # by hand
    listed = {p.id: p for p in await proposals.list_proposals(conn)}
    assert listed[ack].state == "stale"
    assert "now 'interviewing'" in (listed[ack].stale_reason or "")
    assert listed[reject].state == "pending"          # rejecting still changes something
    (decision,) = await proposals.accept(conn, [ack], LATER)
    assert not decision.ok
    assert decision.message.startswith(f"proposal {ack} is stale")
    assert await application_status(conn, acme["application"]) == "interviewing"
    assert (await one(conn, ack)).stored_state == "pending"
    assert [p.id for p in await proposals.list_proposals(conn, states=["stale"])] == [ack]


async def test_accepting_one_makes_a_contradicting_one_stale(
        conn: aiosqlite.Connection, acme: dict[str, int]) -> None:
    interview = await propose(conn, "interviewing", unit_key="m:1", posting_id=acme["posting"])
    rejection = await propose(conn, "rejected", unit_key="m:2", posting_id=acme["posting"])
    decisions = await proposals.accept(conn, [rejection, interview], LATER)
    assert [d.ok for d in decisions] == [True, False]
    assert await application_status(conn, acme["application"]) == "rejected"


# --- undo -----------------------------------------------------------------------------

async def test_undo_restores_the_previous_status_then_the_decision_before(
        conn: aiosqlite.Connection, acme: dict[str, int]) -> None:
    first = await propose(conn, "screening", unit_key="m:1", posting_id=acme["posting"])
    second = await propose(conn, "rejected", unit_key="m:2", posting_id=acme["posting"])
    await proposals.accept(conn, [first], NOW)
    await proposals.reject(conn, [second], LATER)
    undone = await proposals.undo_last(conn, LATER)
    assert undone is not None and undone.ok and undone.id == second
    assert (await one(conn, second)).state == "pending"
    assert await application_status(conn, acme["application"]) == "screening"
    undone = await proposals.undo_last(conn, LATER)
    assert undone is not None and undone.id == first
    assert await application_status(conn, acme["application"]) == "applied"
    assert (await one(conn, first)).state == "pending"
    assert await proposals.undo_last(conn, LATER) is None


async def test_undo_is_refused_once_the_status_changed_since(
        conn: aiosqlite.Connection, acme: dict[str, int]) -> None:
    pid = await propose(conn, "interviewing", posting_id=acme["posting"])
    await proposals.accept(conn, [pid], NOW)
    await conn.execute("UPDATE applications SET status = 'offer'")   # the user moved on
    undone = await proposals.undo_last(conn, LATER)
    assert undone is not None and not undone.ok
    assert "now 'offer'" in undone.message and str(pid) in undone.message
    assert await application_status(conn, acme["application"]) == "offer"
    assert (await one(conn, pid)).state == "accepted"


async def test_undo_of_an_accept_that_created_the_application_removes_it(
        conn: aiosqlite.Connection) -> None:
    pid = await propose(conn, "applied", company="Crane")
    await proposals.accept(conn, [pid], NOW)
    assert len(await conn.execute_fetchall("SELECT * FROM applications")) == 1
    undone = await proposals.undo_last(conn, LATER)
    assert undone is not None and undone.ok
    assert await conn.execute_fetchall("SELECT * FROM applications") == []
    assert (await one(conn, pid)).state == "pending"


# --- the registries: how tailor and coverletter plug in ------------------------------------

async def test_a_kind_registers_its_applier_and_staleness(
        conn: aiosqlite.Connection, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    written: list[str] = []

    async def write_letter(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                           home: Path | None) -> dict[str, Any]:
        assert home == tmp_path
        written.append(proposal.payload["text"])
        return {"file": "letters/1-acme.md"}

    async def resume_changed(conn: aiosqlite.Connection, proposal: Proposal,
                             home: Path | None) -> str | None:
        return "the resume changed" if proposal.input_hash != "current" else None

    monkeypatch.setitem(proposals.REGISTRY, "letter",
                        Kind("letter", write_letter, None, resume_changed))
    async with store.write(conn):
        fresh = await proposals.create(conn, kind="letter", task="coverletter", unit_key="u1",
                                       now=NOW, summary="letter", input_hash="current",
                                       payload={"text": "Dear Acme"})
        old = await proposals.create(conn, kind="letter", task="coverletter", unit_key="u2",
                                     now=NOW, summary="letter", input_hash="older",
                                     payload={"text": "Dear Bolt"})
    decisions = await proposals.accept(conn, [fresh, old], NOW, home=tmp_path)
    assert [d.ok for d in decisions] == [True, False]
    assert written == ["Dear Acme"]
    assert (await one(conn, fresh)).decision == {"file": "letters/1-acme.md"}
    undone = await proposals.undo_last(conn, LATER, home=tmp_path)
    assert undone is not None and not undone.ok and "has no undo" in undone.message


async def test_an_applier_that_fails_leaves_nothing_half_written(
        conn: aiosqlite.Connection, acme: dict[str, int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    async def half_then_fail(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                             home: Path | None) -> dict[str, Any]:
        await conn.execute("UPDATE applications SET status = 'offer'")
        raise ProposalError(proposal.id, f"proposal {proposal.id}: disk full")

    monkeypatch.setitem(proposals.REGISTRY, "status", Kind("status", half_then_fail))
    pid = await propose(conn, "offer", posting_id=acme["posting"])
    (decision,) = await proposals.accept(conn, [pid], LATER)
    assert not decision.ok and "disk full" in decision.message
    assert await application_status(conn, acme["application"]) == "applied"
    assert (await one(conn, pid)).state == "pending"
    assert not conn.in_transaction


async def test_a_new_kind_is_one_module_and_one_registry_entry(
        conn: aiosqlite.Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kind module, in the registry, is creatable, acceptable, undoable and listed in
    KINDS with no other edit; its accept says what the kind says."""
    with toy_kind(tmp_path, monkeypatch) as toy_note_kind:
        assert proposals.KINDS == ("status", "resume_edit", "letter", "profile", "interview",
                                   "source", "note")
        async with store.write(conn):
            pid = await proposals.create(conn, kind="note", task="toy", unit_key="u", now=NOW,
                                         summary="a note",
                                         payload={"text": "hello", "where": "a talk"})
        (decision,) = await proposals.accept(conn, [pid], LATER)
        assert decision.ok and toy_note_kind.NOTES == ["hello"]
        assert decision.message == f"noted {pid} as note #1"
        undone = await proposals.undo_last(conn, LATER)
        assert undone is not None and undone.ok and toy_note_kind.NOTES == []
        assert undone.message == f"undid accepting {pid}: a note"   # the default wording
        assert (await one(conn, pid)).state == "pending"


async def test_upgrading_keeps_every_proposal_and_lets_the_schema_take_any_kind(
        tmp_path: Path) -> None:
    # Migration 0007 drops the schema's list of kinds (the registry is the list now).
    path = tmp_path / "old.sqlite"
    raw = raw_connect(path)
    for version, _, sql in store.list_migrations():
        if version <= 6:
            raw.executescript(sql)
    raw.execute("PRAGMA user_version = 6")
    raw.execute("INSERT INTO proposals (kind, task, unit_key, item, payload, summary, state, "
                "created_at, decision_seq) VALUES ('letter', 'coverletter', 'u', 0, '{}', "
                "'kept', 'accepted', ?, 3)", (NOW,))
    raw.commit()
    raw.close()
    async with store.connect(path) as conn:
        (kept,) = await proposals.list_proposals(conn)
        assert (kept.kind, kept.summary, kept.state) == ("letter", "kept", "accepted")
        await conn.execute("INSERT INTO proposals (kind, task, unit_key, created_at) "
                           "VALUES ('note', 'toy', 'v', ?)", (NOW,))
        indexes = {r[0] for r in await conn.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'proposals'")}
        assert {"proposals_by_state", "proposals_by_decision"} <= indexes
