"""The `status` kind: a change to an application's status (inbox proposes them).

payload: to_status, from_status (when made), company (or `uncertain_companies`, the
names linking could not choose between: such a proposal cannot be accepted as it
stands, the message says how to set the status by hand), plus whatever the task
wants shown (inbox: state, evidence, message subject/sender/date). A proposal with
`silent_since` (ghosting's) goes stale when the application hears back or changes
after that day.

Which application, and how its status changes, is `jobtracker.applications`'
rule, the same one `jobtracker status` and the TUI picker use. Accept creates the
application when there is none; undo takes the change back while the application
still has the status the accept set.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, Unpack

from jobtracker import applications
from jobtracker.applications import ApplicationError, Change, Source
from jobtracker.proposals.core import (
    Kind,
    Pending,
    Presentation,
    Proposal,
    ProposalError,
    Where,
    create,
    get,
)
from jobtracker.proposals.lines import Line, Span, field, quote_in
from jobtracker.text import one_line

if TYPE_CHECKING:
    import aiosqlite


async def _target(conn: aiosqlite.Connection,
                  proposal: Proposal) -> applications.Application | None:
    return await applications.find(conn, application_id=proposal.application_id,
                                   posting_id=proposal.posting_id,
                                   company=proposal.payload.get("company"))


async def _stale(conn: aiosqlite.Connection, proposal: Proposal,
                 home: Path | None) -> str | None:
    found = await _target(conn, proposal)
    current = found.status if found else None
    if not applications.status_change_applies(current, proposal.payload["to_status"]):
        now = f"'{current}'" if current else "gone"
        return f"the application's status is now {now}"
    # A proposal that counts a silence (ghosting's `silent_since` day) is over once the
    # employer writes or the status changes after that day.
    since = proposal.payload.get("silent_since")
    if found is not None and isinstance(since, str):
        last = await applications.last_activity(conn, found.id)
        if last is not None and last[:10] > since:
            return f"the silence it counts from {since} ended on {last[:10]}"
    return None


def _reason(current: str | None, target: str) -> str | None:
    if applications.status_change_applies(current, target):
        return None
    now = f"'{current}'" if current else "gone"
    return f"the application's status is now {now}"


async def _stale_many(conn: aiosqlite.Connection, group: list[Pending],
                      home: Path | None) -> dict[int, str]:
    """`_stale` for many pending proposals in a few reads: the applications they could
    be about, found by `applications.find`'s rule (by id, by posting, else the
    company's one application without a posting). A ghosting proposal's silence is
    checked one by one (there are few)."""
    payloads = {item.id: _payload(item.payload) for item in group}
    ids = sorted({i.application_id for i in group if i.application_id is not None})
    postings = sorted({i.posting_id for i in group if i.posting_id is not None})
    companies = sorted({str(p["company"]).lower() for p in payloads.values()
                        if isinstance(p.get("company"), str)})
    rows: list[Any] = []
    for column, values in (("id", ids), ("posting_id", postings)):
        for start in range(0, len(values), 500):
            chunk = values[start:start + 500]
            rows += await conn.execute_fetchall(
                f"SELECT id, posting_id, company, status FROM applications WHERE {column} "
                f"IN ({', '.join('?' for _ in chunk)})", chunk)
    for start in range(0, len(companies), 500):
        chunk = companies[start:start + 500]
        rows += await conn.execute_fetchall(
            "SELECT id, posting_id, company, status FROM applications WHERE posting_id IS "
            f"NULL AND lower(company) IN ({', '.join('?' for _ in chunk)})", chunk)
    by_id = {int(r[0]): r for r in rows}
    by_posting = {int(r[1]): r for r in rows if r[1] is not None}
    by_company: dict[str, list[Any]] = {}
    for row in {int(r[0]): r for r in rows if r[1] is None}.values():
        by_company.setdefault(str(row[2] or "").lower(), []).append(row)
    out: dict[int, str] = {}
    for item in group:
        payload = payloads[item.id]
        target = payload.get("to_status")
        if not isinstance(target, str):
            continue
        if payload.get("silent_since"):
            found_proposal = await get(conn, item.id, home)
            reason = found_proposal.stale_reason if found_proposal is not None else None
        else:
            found = by_id.get(item.application_id) if item.application_id is not None \
                else None
            if found is None and item.posting_id is not None:
                found = by_posting.get(item.posting_id)
            elif found is None and isinstance(payload.get("company"), str):
                same = by_company.get(str(payload["company"]).lower(), [])
                found = same[0] if len(same) == 1 else None
            reason = _reason(found[3] if found is not None else None, target)
        if reason:
            out[item.id] = reason
    return out


def _payload(text: str) -> dict[str, Any]:
    try:
        found = json.loads(text)
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


async def _apply(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                 home: Path | None) -> dict[str, Any]:
    uncertain = proposal.payload.get("uncertain_companies")
    if uncertain and proposal.application_id is None and proposal.posting_id is None:
        # Which company the mail is about could not be told; accepting must not guess.
        to = proposal.payload["to_status"]
        raise ProposalError(proposal.id, (
            f"proposal {proposal.id}: the company is uncertain ({' or '.join(uncertain)}); "
            f"set the status by hand: jobtracker status POSTING {to} "
            "(jobtracker matches lists posting ids), then reject this proposal"))
    try:
        change = await applications.set_status(
            conn, proposal.payload["to_status"], now, Source("proposal", proposal.id),
            application_id=proposal.application_id, posting_id=proposal.posting_id,
            company=proposal.payload.get("company"))
    except ApplicationError as exc:
        raise ProposalError(proposal.id, f"proposal {proposal.id} {exc}") from None
    return {"application_id": change.application_id, "previous_status": change.before,
            "status": change.after, "created": change.created}


async def _undo(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                home: Path | None) -> None:
    record = proposal.decision or {}
    change = Change(record.get("application_id") or 0,
                    None if record.get("created") else record.get("previous_status"),
                    str(record.get("status")))
    try:
        await applications.unchanged(conn, change)
        if change.created:
            await _release(conn, proposal, change.application_id)
        await applications.restore(conn, change, now, Source("proposal", proposal.id))
    except ApplicationError as exc:
        raise ProposalError(proposal.id,
                            f"cannot undo accepting {proposal.id}: {exc}") from None


async def _release(conn: aiosqlite.Connection, proposal: Proposal, application_id: int) -> None:
    """Let go of the application the accept created, so it can be deleted; refused
    while another proposal refers to it."""
    others = await (await conn.execute(
        "SELECT id FROM proposals WHERE application_id = ? AND id != ? LIMIT 1",
        (application_id, proposal.id))).fetchone()
    if others:
        raise ApplicationError(f"proposal {others[0]} now refers to the application "
                               "it created")
    await conn.execute("UPDATE proposals SET application_id = NULL WHERE id = ?",
                       (proposal.id,))


# --- how it is shown ---------------------------------------------------------------------

def _brief(proposal: Proposal) -> str:
    before = proposal.payload.get("from_status") or applications.NO_APPLICATION
    return f"{before} → {proposal.payload.get('to_status', '?')}"


async def _detail(conn: aiosqlite.Connection, proposal: Proposal,
                  home: Path | None) -> list[Line]:
    """current → proposed status (and what it is now, when that differs), the
    message's sender, subject and date, and the evidence sentence in its paragraph."""
    payload = proposal.payload
    found = await _target(conn, proposal)
    now = found.status if found else None
    before = payload.get("from_status") or applications.NO_APPLICATION
    change = [Span(one_line(before)), Span(" → "),
              Span(one_line(payload.get("to_status") or "?"), "strong")]
    if now != payload.get("from_status"):
        change.append(Span(f"   (now {one_line(now or applications.NO_APPLICATION)})", "note"))
    message = payload.get("message") if isinstance(payload.get("message"), dict) else {}
    lines = [field("Status", tuple(change))]
    if payload.get("state"):
        lines.append(field("Reading", f"{payload['state']}: {payload.get('reading') or ''}"))
    lines += [field("From", message.get("sender")), field("Subject", message.get("subject")),
              field("Date", message.get("date")), Line("heading", "Evidence")]
    return lines + quote_in(await _message_body(conn, message.get("key")),
                            str(payload.get("evidence") or ""))


async def _message_body(conn: aiosqlite.Connection, key: object) -> str | None:
    if not key:
        return None
    row = await (await conn.execute("SELECT body FROM messages WHERE key = ?",
                                    (key,))).fetchone()
    return row[0] if row else None


KIND = Kind("status", _apply, _undo, _stale,
            Presentation(brief=_brief, detail=_detail), stale_many=_stale_many)


class Payload(TypedDict):
    """A status change: to which status, from which, for which company, and why."""

    to_status: str
    from_status: str | None
    company: str | None
    evidence: str
    uncertain_companies: NotRequired[list[str]]   # the inbox: two companies it may be
    state: NotRequired[str]                       # the inbox's reading of the mail
    reading: NotRequired[str]
    message: NotRequired[dict[str, Any]]          # the mail it read: key, subject, sender, date
    silent_since: NotRequired[str]                # ghosting: the last sign of life


async def propose(conn: aiosqlite.Connection, payload: Payload, **where: Unpack[Where]) -> int:
    """A pending `status` proposal, in the caller's transaction (`create`); its id."""
    return await create(conn, kind=KIND.name, payload=dict(payload), **where)
