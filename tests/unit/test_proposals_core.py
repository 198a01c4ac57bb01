"""The proposals store: the status rule, idempotent create, reject, unknown ids, an
applier that fails, upgrading an old database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiosqlite
import pytest
import status_samples
from mail_samples import NOW, application_status
from status_samples import LATER, one, propose

from jobtracker import proposals, store
from jobtracker.applications import status_change_applies
from jobtracker.proposals import Kind, Proposal, ProposalError
from tests.db import raw_connect

# The shared fixtures, bound here by name so that pytest finds them in this file.
conn, acme = status_samples.conn, status_samples.acme


@pytest.mark.parametrize(("current", "target", "applies"), [
    (None, "applied", True), ("saved", "applied", True), ("applied", "applied", False),
    ("interviewing", "applied", False), ("applied", "interviewing", True),
    ("offer", "rejected", True), ("rejected", "rejected", False),
    ("rejected", "interviewing", False), ("withdrawn", "offer", False),
    ("screening", "withdrawn", True),
])
def test_status_change_rule(current: str | None, target: str, applies: bool) -> None:
    assert status_change_applies(current, target) is applies


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


async def test_an_applier_that_fails_leaves_nothing_half_written(
        conn: aiosqlite.Connection, acme: dict[str, int], extend) -> None:
    async def half_then_fail(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                             home: Path | None) -> dict[str, Any]:
        await conn.execute("UPDATE applications SET status = 'offer'")
        raise ProposalError(proposal.id, f"proposal {proposal.id}: disk full")

    extend(proposals.REGISTRY, Kind("status", half_then_fail))
    pid = await propose(conn, "offer", posting_id=acme["posting"])
    (decision,) = await proposals.accept(conn, [pid], LATER)
    assert not decision.ok and "disk full" in decision.message
    assert await application_status(conn, acme["application"]) == "applied"
    assert (await one(conn, pid)).state == "pending"
    assert not conn.in_transaction


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
