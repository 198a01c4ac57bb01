"""One application's timeline: its status history (with sources and evidence), the
mail linked to it (including mail that proposed nothing, such as scheduling), its
notes, and when its posting closed on the board. Text from outside is kept as
stored; whoever shows it shows it literally."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

from jobtracker.config import Followup
from jobtracker.interviews import store as interviews
from jobtracker.tracker.overview import Row, load_rows

if TYPE_CHECKING:
    import aiosqlite


@dataclass(frozen=True)
class Entry:
    """One line of the timeline, in time order: what kind, when, and its fields."""

    kind: str          # "status", "message", "note", "interview" or "closed"
    time: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Timeline:
    row: Row
    history: list[dict[str, Any]]
    messages: list[dict[str, Any]]
    notes: list[dict[str, Any]]
    interviews: list[dict[str, Any]] = field(default_factory=list)

    @property
    def entries(self) -> list[Entry]:
        """Everything that happened, oldest first."""
        items = [Entry("status", h["time"], h) for h in self.history]
        items += [Entry("message", m["date"], m) for m in self.messages]
        items += [Entry("note", n["time"], n) for n in self.notes]
        items += [Entry("interview", i["start_utc"], i) for i in self.interviews]
        if self.row.closed_at and self.row.status not in ("rejected", "withdrawn"):
            items.append(Entry("closed", self.row.closed_at,
                               {"text": f"posting closed on {self.row.closed_at[:10]}"}))
        return sorted(items, key=lambda e: e.time)

    def to_json(self) -> dict[str, Any]:
        return {**self.row.to_json(), "history": self.history, "notes": self.notes,
                "messages": self.messages,
                "interviews": [{k: v for k, v in i.items() if k not in ("start_utc", "text")}
                               for i in self.interviews]}


def _said(item: interviews.Interview) -> str:
    """`interview 2026-12-03 14:00 +01:00 · https://meet...` (cancelled ones say so)."""
    where = f" · {item.where}" if item.where else ""
    state = " (cancelled)" if item.status == "cancelled" else ""
    return f"interview {item.start[:10]} {item.start[11:16]} {item.start[19:] or 'UTC'}" \
           f"{where}{state}"


async def load_timeline(conn: aiosqlite.Connection, application_id: int,
                        followup: Followup, today: date) -> Timeline | None:
    """The application's timeline; None when there is no such application."""
    rows = await load_rows(conn, followup, today, application_id=application_id)
    if not rows:
        return None
    row = rows[0]
    history = [{"time": r[0], "from": r[1], "to": r[2], "source": r[3], "proposal": r[4],
                "evidence": r[5]}
               for r in await conn.execute_fetchall(
                   "SELECT at, from_status, to_status, source, proposal_id, evidence "
                   "FROM application_history WHERE application_id = ? ORDER BY at, id",
                   (application_id,))]
    notes = [{"time": r[0], "text": r[1]} for r in await conn.execute_fetchall(
        "SELECT at, text FROM application_notes WHERE application_id = ? ORDER BY at, id",
        (application_id,))]
    messages = [{"date": r[0], "from": r[1], "subject": r[2], "state": r[3], "key": r[4]}
                for r in await conn.execute_fetchall(
                    "SELECT sent_at, sender, subject, state, key FROM messages "
                    "WHERE (posting_id IS NOT NULL AND posting_id = ?) OR (posting_id IS NULL "
                    "AND ? != '' AND company = ? COLLATE NOCASE) ORDER BY sent_at, key",
                    (row.posting_id, row.company, row.company))]
    found = await interviews.of_application(conn, application_id)
    booked = [{**item.to_json(), "start_utc": item.start_utc, "text": _said(item)}
              for item in found]
    return Timeline(row, history, messages, notes, booked)
