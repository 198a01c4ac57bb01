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
from typing import TYPE_CHECKING, Any

from jobtracker.applications import PROGRESSION
from jobtracker.config import Followup

if TYPE_CHECKING:
    import aiosqlite

SENT = PROGRESSION[1:]   # statuses that mean the application went out

# Linked mail per application. Two arms, each served by its own index: by posting,
# and by company for mail that names no posting.
LINKED = """
linked AS (
    SELECT a.id AS app, m.sent_at, m.state FROM applications AS a
    JOIN messages AS m ON m.posting_id = a.posting_id
    WHERE m.posting_id IS NOT NULL AND m.state IS NOT 'not_application'
    UNION ALL
    SELECT a.id, m.sent_at, m.state FROM applications AS a
    JOIN messages AS m ON m.company = a.company COLLATE NOCASE
    WHERE m.posting_id IS NULL AND m.company IS NOT NULL AND a.company != ''
      AND m.state IS NOT 'not_application'
)"""

HISTORY = f"""
hist AS (
    SELECT application_id AS app,
           MIN(CASE WHEN to_status IN ({", ".join(f"'{s}'" for s in SENT)})
               THEN COALESCE(message_at, at) END) AS applied_at,
           MAX(at) AS changed_at,
           MAX(to_status = 'screening') AS screened,
           MAX(to_status = 'interviewing') AS interviewed,
           MAX(to_status = 'offer') AS offered
    FROM application_history GROUP BY application_id
)"""

# Replies: linked mail from the day the application went out, acknowledgements aside
# (a form letter that confirms receipt is not an answer).
ROWS = f"""
WITH {HISTORY.strip()}, {LINKED.strip()},
mail AS (
    SELECT l.app, MAX(l.sent_at) AS last_contact,
           MIN(CASE WHEN l.state IS NOT 'acknowledgement'
                     AND l.sent_at >= COALESCE(h.applied_at, '') THEN l.sent_at END)
               AS first_reply
    FROM linked AS l LEFT JOIN hist AS h ON h.app = l.app GROUP BY l.app
)
SELECT a.id, a.posting_id, COALESCE(NULLIF(p.company, ''), a.company) AS company,
       COALESCE(p.title, '') AS title, a.status, COALESCE(p.url, '') AS url,
       h.applied_at, h.changed_at, mail.last_contact, mail.first_reply,
       COALESCE(h.screened, 0), COALESCE(h.interviewed, 0), COALESCE(h.offered, 0),
       p.closed_at, b.source, b.token, r.verdict, a.updated_at,
       EXISTS (SELECT 1 FROM proposals AS q WHERE q.kind = 'resume_edit'
               AND q.state = 'accepted' AND q.posting_id = a.posting_id) AS tailored
FROM applications AS a
LEFT JOIN postings AS p ON p.id = a.posting_id
LEFT JOIN boards AS b ON b.id = p.board_id
LEFT JOIN rankings AS r ON r.posting_id = a.posting_id
LEFT JOIN hist AS h ON h.app = a.id
LEFT JOIN mail ON mail.app = a.id
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
    return date.fromisoformat(stamp[:10]) if stamp else None


def followup_due(status: str, activity: str | None, followup: Followup) -> date | None:
    """When an application at `status`, last active at `activity`, is due; None when
    its status has no follow-up or it never had any activity."""
    days = followup.days.get(status)
    start = day(activity)
    return start + timedelta(days=days) if days and start else None


def _row(raw: Any, followup: Followup, today: date) -> Row:
    source = f"{raw[14]}:{raw[15]}" if raw[14] else None
    changed = raw[7] or raw[17]
    activity = max(changed or "", raw[8] or "") or None
    due_on = followup_due(raw[4], activity, followup)
    return Row(int(raw[0]), raw[1], str(raw[2] or ""), str(raw[3] or ""), str(raw[4]),
               str(raw[5] or ""), raw[6], changed, raw[8], raw[9], bool(raw[10]),
               bool(raw[11]), bool(raw[12]), raw[13], source, raw[16], bool(raw[18]),
               due_on.isoformat() if due_on else None, bool(due_on and due_on <= today))


async def load_rows(conn: aiosqlite.Connection, followup: Followup, today: date, *,
                    application_id: int | None = None) -> list[Row]:
    """Every application (or one), most recent activity first."""
    where, args = ("WHERE a.id = ?", (application_id,)) if application_id is not None \
        else ("", ())
    raws = await conn.execute_fetchall(ROWS + where, args)
    rows = [_row(raw, followup, today) for raw in raws]
    rows.sort(key=lambda r: (r.activity, r.id), reverse=True)
    return rows
