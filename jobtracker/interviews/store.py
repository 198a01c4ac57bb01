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

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "application": self.application_id, "company": self.company,
                "title": self.title, "start": self.start, "end": self.end,
                "timezone": self.timezone, "where": self.where, "status": self.status,
                "uid": self.uid, "file": self.file, "quote": self.quote}


_SELECT = """
SELECT i.id, i.application_id, i.uid, i.start_at, i.end_at, i.timezone, i.location,
       i.status, i.sequence, COALESCE(NULLIF(p.company, ''), a.company, ''),
       COALESCE(p.title, ''), i.quote, i.file, i.created_at, i.updated_at
FROM interviews AS i
JOIN applications AS a ON a.id = i.application_id
LEFT JOIN postings AS p ON p.id = a.posting_id
"""


def _row(raw: Any) -> Interview:
    return Interview(int(raw[0]), int(raw[1]), str(raw[2]), str(raw[3]), str(raw[4]), raw[5],
                     str(raw[6] or ""), str(raw[7]), int(raw[8]), str(raw[9] or ""),
                     str(raw[10] or ""), str(raw[11] or ""), raw[12], str(raw[13]),
                     str(raw[14]))


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
