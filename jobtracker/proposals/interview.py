"""The `interview` kind: a time an invitation or scheduling mail names, to put in the
calendar (the inbox task proposes them: jobtracker/tasks/inbox/scheduling.py).

payload: `action` (`new`, `move` or `cancel`), `start`/`end` (ISO 8601 with offset;
None while the zone is asked), `start_local` and `minutes`, `timezone` (IANA or None),
`zone_written`, `where`, `quote`, `notes`, `slot`/`slots` (a mail offering several
times makes one proposal each: accepting one makes the others stale), `ask`
(`timezone`: the mail names no zone and config.yaml has no `timezone:`; accepting
reads it from config.yaml once it is set), and for a move or cancel the
`interview_id` and `sequence` it changes.

Accepting writes the `interviews` row (a move or cancel: the same row and UID, its
SEQUENCE one higher), moves the application to `interviewing` when it was earlier
(through jobtracker/applications.py, creating it when there is none), and writes the
`.ics` files (jobtracker/interviews/ics.py). Undo takes all of it back while the
application still has the status the accept set.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Unpack
from zoneinfo import ZoneInfo

from jobtracker import applications
from jobtracker.applications import ApplicationError, Change, Source
from jobtracker.config import ConfigError, load_timezone
from jobtracker.interviews import store as interviews
from jobtracker.proposals.core import Kind, Presentation, Proposal, ProposalError, Where, create
from jobtracker.proposals.lines import Line, field, quote_in
from jobtracker.text import one_line

if TYPE_CHECKING:
    import aiosqlite

INTERVIEWING = "interviewing"


def _times(proposal: Proposal, home: Path | None) -> tuple[str, str, str | None]:
    """(start, end, zone): the payload's, or for a time whose zone was asked, in the
    zone config.yaml's `timezone:` names now."""
    payload = proposal.payload
    if payload.get("start"):
        return str(payload["start"]), str(payload["end"]), payload.get("timezone")
    zone = None
    if home is not None:
        try:
            zone = load_timezone(home / "config.yaml")
        except ConfigError as exc:
            raise ProposalError(proposal.id, f"proposal {proposal.id}: {exc}") from None
    if zone is None:
        raise ProposalError(proposal.id, f"proposal {proposal.id}: the mail names no time "
                                         "zone; set timezone: in config.yaml (such as "
                                         "Europe/Berlin), then accept it again")
    try:
        start = datetime.fromisoformat(str(payload["start_local"])).replace(
            tzinfo=ZoneInfo(zone))
        # In UTC: wall-clock arithmetic would make 60 minutes across the fall-back 120.
        end = (start.astimezone(UTC) + timedelta(minutes=int(payload.get("minutes") or 60))
               ).astimezone(start.tzinfo)
    except (ValueError, OverflowError, TypeError) as exc:
        raise ProposalError(proposal.id, f"proposal {proposal.id}: not a time there can be "
                                         f"({one_line(str(exc), 120)})") from None
    return start.isoformat(), end.isoformat(), zone


async def _siblings(conn: aiosqlite.Connection, proposal: Proposal) -> int | None:
    """Another time of the same mail, accepted: its slot number."""
    row = await (await conn.execute(
        "SELECT item FROM proposals WHERE kind = 'interview' AND task = ? AND unit_key = ? "
        "AND id != ? AND state = 'accepted' LIMIT 1",
        (proposal.task, proposal.unit_key, proposal.id))).fetchone()
    return int(row[0]) if row else None


async def _stale(conn: aiosqlite.Connection, proposal: Proposal,
                 home: Path | None) -> str | None:
    taken = await _siblings(conn, proposal)
    if taken is not None:
        return f"time {taken} of this mail was accepted"
    payload = proposal.payload
    if payload.get("interview_id") is not None:
        current = await interviews.get(conn, int(payload["interview_id"]))
        if current is None or current.status != "confirmed" or \
                current.sequence != payload.get("sequence"):
            return "the interview it changes was changed or cancelled since"
    return None


async def _application(conn: aiosqlite.Connection, proposal: Proposal, now: str
                       ) -> tuple[int, dict[str, Any] | None]:
    """The application the interview is for, moved to interviewing when it was earlier
    (or created at interviewing); the change made, for undo."""
    payload = proposal.payload
    found = await applications.find(conn, application_id=proposal.application_id,
                                    posting_id=proposal.posting_id,
                                    company=payload.get("company"))
    current = found.status if found else None
    if found is not None and (current in applications.CLOSING or current == "offer"
                              or not applications.status_change_applies(current,
                                                                        INTERVIEWING)):
        return found.id, None
    try:
        change = await applications.set_status(
            conn, INTERVIEWING, now, Source("proposal", proposal.id),
            application_id=found.id if found else None, posting_id=proposal.posting_id,
            company=payload.get("company"))
    except ApplicationError as exc:
        raise ProposalError(proposal.id, f"proposal {proposal.id} {exc}") from None
    return change.application_id, {"application_id": change.application_id,
                                   "previous_status": change.before, "status": change.after,
                                   "created": change.created}


async def _apply(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                 home: Path | None) -> dict[str, Any]:
    payload = proposal.payload
    action = payload.get("action", "new")
    if action in ("move", "cancel"):
        return await _change(conn, proposal, now, home, action)
    start, end, zone = _times(proposal, home)
    application_id, status = await _application(conn, proposal, now)
    interview_id = await interviews.insert(
        conn, application_id=application_id,
        uid=f"interview-{application_id}-{proposal.id}@jobtracker", start=start, end=end,
        timezone=zone, where=str(payload.get("where") or ""),
        quote=str(payload.get("quote") or ""), proposal_id=proposal.id,
        message_key=(payload.get("message") or {}).get("key"), now=now)
    file = await _write(conn, proposal, home, interview_id)
    return {"application_id": application_id, "interview_id": interview_id, "action": "new",
            "status_change": status, "file": file}


async def _change(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                  home: Path | None, action: str) -> dict[str, Any]:
    payload = proposal.payload
    current = await interviews.get(conn, int(payload["interview_id"]))
    if current is None:
        raise ProposalError(proposal.id, f"proposal {proposal.id}: the interview is gone")
    previous = {"start": current.start, "end": current.end, "timezone": current.timezone,
                "where": current.where, "status": current.status,
                "sequence": current.sequence, "updated_at": current.updated_at,
                "quote": current.quote}
    if action == "cancel":
        values = {**previous, "status": "cancelled"}
    else:
        # A move is described by the mail that moved it: its sentence replaces the old
        # one, so the event's DESCRIPTION never keeps the old date.
        start, end, zone = _times(proposal, home)
        values = {**previous, "start": start, "end": end, "timezone": zone,
                  "where": payload.get("where") or current.where,
                  "quote": str(payload.get("quote") or "") or current.quote}
    await interviews.update(conn, current.id, start=values["start"], end=values["end"],
                            timezone=values["timezone"], where=values["where"],
                            status=values["status"], sequence=current.sequence + 1,
                            updated_at=now, quote=values["quote"])
    file = await _write(conn, proposal, home, current.id)
    return {"application_id": current.application_id, "interview_id": current.id,
            "action": action, "previous": previous, "file": file, "status_change": None}


async def _write(conn: aiosqlite.Connection, proposal: Proposal, home: Path | None,
                 interview_id: int) -> str | None:
    """The interview's file and the feed; a failure refuses the decision (and the
    transaction rolls back the rows it wrote)."""
    if home is None:
        return None
    try:
        from jobtracker.interviews import ics  # icalendar (~0.1 s) only when one is written

        return await ics.write_files(conn, home, interview_id)
    except (ValueError, OverflowError) as exc:   # a time stored before dates were bounded
        raise ProposalError(proposal.id, f"proposal {proposal.id}: its time cannot be put "
                                         f"in a calendar ({one_line(str(exc), 120)})") from None
    except OSError as exc:
        raise ProposalError(proposal.id, f"proposal {proposal.id}: the calendar files could "
                                         f"not be written: {exc}") from None


async def _undo(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                home: Path | None) -> None:
    record = proposal.decision or {}
    interview_id = int(record.get("interview_id") or 0)
    try:
        status = record.get("status_change")
        if status:
            change = Change(status["application_id"],
                            None if status.get("created") else status.get("previous_status"),
                            str(status["status"]))
            await applications.unchanged(conn, change)
        if record.get("action") in ("move", "cancel"):
            previous = record["previous"]
            await interviews.update(
                conn, interview_id, start=previous["start"], end=previous["end"],
                timezone=previous["timezone"], where=previous["where"],
                status=previous["status"], sequence=int(previous["sequence"]) + 2,
                updated_at=now, quote=previous.get("quote"))
            await _write(conn, proposal, home, interview_id)
            return
        await interviews.delete(conn, interview_id)
        if status:
            if status.get("created"):
                await conn.execute("UPDATE proposals SET application_id = NULL WHERE id = ?",
                                   (proposal.id,))
            await applications.restore(conn, change, now, Source("proposal", proposal.id))
        if home is not None:
            from jobtracker.interviews import ics  # icalendar only when one is undone

            await ics.remove_file(conn, home, record.get("file"))
    except ApplicationError as exc:
        raise ProposalError(proposal.id,
                            f"cannot undo accepting {proposal.id}: {exc}") from None


# --- how it is shown ---------------------------------------------------------------------

def _when(payload: dict[str, Any]) -> str:
    if not payload.get("start"):
        local = str(payload.get("start_local") or "?").replace("T", " ")
        return f"{local} (which time zone?)"
    moment = datetime.fromisoformat(str(payload["start"]))
    zone = payload.get("zone_written") or payload.get("timezone") or moment.strftime("UTC%z")
    return f"{moment:%a} {moment.day} {moment:%b %Y %H:%M} {zone}"


def _brief(proposal: Proposal) -> str:
    payload = proposal.payload
    action = payload.get("action", "new")
    if action == "cancel":
        return "cancels the interview"
    pick = f" ({payload.get('slot')}/{payload.get('slots')})" if (
        payload.get("slots") or 1) > 1 else ""
    return f"{'moves to ' if action == 'move' else ''}{_when(payload)}{pick}"


async def _detail(conn: aiosqlite.Connection, proposal: Proposal,
                  home: Path | None) -> list[Line]:
    payload = proposal.payload
    message = payload.get("message") if isinstance(payload.get("message"), dict) else {}
    lines = [Line("heading", proposal.summary), field("When", _when(payload))]
    if payload.get("end"):
        lines.append(field("Until", str(payload["end"])[11:16]))
    lines += [field("Where", payload.get("where") or "-"),
              field("Zone", payload.get("timezone") or payload.get("zone_written") or "-")]
    if (payload.get("slots") or 1) > 1:
        lines.append(Line("note", f"The mail offers {payload['slots']} times: accept the "
                                  "one you booked; the others go stale."))
    if payload.get("ask") == "timezone":
        lines.append(Line("note", "The mail names no time zone: set timezone: in "
                                  "config.yaml, then accept."))
    lines += [Line("note", one_line(note, 200)) for note in payload.get("notes") or []]
    lines += [field("From", message.get("sender")), field("Subject", message.get("subject")),
              field("Date", message.get("date")), Line("heading", "The sentence")]
    body = None
    if message.get("key"):
        row = await (await conn.execute("SELECT body FROM messages WHERE key = ?",
                                        (message["key"],))).fetchone()
        body = row[0] if row else None
    return lines + quote_in(body, str(payload.get("quote") or ""))


def _accepted(proposal: Proposal, record: dict[str, Any]) -> str:
    file = record.get("file")
    return f"accepted {proposal.id}: {proposal.summary}" + (f" -> {file}" if file else "")


KIND = Kind("interview", _apply, _undo, _stale,
            Presentation(word="interv", brief=_brief, detail=_detail, accepted=_accepted))


# An interview time, new or moved, with the mail it was read from; its keys depend
# on the action (jobtracker/tasks/inbox/scheduling.py builds them, `_times` above reads them).
Payload = Mapping[str, Any]


async def propose(conn: aiosqlite.Connection, payload: Payload, **where: Unpack[Where]) -> int:
    """A pending `interview` proposal, in the caller's transaction (`create`); its id."""
    return await create(conn, kind=KIND.name, payload=dict(payload), **where)
