"""Dismissals: a match the user said is not for them, and why.

A dismissal takes a posting out of `matches` (and the TUI's list) until it is
undismissed. Nothing is deleted: an undismiss stamps the row, so `learn` still
sees every decision, and each row keeps the verdict and score the posting had when
the user decided, because that is what they were looking at.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import aiosqlite

from jobtracker.text import one_line

REASONS = ("level", "location", "salary", "company", "role", "stack", "other")
NOTE_CHARS = 500   # a note is a reminder, not a document


class DismissError(ValueError):
    """A dismissal that cannot be made as asked; the message says which posting and why."""


@dataclass(frozen=True)
class Dismissed:
    posting_id: int
    label: str
    already: bool       # it was dismissed before this call (nothing new written)


def clean_note(note: str) -> str:
    """A note as the user typed it, bounded. Stored literally (control characters
    included): every place that shows one passes it through `one_line` first."""
    return note[:NOTE_CHARS]


async def dismiss(conn: aiosqlite.Connection, posting_ids: Iterable[int], reason: str,
                  note: str, now: str) -> list[Dismissed]:
    """Dismiss each posting inside the caller's transaction. Raises DismissError, before
    writing anything, for an unknown reason or posting."""
    if reason not in REASONS:
        raise DismissError(f"{reason!r} is not a reason (expected one of: {', '.join(REASONS)})")
    ids = list(dict.fromkeys(posting_ids))
    rows = await _postings(conn, ids)
    missing = [i for i in ids if i not in rows]
    if missing:
        raise DismissError(f"no posting with id {missing[0]} (`jobtracker matches` lists "
                           "posting ids)")
    done = []
    for posting_id in ids:
        row = rows[posting_id]
        cursor = await conn.execute(
            "INSERT INTO dismissals (posting_id, reason, note, verdict, score, dismissed_at) "
            "VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (posting_id) WHERE undismissed_at IS NULL DO NOTHING",
            (posting_id, reason, clean_note(note), row["verdict"], row["score"], now))
        done.append(Dismissed(posting_id, _label(row), already=cursor.rowcount == 0))
    return done


async def undismiss(conn: aiosqlite.Connection, posting_id: int, now: str) -> bool:
    """Bring a dismissed posting back; False when it was not dismissed."""
    cursor = await conn.execute(
        "UPDATE dismissals SET undismissed_at = ? WHERE posting_id = ? AND undismissed_at IS NULL",
        (now, posting_id))
    return cursor.rowcount > 0


async def standing(conn: aiosqlite.Connection) -> dict[int, str]:
    """Posting id -> reason, for every dismissal that stands."""
    rows = await conn.execute_fetchall(
        "SELECT posting_id, reason FROM dismissals WHERE undismissed_at IS NULL")
    return {row[0]: row[1] for row in rows}


async def _postings(conn: aiosqlite.Connection, ids: list[int]) -> dict[int, aiosqlite.Row]:
    if not ids:
        return {}
    marks = ", ".join("?" for _ in ids)
    rows = await conn.execute_fetchall(
        "SELECT p.id, p.company, p.title, r.verdict, s.score FROM postings AS p "
        "LEFT JOIN rankings AS r ON r.posting_id = p.id "
        "LEFT JOIN scores AS s ON s.posting_id = p.id "
        f"WHERE p.id IN ({marks})", ids)
    return {row["id"]: row for row in rows}


def _label(row: aiosqlite.Row) -> str:
    company, title = one_line(row["company"] or ""), one_line(row["title"] or "")
    return f"{company} - {title}" if company else title
