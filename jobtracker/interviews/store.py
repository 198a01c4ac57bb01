"""The `interviews` table: reading upcoming interviews, and the writes an accepted
`interview` proposal makes (inside the caller's write transaction)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from jobtracker.clock import iso

if TYPE_CHECKING:
    import aiosqlite


@dataclass(frozen=True)
class Interview:
    id: int
    application_id: int
    uid: str
    start: str                 # ISO 8601 with offset
    end: str
    timezone: str | None       # IANA name, or None for a fixed offset
    where: str
    status: str                # confirmed | cancelled
    sequence: int
    company: str
    title: str
    quote: str
    file: str | None
    created_at: str
    updated_at: str
    start_utc: str = ""

    def start_utc_after(self, stamp: str) -> bool:
        """Whether it starts at or after `stamp` (UTC, as stored)."""
        return self.start_utc >= stamp

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "application": self.application_id, "company": self.company,
                "title": self.title, "start": self.start, "end": self.end,
                "timezone": self.timezone, "where": self.where, "status": self.status,
                "uid": self.uid, "file": self.file, "quote": self.quote}


_SELECT = """
SELECT i.id, i.application_id, i.uid, i.start_at, i.end_at, i.timezone, i.location,
       i.status, i.sequence, COALESCE(NULLIF(p.company, ''), a.company, ''),
       COALESCE(p.title, ''), i.quote, i.file, i.created_at, i.updated_at, i.start_utc
FROM interviews AS i
JOIN applications AS a ON a.id = i.application_id
LEFT JOIN postings AS p ON p.id = a.posting_id
"""


def _row(raw: Any) -> Interview:
    return Interview(int(raw[0]), int(raw[1]), str(raw[2]), str(raw[3]), str(raw[4]), raw[5],
                     str(raw[6] or ""), str(raw[7]), int(raw[8]), str(raw[9] or ""),
                     str(raw[10] or ""), str(raw[11] or ""), raw[12], str(raw[13]),
                     str(raw[14]), str(raw[15]))


def said(item: Interview, now: datetime) -> str:
    """`today 14:00 Acme`, `tomorrow 09:30 Acme`, `Thu 3 Dec 14:00 Acme`: an upcoming
    interview in `now`'s zone (the user's), for a status line. Plain text."""
    start = datetime.fromisoformat(item.start).astimezone(now.tzinfo)
    days = (start.date() - now.date()).days
    day = "today" if days == 0 else "tomorrow" if days == 1 else \
        f"{start:%a} {start.day} {start:%b}"
    return f"{day} {start:%H:%M} {item.company}".strip()


def utc(moment: datetime) -> str:
    """An aware time as the table orders them (ISO UTC with Z, to the second)."""
    return iso(moment)


async def upcoming(conn: aiosqlite.Connection, start: datetime,
                   end: datetime | None = None) -> list[Interview]:
    """Confirmed interviews starting from `start` (up to `end`), soonest first."""
    sql = _SELECT + " WHERE i.status = 'confirmed' AND i.start_utc >= ?"
    params: list[Any] = [utc(start)]
    if end is not None:
        sql += " AND i.start_utc < ?"
        params.append(utc(end))
    rows = await conn.execute_fetchall(sql + " ORDER BY i.start_utc, i.id", params)
    return [_row(r) for r in rows]


async def every(conn: aiosqlite.Connection) -> list[Interview]:
    """Every interview ever accepted, cancelled ones too (the feed keeps them, so a
    subscribed calendar sees the cancellation), oldest first."""
    rows = await conn.execute_fetchall(_SELECT + " ORDER BY i.start_utc, i.id")
    return [_row(r) for r in rows]


async def get(conn: aiosqlite.Connection, interview_id: int) -> Interview | None:
    row = await (await conn.execute(_SELECT + " WHERE i.id = ?", (interview_id,))).fetchone()
    return _row(row) if row else None


async def of_application(conn: aiosqlite.Connection, application_id: int) -> list[Interview]:
    rows = await conn.execute_fetchall(
        _SELECT + " WHERE i.application_id = ? ORDER BY i.start_utc, i.id", (application_id,))
    return [_row(r) for r in rows]


def _utc_of(start: str) -> str:
    return iso(datetime.fromisoformat(start))


async def insert(conn: aiosqlite.Connection, *, application_id: int, uid: str, start: str,
                 end: str, timezone: str | None, where: str, quote: str,
                 proposal_id: int | None, message_key: str | None, now: str) -> int:
    cursor = await conn.execute(
        "INSERT INTO interviews (application_id, uid, start_at, end_at, start_utc, timezone, "
        "location, quote, proposal_id, message_key, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (application_id, uid, start, end, _utc_of(start), timezone, where, quote,
         proposal_id, message_key, now, now))
    return int(cursor.lastrowid or 0)


async def update(conn: aiosqlite.Connection, interview_id: int, *, start: str, end: str,
                 timezone: str | None, where: str, status: str, sequence: int,
                 updated_at: str, quote: str | None = None) -> None:
    """Move, cancel or restore an interview: the same row and UID, its new values (a
    move's `quote` is the new mail's sentence; None keeps the one stored)."""
    await conn.execute(
        "UPDATE interviews SET start_at = ?, end_at = ?, start_utc = ?, timezone = ?, "
        "location = ?, status = ?, sequence = ?, updated_at = ?, "
        "quote = COALESCE(?, quote) WHERE id = ?",
        (start, end, _utc_of(start), timezone, where, status, sequence, updated_at, quote,
         interview_id))


async def set_file(conn: aiosqlite.Connection, interview_id: int, file: str | None) -> None:
    await conn.execute("UPDATE interviews SET file = ? WHERE id = ?", (file, interview_id))


async def delete(conn: aiosqlite.Connection, interview_id: int) -> None:
    await conn.execute("DELETE FROM interviews WHERE id = ?", (interview_id,))
