"""Proposals: changes a task suggests and only the user applies (contract §5).

A task writes a proposal inside its own unit's transaction (`create`, idempotent
on task + unit_key + item). Nothing it proposes changes the user's world until
`accept`, which applies it in one transaction through the applier registered for
its kind. `reject` records the decision; `undo_last` takes back the most recent
decision while nothing depends on it.

Kinds plug in here: a kind registers how to apply an accepted proposal (and how to
undo that), and how to tell that its inputs changed since it was made (stale). A
stale proposal is listed as `stale` and cannot be accepted as it is. The `status`
kind is defined at the bottom of this module; tailor and coverletter register
their file-writing kinds from their own modules.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jobtracker import store

if TYPE_CHECKING:
    import aiosqlite

KINDS = ("status", "resume_edit", "letter")
STATES = ("pending", "accepted", "rejected", "stale")   # 'stale' is computed, never stored


class ProposalError(Exception):
    """A decision that cannot be made as asked; the message names the proposal."""

    def __init__(self, proposal_id: int, message: str) -> None:
        super().__init__(message)
        self.proposal_id = proposal_id


@dataclass(frozen=True)
class Proposal:
    id: int
    kind: str
    task: str
    unit_key: str
    item: int
    posting_id: int | None
    application_id: int | None
    payload: dict[str, Any]
    input_hash: str
    summary: str
    stored_state: str                 # pending, accepted or rejected
    created_at: str
    decided_at: str | None
    decision: dict[str, Any] | None   # what accept changed, for undo
    stale_reason: str | None = None   # set when pending and its inputs changed

    @property
    def state(self) -> str:
        """pending, accepted, rejected, or stale (pending, inputs changed)."""
        if self.stored_state == "pending" and self.stale_reason:
            return "stale"
        return self.stored_state

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "kind": self.kind, "task": self.task, "state": self.state,
            "posting": self.posting_id, "application": self.application_id,
            "summary": self.summary, "unit_key": self.unit_key, "item": self.item,
            "payload": self.payload, "stale_reason": self.stale_reason,
            "created_at": self.created_at, "decided_at": self.decided_at,
        }


@dataclass(frozen=True)
class Decision:
    """The outcome of deciding one proposal, for people."""

    id: int
    ok: bool
    message: str


# --- the per-kind registries ---------------------------------------------------------

# Returns why the proposal's inputs changed since it was made, or None when they did not.
StaleCheck = Callable[["aiosqlite.Connection", Proposal, "Path | None"], Awaitable["str | None"]]
# Applies an accepted proposal inside accept's transaction; returns the JSON-safe
# record undo needs; raises ProposalError when it cannot.
Applier = Callable[["aiosqlite.Connection", Proposal, str, "Path | None"],
                   Awaitable[dict[str, Any]]]
# Takes back an accepted proposal using proposal.decision; raises ProposalError when
# something depends on it now.
Undoer = Callable[["aiosqlite.Connection", Proposal, str, "Path | None"], Awaitable[None]]

_STALE_CHECKS: dict[str, StaleCheck] = {}
_APPLIERS: dict[str, tuple[Applier, Undoer | None]] = {}


def register_applier(kind: str, apply: Applier, undo: Undoer | None = None) -> None:
    """How to apply an accepted proposal of `kind` (and undo it; without `undo` an
    accept of that kind cannot be undone)."""
    _check_kind(kind)
    _APPLIERS[kind] = (apply, undo)


def register_staleness(kind: str, check: StaleCheck) -> None:
    """How to tell that a pending proposal of `kind` was made from inputs since changed."""
    _check_kind(kind)
    _STALE_CHECKS[kind] = check


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"unknown proposal kind {kind!r} (known: {', '.join(KINDS)})")


# --- reading ------------------------------------------------------------------------

_COLUMNS = ("id, kind, task, unit_key, item, posting_id, application_id, payload, input_hash, "
            "summary, state, created_at, decided_at, decision")


def _from_row(row: Any) -> Proposal:
    (pid, kind, task, unit_key, item, posting_id, application_id, payload, input_hash,
     summary, state, created_at, decided_at, decision) = row
    return Proposal(
        id=pid, kind=kind, task=task, unit_key=unit_key, item=item, posting_id=posting_id,
        application_id=application_id, payload=json.loads(payload or "{}"),
        input_hash=input_hash, summary=summary, stored_state=state, created_at=created_at,
        decided_at=decided_at, decision=json.loads(decision) if decision else None)


async def _with_staleness(conn: aiosqlite.Connection, proposal: Proposal,
                          home: Path | None) -> Proposal:
    check = _STALE_CHECKS.get(proposal.kind)
    if proposal.stored_state != "pending" or check is None:
        return proposal
    reason = await check(conn, proposal, home)
    if not reason:
        return proposal
    return replace(proposal, stale_reason=reason)


async def get(conn: aiosqlite.Connection, proposal_id: int,
              home: Path | None = None) -> Proposal | None:
    """One proposal with its staleness computed, or None when there is no such id."""
    row = await (await conn.execute(
        f"SELECT {_COLUMNS} FROM proposals WHERE id = ?", (proposal_id,))).fetchone()
    return await _with_staleness(conn, _from_row(row), home) if row else None


async def list_proposals(conn: aiosqlite.Connection, home: Path | None = None,
                         states: Iterable[str] | None = None) -> list[Proposal]:
    """Proposals by id, staleness computed; only those whose (shown) state is in
    `states` when given."""
    rows = await conn.execute_fetchall(f"SELECT {_COLUMNS} FROM proposals ORDER BY id")
    wanted = set(states) if states is not None else None
    out = []
    for row in rows:
        proposal = await _with_staleness(conn, _from_row(row), home)
        if wanted is None or proposal.state in wanted:
            out.append(proposal)
    return out


# --- writing ------------------------------------------------------------------------

async def create(conn: aiosqlite.Connection, *, kind: str, task: str, unit_key: str,
                 payload: dict[str, Any], summary: str, now: str, item: int = 0,
                 posting_id: int | None = None, application_id: int | None = None,
                 input_hash: str = "") -> int:
    """Record a pending proposal inside the caller's transaction; returns its id.

    Idempotent: a second call for the same (task, unit_key, item) returns the
    existing proposal untouched, whatever was decided about it since.
    """
    _check_kind(kind)
    await conn.execute(
        "INSERT INTO proposals (kind, task, unit_key, item, posting_id, application_id, "
        "payload, input_hash, summary, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (task, unit_key, item) DO NOTHING",
        (kind, task, unit_key, item, posting_id, application_id,
         json.dumps(payload, ensure_ascii=False, sort_keys=True), input_hash, summary, now))
    row = await (await conn.execute(
        "SELECT id FROM proposals WHERE task = ? AND unit_key = ? AND item = ?",
        (task, unit_key, item))).fetchone()
    return int(row[0])


async def _next_seq(conn: aiosqlite.Connection) -> int:
    row = await (await conn.execute(
        "SELECT COALESCE(MAX(decision_seq), 0) + 1 FROM proposals")).fetchone()
    return int(row[0])


async def _accept_one(conn: aiosqlite.Connection, proposal_id: int, now: str,
                      home: Path | None) -> Decision:
    proposal = await get(conn, proposal_id, home)
    if proposal is None:
        raise ProposalError(proposal_id, f"no proposal {proposal_id}")
    if proposal.state == "accepted":
        return Decision(proposal_id, True, f"proposal {proposal_id} was already accepted")
    if proposal.state == "rejected":
        raise ProposalError(proposal_id, f"proposal {proposal_id} was rejected; "
                                         "undo that decision first")
    if proposal.state == "stale":
        raise ProposalError(proposal_id, f"proposal {proposal_id} is stale: "
                                         f"{proposal.stale_reason}; not applied")
    if proposal.kind not in _APPLIERS:
        raise ProposalError(proposal_id, f"proposal {proposal_id}: nothing knows how to apply "
                                         f"a {proposal.kind!r} proposal yet")
    apply, _ = _APPLIERS[proposal.kind]
    record = await apply(conn, proposal, now, home)
    await conn.execute(
        "UPDATE proposals SET state = 'accepted', decided_at = ?, decision = ?, "
        "decision_seq = ?, application_id = COALESCE(?, application_id) WHERE id = ?",
        (now, json.dumps(record, sort_keys=True), await _next_seq(conn),
         record.get("application_id"), proposal_id))
    return Decision(proposal_id, True, f"accepted {proposal_id}: {proposal.summary}")


async def _reject_one(conn: aiosqlite.Connection, proposal_id: int, now: str,
                      home: Path | None) -> Decision:
    proposal = await get(conn, proposal_id, home)
    if proposal is None:
        raise ProposalError(proposal_id, f"no proposal {proposal_id}")
    if proposal.state == "rejected":
        return Decision(proposal_id, True, f"proposal {proposal_id} was already rejected")
    if proposal.state == "accepted":
        raise ProposalError(proposal_id, f"proposal {proposal_id} was accepted; "
                                         "undo that decision first")
    await conn.execute(
        "UPDATE proposals SET state = 'rejected', decided_at = ?, decision = NULL, "
        "decision_seq = ? WHERE id = ?", (now, await _next_seq(conn), proposal_id))
    return Decision(proposal_id, True, f"rejected {proposal_id}: {proposal.summary}")


async def _decide(conn: aiosqlite.Connection, ids: Iterable[int], now: str, home: Path | None,
                  decide: Callable[..., Awaitable[Decision]]) -> list[Decision]:
    """Each proposal in its own transaction: one that cannot be decided leaves the
    others' decisions standing, and itself untouched."""
    out = []
    for proposal_id in ids:
        try:
            async with store.write(conn):
                out.append(await decide(conn, proposal_id, now, home))
        except ProposalError as exc:
            out.append(Decision(proposal_id, False, str(exc)))
    return out


async def accept(conn: aiosqlite.Connection, ids: Iterable[int], now: str,
                 home: Path | None = None) -> list[Decision]:
    """Apply each proposal in one transaction of its own; stale ones are refused."""
    return await _decide(conn, ids, now, home, _accept_one)


async def reject(conn: aiosqlite.Connection, ids: Iterable[int], now: str,
                 home: Path | None = None) -> list[Decision]:
    """Record that each proposal was turned down; nothing else changes."""
    return await _decide(conn, ids, now, home, _reject_one)


async def undo_last(conn: aiosqlite.Connection, now: str,
                    home: Path | None = None) -> Decision | None:
    """Take back the most recent decision, or None when nothing is decided.

    An undone accept restores what the accept changed, only while nothing depends
    on it (for a status: the application still has the status the accept set).
    The proposal is pending again; the next undo takes back the decision before.
    """
    try:
        async with store.write(conn):
            return await _undo_latest(conn, now, home)
    except ProposalError as exc:
        return Decision(exc.proposal_id, False, str(exc))


async def _undo_latest(conn: aiosqlite.Connection, now: str,
                       home: Path | None) -> Decision | None:
    row = await (await conn.execute(
        f"SELECT {_COLUMNS} FROM proposals WHERE decision_seq IS NOT NULL "
        "ORDER BY decision_seq DESC LIMIT 1")).fetchone()
    if row is None:
        return None
    proposal = _from_row(row)
    verb = "accepting" if proposal.stored_state == "accepted" else "rejecting"
    if proposal.stored_state == "accepted":
        _, undo = _APPLIERS.get(proposal.kind, (None, None))
        if undo is None:
            raise ProposalError(proposal.id, f"cannot undo accepting {proposal.id}: a "
                                             f"{proposal.kind!r} proposal has no undo")
        await undo(conn, proposal, now, home)
    await conn.execute(
        "UPDATE proposals SET state = 'pending', decided_at = NULL, decision = NULL, "
        "decision_seq = NULL WHERE id = ?", (proposal.id,))
    return Decision(proposal.id, True, f"undid {verb} {proposal.id}: {proposal.summary}")


# --- the 'status' kind: an application's status ----------------------------------------
#
# payload: to_status, from_status (when made), company, plus whatever the task
# wants shown (inbox: state, evidence, message subject/sender/date).

PROGRESSION = ("saved", "applied", "screening", "interviewing", "offer")
CLOSING = ("rejected", "withdrawn")


def status_change_applies(current: str | None, target: str) -> bool:
    """Whether moving an application from `current` (None: no application) to
    `target` is a change worth proposing.

    Closing statuses apply from anywhere but themselves. Progress only moves forward
    (an acknowledgement never takes an interview back to 'applied') and never
    reopens an application the user closed.
    """
    if current == target:
        return False
    if target in CLOSING or current is None:
        return True
    if current in CLOSING:
        return False
    return PROGRESSION.index(target) > PROGRESSION.index(current)


async def find_application(conn: aiosqlite.Connection, application_id: int | None,
                           posting_id: int | None,
                           company: str | None) -> tuple[int, str] | None:
    """The application a status change is about, as (id, status): by id, else by
    posting, else the company's one application without a posting."""
    if application_id is not None:
        row = await (await conn.execute(
            "SELECT id, status FROM applications WHERE id = ?", (application_id,))).fetchone()
        if row:
            return int(row[0]), str(row[1])
    if posting_id is not None:
        row = await (await conn.execute(
            "SELECT id, status FROM applications WHERE posting_id = ?",
            (posting_id,))).fetchone()
        return (int(row[0]), str(row[1])) if row else None
    if company:
        rows = await conn.execute_fetchall(
            "SELECT id, status FROM applications WHERE posting_id IS NULL "
            "AND lower(company) = lower(?)", (company,))
        if len(rows) == 1:
            return int(rows[0][0]), str(rows[0][1])
    return None


async def _status_target(conn: aiosqlite.Connection,
                         proposal: Proposal) -> tuple[int, str] | None:
    return await find_application(conn, proposal.application_id, proposal.posting_id,
                                  proposal.payload.get("company"))


async def _status_stale(conn: aiosqlite.Connection, proposal: Proposal,
                        home: Path | None) -> str | None:
    found = await _status_target(conn, proposal)
    current = found[1] if found else None
    if status_change_applies(current, proposal.payload["to_status"]):
        return None
    now = f"'{current}'" if current else "gone"
    return f"the application's status is now {now}"


async def _apply_status(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                        home: Path | None) -> dict[str, Any]:
    target = proposal.payload["to_status"]
    found = await _status_target(conn, proposal)
    if found is not None:
        app_id, previous = found
        await conn.execute("UPDATE applications SET status = ?, updated_at = ? WHERE id = ?",
                           (target, now, app_id))
        return {"application_id": app_id, "previous_status": previous, "status": target,
                "created": False}
    company = proposal.payload.get("company") or ""
    if proposal.posting_id is not None and not company:
        row = await (await conn.execute("SELECT company FROM postings WHERE id = ?",
                                        (proposal.posting_id,))).fetchone()
        company = row[0] if row else ""
    if proposal.posting_id is None and not company:
        raise ProposalError(proposal.id, f"proposal {proposal.id} names no posting, "
                                         "application or company to update")
    cursor = await conn.execute(
        "INSERT INTO applications (posting_id, company, status, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?)", (proposal.posting_id, company, target, now, now))
    return {"application_id": cursor.lastrowid, "previous_status": None, "status": target,
            "created": True}


async def _undo_status(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                       home: Path | None) -> None:
    record = proposal.decision or {}
    app_id = record.get("application_id")
    row = await (await conn.execute("SELECT status FROM applications WHERE id = ?",
                                    (app_id,))).fetchone()
    if row is None or row[0] != record.get("status"):
        current = f"'{row[0]}'" if row else "gone"
        raise ProposalError(proposal.id, f"cannot undo accepting {proposal.id}: the "
                                         f"application's status changed since (now {current})")
    if not record.get("created"):
        await conn.execute("UPDATE applications SET status = ?, updated_at = ? WHERE id = ?",
                           (record["previous_status"], now, app_id))
        return
    others = await (await conn.execute(
        "SELECT id FROM proposals WHERE application_id = ? AND id != ? LIMIT 1",
        (app_id, proposal.id))).fetchone()
    if others:
        raise ProposalError(proposal.id, f"cannot undo accepting {proposal.id}: proposal "
                                         f"{others[0]} now refers to the application it created")
    await conn.execute("UPDATE proposals SET application_id = NULL WHERE id = ?", (proposal.id,))
    try:
        await conn.execute("DELETE FROM applications WHERE id = ?", (app_id,))
    except sqlite3.IntegrityError as exc:
        raise ProposalError(proposal.id, f"cannot undo accepting {proposal.id}: other records "
                                         "now refer to the application it created") from exc


register_applier("status", _apply_status, _undo_status)
register_staleness("status", _status_stale)

# The file-writing kinds (resume_edit, letter) register their appliers and staleness
# checks when jobtracker.resume is imported. Importing it here means any code that
# reviews proposals knows every kind, whether or not it ever imported the tasks.
from jobtracker import resume as _resume  # noqa: E402, F401
