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

from jobtracker.applications import MAIL_BY_COMPANY, MAIL_BY_POSTING
from jobtracker.config import Followup

if TYPE_CHECKING:
    import aiosqlite

# Linked mail (the rule is jobtracker.applications'), asked per application: MAX is the
# last contact; MIN the first reply (from the day it went out, acknowledgements aside —
# a form letter confirming receipt is not an answer).
_REPLY = "AND m.sent_at >= COALESCE(a.applied_at, '') AND m.state IS NOT 'acknowledgement'"
MAIL = ", ".join(f"{arm.format(pick=pick, also=also)} AS {name}_by_{link}"
                 for pick, also, name in (("MAX", "", "last"), ("MIN", _REPLY, "first"))
                 for arm, link in ((MAIL_BY_POSTING, "posting"),
                                   (MAIL_BY_COMPANY, "company")))

# The history's dates (applied_at, changed_at, the stages reached) are kept on the
# application by a trigger (migration 0013): no history row is read here. The linked
# mail is asked once per application (a materialized step), then combined; the rows
# come out in Row's field order, most recent activity first.
ROWS = f"""
WITH tailored AS (SELECT DISTINCT posting_id FROM proposals
             WHERE kind = 'resume_edit' AND state = 'accepted' AND posting_id IS NOT NULL),
base AS MATERIALIZED (
    SELECT a.id, a.posting_id, COALESCE(NULLIF(p.company, ''), a.company, '') AS company,
           COALESCE(p.title, '') AS title, a.status, COALESCE(p.url, '') AS url,
           a.applied_at, COALESCE(a.changed_at, a.updated_at) AS changed_at,
           a.screened, a.interviewed, a.offered, p.closed_at,
           b.source || ':' || b.token AS source, r.verdict,
           t.posting_id IS NOT NULL AS tailored, {MAIL}
    FROM applications AS a
    LEFT JOIN postings AS p ON p.id = a.posting_id
    LEFT JOIN boards AS b ON b.id = p.board_id
    LEFT JOIN rankings AS r ON r.posting_id = a.posting_id
    LEFT JOIN tailored AS t ON t.posting_id = a.posting_id
    {{where}}),
dated AS (
    SELECT *, NULLIF(max(COALESCE(last_by_posting, ''), COALESCE(last_by_company, '')), '')
                  AS last_contact_at,
           CASE WHEN first_by_posting IS NULL THEN first_by_company
                WHEN first_by_company IS NULL THEN first_by_posting
                ELSE min(first_by_posting, first_by_company) END AS first_reply_at
    FROM base)
SELECT id, posting_id, company, title, status, url, applied_at, changed_at,
       last_contact_at, first_reply_at, screened, interviewed, offered, closed_at, source,
       verdict, tailored
FROM dated
ORDER BY max(COALESCE(changed_at, ''), COALESCE(last_contact_at, '')) DESC, id DESC
"""


@dataclass(slots=True)   # not frozen: a frozen init costs 3 µs a row, 5,000 rows a list
class Row:
    """One application as the list, the screen and the funnel see it. The fields up to
    `tailored` are ROWS' columns, in order."""

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
    """The UTC calendar day of a stored time (or of a `YYYY-MM-DD` date); None for a
    stamp that is no date (a row written before dates from outside were checked)."""
    try:
        return _day(stamp[:10]) if stamp else None
    except ValueError:
        return None


@lru_cache(maxsize=4096)   # thousands of rows share a few hundred days
def _day(text: str) -> date:
    return date.fromisoformat(text)


def followup_due(status: str, activity: str | None, followup: Followup) -> date | None:
    """When an application at `status`, last active at `activity`, is due; None when
    its status has no follow-up or it never had any activity."""
    days = followup.days.get(status)
    start = day(activity)
    if not days or not start:
        return None
    try:
        return start + timedelta(days=days)
    except OverflowError:     # activity near 9999-12-31: no follow-up can fall after it
        return None


def _row(raw: tuple[Any, ...], followup: Followup, today: date) -> Row:
    row = Row(*raw)
    row.screened, row.interviewed, row.offered, row.tailored = (
        bool(raw[10]), bool(raw[11]), bool(raw[12]), bool(raw[16]))
    due_on = followup_due(row.status, row.activity, followup)
    if due_on is not None:
        row.followup_due, row.due = due_on.isoformat(), due_on <= today
    return row


async def load_rows(conn: aiosqlite.Connection, followup: Followup, today: date, *,
                    application_id: int | None = None) -> list[Row]:
    """Every application (or one), most recent activity first."""
    one = application_id is not None
    cursor = await conn.execute(_ONE if one else _ALL, (application_id,) if one else ())
    cursor.row_factory = None   # plain tuples: 5,000 sqlite3.Row objects cost more
    return [_row(raw, followup, today) for raw in await cursor.fetchall()]


_ALL = ROWS.format(where="")
_ONE = ROWS.format(where="WHERE a.id = ?")
