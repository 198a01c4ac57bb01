"""The inbox task's reading of the time an invitation or scheduling mail names, and
the `interview` proposals it makes (docs/notify.md, "Interviews").

The model quotes the sentence that holds the time and reads it (start, end or
minutes, the zone as written, the place or link, whether it cancels). Nothing of
that is believed on its own: jobtracker/interviews/when.py finds the times the quote
itself names, and a proposal is made only for a time the quote holds and the
model's reading agrees with. A sentence with two or more times makes one proposal
per time, each asking the user to pick (accepting one makes the others stale); a
time with no zone anywhere in the mail, for a user with no `timezone:`, makes a
proposal that asks for it; a weekday against its date makes none. Pure: the mail's
Date and the user's zone come in with the unit and the context.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from jobtracker import applications, proposals
from jobtracker.interviews import store as interviews
from jobtracker.interviews.when import Found, Refused, Slot, holds, slots
from jobtracker.text import clean_text, one_line

if TYPE_CHECKING:
    import aiosqlite

    from jobtracker.tasks.base import Context, Unit

QUOTE_CHARS = 300
WHERE_CHARS = 300
STATES = ("interview_request", "scheduling")

PROMPT = (
    "interview: only for interview_request and scheduling emails that name a time. "
    "quote: copy, character for character, the sentence holding the date and time. "
    "start: that date and time as YYYY-MM-DDTHH:MM, as the email writes it (no zone "
    "conversion). end: the end time in the same form when the email gives one, else \"\". "
    "minutes: the length when the email gives one, else 0. zone: the time zone exactly "
    "as the email writes it (CET, PST, UTC+1, Europe/Berlin), else \"\". where: the "
    "place or the video link, copied, else \"\". cancelled: true only when the email "
    "cancels the interview. For other emails, or when no time is named: empty strings, "
    "0 and false."
)

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "quote": {"type": "string", "maxLength": QUOTE_CHARS},
        "start": {"type": "string", "maxLength": 16},
        "end": {"type": "string", "maxLength": 16},
        "minutes": {"type": "integer", "minimum": 0, "maximum": 600},
        "zone": {"type": "string", "maxLength": 40},
        "where": {"type": "string", "maxLength": WHERE_CHARS},
        "cancelled": {"type": "boolean"},
    },
    "required": ["quote", "start", "end", "minutes", "zone", "where", "cancelled"],
    "additionalProperties": False,
}


# The reading of a mail that names no time (what the prompt asks for then).
NO_TIME: dict[str, Any] = {"quote": "", "start": "", "end": "", "minutes": 0, "zone": "",
                           "where": "", "cancelled": False}


def _flat(text: str) -> str:
    return " ".join(text.split())


def reading(answer: Any, shown: str, grounded: Any) -> dict[str, Any] | None:
    """The model's interview reading, cleaned; None when it names no time or its quote
    is not in the mail. `where` and `zone` are kept only when the mail holds them."""
    if not isinstance(answer, dict):
        return None
    quote = _flat(clean_text(str(answer.get("quote") or "")))[:QUOTE_CHARS].strip(" \"'“”")
    if not quote or not grounded(quote, shown) or not str(answer.get("start") or "").strip():
        if answer.get("cancelled") is True and quote and grounded(quote, shown):
            return {"quote": quote, "start": "", "end": "", "minutes": 0, "zone": "",
                    "where": "", "cancelled": True}
        return None
    flat = _flat(shown)
    where = _flat(clean_text(str(answer.get("where") or "")))[:WHERE_CHARS]
    zone = _flat(str(answer.get("zone") or ""))[:40]
    minutes = answer.get("minutes")
    return {"quote": quote, "start": str(answer["start"]).strip()[:16],
            "end": str(answer.get("end") or "").strip()[:16],
            "minutes": minutes if isinstance(minutes, int) and 0 <= minutes <= 600 else 0,
            "zone": zone if zone and zone in flat else "",
            "where": where if where and where in flat else "",
            "cancelled": answer.get("cancelled") is True}


def _sent(stamp: str, zone: str | None) -> datetime:
    """The mail's Date, as the day it was written is counted ("tomorrow"): in the
    user's zone when known, else UTC (the stored Date keeps no offset)."""
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    if zone:
        from zoneinfo import ZoneInfo

        return moment.astimezone(ZoneInfo(zone))
    return moment.astimezone(UTC)


def describe(start: str, zone_written: str | None, zone: str | None) -> str:
    moment = datetime.fromisoformat(start)
    label = zone_written or zone or moment.strftime("UTC%z")
    return f"{moment:%a} {moment.day} {moment:%b %Y %H:%M} {label}".strip()


async def propose(conn: aiosqlite.Connection, unit: Unit, reading_: dict[str, Any],
                  ctx: Context, model: str, prompt_version: str) -> list[int]:
    """The interview proposals a mail's reading makes (none when it holds no certain
    or askable time); returns their ids."""
    row = await (await conn.execute(
        "SELECT company, posting_id, subject, sender, sent_at FROM messages WHERE key = ?",
        (unit.subject,))).fetchone()
    assert row is not None        # the unit is this message's
    company, posting_id, subject, sender, sent_at = row
    if posting_id is not None and not company:
        found_row = await (await conn.execute(
            "SELECT company FROM postings WHERE id = ?", (posting_id,))).fetchone()
        company = found_row[0] if found_row and found_row[0] else None
    if posting_id is None and not company:
        return []
    application = await applications.find(conn, posting_id=posting_id, company=company)
    base = {"company": company, "posting_id": posting_id, "quote": reading_["quote"],
            "where": reading_["where"],
            "message": {"key": unit.subject, "subject": subject, "sender": sender,
                        "date": sent_at}}
    upcoming = [i for i in (await interviews.of_application(conn, application.id)
                            if application else [])
                if i.status == "confirmed" and i.start_utc_after(sent_at)]
    make = _Maker(conn, unit, ctx, model, prompt_version, application, company, posting_id)
    if reading_["cancelled"]:
        if len(upcoming) != 1:
            return []
        target = upcoming[0]
        return [await make(1, {**base, "action": "cancel", "interview_id": target.id,
                               "sequence": target.sequence, "start": target.start,
                               "end": target.end, "timezone": target.timezone},
                           f"interview of {describe(target.start, None, target.timezone)} "
                           "cancelled")]
    try:
        found = slots(reading_["quote"], _sent(sent_at, ctx.config.timezone),
                      user_zone=ctx.config.timezone, mail_zone_text=reading_["zone"],
                      minutes=reading_["minutes"])
    except Refused:
        return []
    if not holds(found, reading_["start"]):
        return []          # the quote does not hold the time the model read
    return await _proposals(make, base, found, upcoming)


async def _proposals(make: _Maker, base: dict[str, Any], found: Found,
                     upcoming: list[interviews.Interview]) -> list[int]:
    count = len(found.local)
    if found.ask_zone:
        # Times with no zone anywhere: one proposal per time, each asking for a zone.
        return [await make(n, {**base, "action": "new", "start": None, "end": None,
                               "start_local": local, "minutes": found_minutes(found),
                               "timezone": None, "zone_written": "", "ask": "timezone",
                               "slot": n, "slots": count, "notes": []},
                           f"interview {local.replace('T', ' ')} (which time zone? set "
                           "timezone: in config.yaml)" + _pick(n, count))
                for n, local in enumerate(found.local, 1)]
    out = []
    move = upcoming[0] if len(upcoming) == 1 and count == 1 else None
    for n, slot in enumerate(found.slots, 1):
        payload = {**base, **_slot(slot), "slot": n, "slots": count,
                   "action": "move" if move else "new"}
        said = f"interview {describe(payload['start'], slot.written, slot.zone)}"
        if move is not None:
            if move.start == payload["start"] and move.end == payload["end"]:
                return []          # the time already in the calendar, said again
            payload.update(interview_id=move.id, sequence=move.sequence,
                           previous={"start": move.start, "end": move.end})
            said = f"interview moved from {describe(move.start, None, move.timezone)} to " \
                   f"{describe(payload['start'], slot.written, slot.zone)}"
        out.append(await make(n, payload, said + _pick(n, count)))
    return out


def found_minutes(found: Found) -> int:
    return 60 if not found.slots else int(
        (found.slots[0].end - found.slots[0].start).total_seconds() // 60)


def _pick(n: int, count: int) -> str:
    return f" — one of {count} times: pick one" if count > 1 else ""


def _slot(slot: Slot) -> dict[str, Any]:
    return {"start": slot.start.isoformat(), "end": slot.end.isoformat(),
            "start_local": slot.key(),
            "minutes": int((slot.end - slot.start).total_seconds() // 60),
            "timezone": slot.zone, "zone_written": slot.written, "ask": None,
            "notes": list(slot.notes)}


class _Maker:
    """Creates one interview proposal of this unit (item = its slot's number)."""

    def __init__(self, conn: aiosqlite.Connection, unit: Unit, ctx: Context, model: str,
                 prompt_version: str, application: applications.Application | None,
                 company: str | None, posting_id: int | None) -> None:
        self.conn, self.unit, self.ctx = conn, unit, ctx
        self.model, self.prompt_version = model, prompt_version
        self.application, self.company, self.posting_id = application, company, posting_id

    async def __call__(self, item: int, payload: dict[str, Any], said: str) -> int:
        who = one_line(self.company or f"posting {self.posting_id}", 60)
        return await proposals.interview.propose(
            self.conn, task=self.unit.task, unit_key=self.unit.unit_key,
            item=item, now=self.ctx.now, model=self.model, prompt_version=self.prompt_version,
            posting_id=self.posting_id,
            application_id=self.application.id if self.application else None,
            input_hash=json.dumps([payload.get("interview_id"), payload.get("sequence")]),
            summary=one_line(f"{who}: {said}", 200), payload=payload)
