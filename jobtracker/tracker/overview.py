"""Every application as one row, with the dates that matter derived from its history
and its mail — never typed in:

- `applied_at`: the first time its status became `applied` or further (the date of
  the email an accepted proposal came from, when it came from one);
- `last_contact_at`: the latest employer message linked to it;
- `followup_due`: the day its status's `followup` days of silence run out, counted
  from the later of its last status change and its last employer message.

A message belongs to an application by posting, or, when the message names no
posting, by company. Messages the inbox read as `not_application` are not contact.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from jobtracker.applications import PROGRESSION
from jobtracker.config import Followup

if TYPE_CHECKING:
    import aiosqlite

SENT = PROGRESSION[1:]   # statuses that mean the application went out

_SENT = ", ".join(f"'{s}'" for s in SENT)
# One pass over the covering history index: when each application first went out,
# its last change, and which later stages it ever reached.
HISTORY = f"""
hist AS (
    SELECT application_id AS app,
           MIN(CASE WHEN to_status IN ({_SENT}) THEN COALESCE(message_at, at) END)
               AS applied_at,
           MAX(at) AS changed_at,
           MAX(to_status = 'screening') AS screened,
           MAX(to_status = 'interviewing') AS interviewed,
           MAX(to_status = 'offer') AS offered
    FROM application_history GROUP BY application_id
)"""

# Linked mail, asked per application of each of the two covering indexes: by posting,
# and by company for mail that names no posting. `{pick}` is MAX (the last contact) or
# MIN (the first reply: from the day it went out, acknowledgements aside — a form
# letter confirming receipt is not an answer).
_BY_POSTING = """(SELECT {pick}(m.sent_at) FROM messages AS m
    WHERE m.posting_id = a.posting_id AND m.posting_id IS NOT NULL
      AND m.state IS NOT 'not_application' {reply})"""
_BY_COMPANY = """(SELECT {pick}(m.sent_at) FROM messages AS m
    WHERE m.posting_id IS NULL AND m.company IS NOT NULL AND a.company != ''
      AND m.company = a.company COLLATE NOCASE
      AND m.state IS NOT 'not_application' {reply})"""
_REPLY = "AND m.sent_at >= COALESCE(h.applied_at, '') AND m.state IS NOT 'acknowledgement'"
MAIL = ", ".join(arm.format(pick=pick, reply=reply)
                 for pick, reply in (("MAX", ""), ("MIN", _REPLY))
                 for arm in (_BY_POSTING, _BY_COMPANY))

ROWS = f"""
WITH {HISTORY.strip()},
tailored AS (SELECT DISTINCT posting_id FROM proposals
             WHERE kind = 'resume_edit' AND state = 'accepted' AND posting_id IS NOT NULL)
SELECT a.id, a.posting_id, COALESCE(NULLIF(p.company, ''), a.company) AS company,
       COALESCE(p.title, '') AS title, a.status, COALESCE(p.url, '') AS url,
       h.applied_at, h.changed_at, h.screened, h.interviewed, h.offered, p.closed_at,
       b.source, b.token, r.verdict, a.updated_at,
       t.posting_id IS NOT NULL, {MAIL}
FROM applications AS a
LEFT JOIN hist AS h ON h.app = a.id
LEFT JOIN postings AS p ON p.id = a.posting_id
LEFT JOIN boards AS b ON b.id = p.board_id
LEFT JOIN rankings AS r ON r.posting_id = a.posting_id
LEFT JOIN tailored AS t ON t.posting_id = a.posting_id
"""


@dataclass(frozen=True)
class Row:
    """One application as the list, the screen and the funnel see it."""

    id: int
    posting_id: int | None
    company: str
    title: str
    status: str
    url: str
    applied_at: str | None
    changed_at: str | None        # the last status change
    last_contact_at: str | None
    first_reply_at: str | None
    screened: bool
    interviewed: bool
    offered: bool
    closed_at: str | None         # the posting closed on its board
    source: str | None            # `greenhouse:acme`, `feed:remote-feed`; None: no posting
    verdict: str | None
    tailored: bool                # an accepted resume edit tailored the resume for it
    followup_due: str | None = None
    due: bool = False

    @property
    def activity(self) -> str:
        """The latest thing that happened to it: a status change or an employer message."""
        return max(self.changed_at or "", self.last_contact_at or "")

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "posting": self.posting_id, "company": self.company,
                "title": self.title, "status": self.status, "applied_at": self.applied_at,
                "last_contact_at": self.last_contact_at, "followup_due": self.followup_due,
                "due": self.due, "url": self.url, "source": self.source,
                "posting_closed_at": self.closed_at}


def day(stamp: str | None) -> date | None:
    """The UTC calendar day of a stored time (or of a `YYYY-MM-DD` date)."""
    return _day(stamp[:10]) if stamp else None


@lru_cache(maxsize=4096)   # thousands of rows share a few hundred days
def _day(text: str) -> date:
    return date.fromisoformat(text)


def followup_due(status: str, activity: str | None, followup: Followup) -> date | None:
    """When an application at `status`, last active at `activity`, is due; None when
    its status has no follow-up or it never had any activity."""
    days = followup.days.get(status)
    start = day(activity)
    return start + timedelta(days=days) if days and start else None


def _latest(a: str | None, b: str | None) -> str | None:
    return a if (a or "") >= (b or "") else b


def _earliest(a: str | None, b: str | None) -> str | None:
    if a and b:
        return min(a, b)
    return a or b


def _row(raw: Any, followup: Followup, today: date) -> Row:
    source = f"{raw[12]}:{raw[13]}" if raw[12] else None
    changed = raw[7] or raw[15]
    contact = _latest(raw[17], raw[18])
    due_on = followup_due(raw[4], _latest(changed, contact), followup)
    return Row(int(raw[0]), raw[1], str(raw[2] or ""), str(raw[3] or ""), str(raw[4]),
               str(raw[5] or ""), raw[6], changed, contact, _earliest(raw[19], raw[20]),
               bool(raw[8]), bool(raw[9]), bool(raw[10]), raw[11], source, raw[14],
               bool(raw[16]), due_on.isoformat() if due_on else None,
               bool(due_on and due_on <= today))


async def load_rows(conn: aiosqlite.Connection, followup: Followup, today: date, *,
                    application_id: int | None = None) -> list[Row]:
    """Every application (or one), most recent activity first."""
    where, args = ("WHERE a.id = ?", (application_id,)) if application_id is not None \
        else ("", ())
    cursor = await conn.execute(ROWS + where, args)
    cursor.row_factory = None   # plain tuples: 5,000 sqlite3.Row objects cost more
    raws = await cursor.fetchall()
    rows = [_row(raw, followup, today) for raw in raws]
    rows.sort(key=lambda r: (r.activity, r.id), reverse=True)
    return rows
