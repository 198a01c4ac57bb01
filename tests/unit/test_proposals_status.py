"""The status kind: accept updates (or creates) the application, goes stale when it moved
on, undo restores the status before."""

from __future__ import annotations

import aiosqlite
import status_samples
from mail_samples import NOW, add_posting, application_status
from status_samples import LATER, one, propose

from jobtracker import proposals

# The shared fixtures, bound here by name so that pytest finds them in this file.
conn, acme = status_samples.conn, status_samples.acme


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


async def test_one_undo_takes_back_every_decision_made_together_newest_first(
        conn: aiosqlite.Connection, acme: dict[str, int]) -> None:
    lone = await propose(conn, "screening", unit_key="m:1", posting_id=acme["posting"])
    await proposals.accept(conn, [lone], NOW)
    first = await propose(conn, "interviewing", unit_key="m:2", posting_id=acme["posting"])
    second = await propose(conn, "offer", unit_key="m:3", posting_id=acme["posting"])
    decisions = await proposals.accept(conn, [first, second], LATER)   # one call: one batch
    assert all(d.ok for d in decisions)
    assert await application_status(conn, acme["application"]) == "offer"
    undone = await proposals.undo_last(conn, LATER)
    assert undone is not None and undone.ok
    assert (undone.id, undone.also) == (second, (first,))
    assert f"decided together: {first}, {second}" in undone.message
    assert [(await one(conn, i)).state for i in (first, second)] == ["pending", "pending"]
    assert await application_status(conn, acme["application"]) == "screening"
    undone = await proposals.undo_last(conn, LATER)       # then the decision before
    assert undone is not None and undone.id == lone and undone.also == ()
    assert await application_status(conn, acme["application"]) == "applied"


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
