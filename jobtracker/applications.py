"""Applications: the one place that finds, creates and changes them.

Every write to the `applications` table goes through this module, whoever asks:
`jobtracker status` and the TUI's status picker (by hand), and accepting or
undoing a `status` proposal. So there is one rule for which application a change
is about (`find`) and one path every status change takes (`_write_status`), which
writes each change's row in `application_history` (time, from, to, source, and
for a proposal its id and evidence). Notes are added here too.

Functions here run inside the caller's write transaction (`store.write`).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING

from jobtracker.config import STATUSES

if TYPE_CHECKING:
    import aiosqlite

# Who changed a status: by hand (the `status` command, the TUI picker), by
# accepting or undoing a proposal, or the prepare command.
SOURCES = ("hand", "proposal", "prepare")

PROGRESSION = ("saved", "applied", "screening", "interviewing", "offer")
CLOSING = ("rejected", "withdrawn")
GHOSTED = "ghosted"
# Waiting on the employer: the statuses that can go quiet and become `ghosted`.
OPEN = ("applied", "screening", "interviewing")


class ApplicationError(Exception):
    """A change that cannot be made as asked; the message says why."""


class UnknownPosting(ApplicationError, LookupError):
    """The change names a posting that does not exist."""


@dataclass(frozen=True)
class Application:
    id: int
    posting_id: int | None
    company: str
    status: str


@dataclass(frozen=True)
class Source:
    """Where a status change came from: one of SOURCES, and for a proposal its id."""

    kind: str
    proposal_id: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in SOURCES:
            raise ValueError(f"unknown source {self.kind!r} (known: {', '.join(SOURCES)})")


HAND = Source("hand")

# The one name, everywhere a person reads it (proposals, timelines, the screens, the
# commands' output), for the state before an application exists.
NO_APPLICATION = "no application"


@dataclass(frozen=True)
class Change:
    """What a status change did: `before` is None when it created the application."""

    application_id: int
    before: str | None
    after: str

    @property
    def created(self) -> bool:
        return self.before is None


def status_change_applies(current: str | None, target: str) -> bool:
    """Whether moving an application from `current` (None: no application) to
    `target` is a change worth proposing.

    Closing statuses apply from anywhere but themselves. Progress only moves forward
    (an acknowledgement never takes an interview back to 'applied') and never
    reopens an application the user closed. `ghosted` applies only to an open
    application; a ghosted one that hears back moves on to anything past 'applied'
    (the reply proves it was read), and can still be closed.
    """
    if current == target:
        return False
    if target == GHOSTED:
        return current in OPEN
    if target in CLOSING or current is None:
        return True
    if current in CLOSING:
        return False
    if current == GHOSTED:
        return PROGRESSION.index(target) > PROGRESSION.index("applied")
    return PROGRESSION.index(target) > PROGRESSION.index(current)


_COLUMNS = "id, posting_id, company, status"

# Which mail is an application's (`a`): messages about its posting, or, for mail that
# names no posting, its company's. Mail the inbox read as about no application is
# nobody's. Each reads one covering index (migration 0010); `{pick}` aggregates sent_at
# (MAX, MIN) and `{also}` narrows further.
MAIL_BY_POSTING = """(SELECT {pick}(m.sent_at) FROM messages AS m
    WHERE m.posting_id = a.posting_id AND m.posting_id IS NOT NULL
      AND m.state IS NOT 'not_application' {also})"""
MAIL_BY_COMPANY = """(SELECT {pick}(m.sent_at) FROM messages AS m
    WHERE m.posting_id IS NULL AND m.company IS NOT NULL AND a.company != ''
      AND m.company = a.company COLLATE NOCASE
      AND m.state IS NOT 'not_application' {also})"""


def _from_row(row: tuple) -> Application:
    return Application(int(row[0]), row[1], str(row[2] or ""), str(row[3]))


async def get(conn: aiosqlite.Connection, application_id: int) -> Application | None:
    row = await (await conn.execute(
        f"SELECT {_COLUMNS} FROM applications WHERE id = ?", (application_id,))).fetchone()
    return _from_row(row) if row else None


async def last_activity(conn: aiosqlite.Connection, application_id: int) -> str | None:
    """When the latest thing happened to the application: its last status change or its
    latest linked employer message; None when there is no such application."""
    last = ", ".join(arm.format(pick="MAX", also="")
                     for arm in (MAIL_BY_POSTING, MAIL_BY_COMPANY))
    row = await (await conn.execute(
        f"SELECT COALESCE(a.changed_at, a.updated_at), {last} FROM applications AS a "
        "WHERE a.id = ?", (application_id,))).fetchone()
    return max((str(value) for value in row if value), default=None) if row else None


async def find(conn: aiosqlite.Connection, *, application_id: int | None = None,
               posting_id: int | None = None, company: str | None = None
               ) -> Application | None:
    """The application a change is about: by id, else by posting, else the
    company's one application without a posting (none when it has several)."""
    if application_id is not None:
        found = await get(conn, application_id)
        if found is not None:
            return found
    if posting_id is not None:
        row = await (await conn.execute(
            f"SELECT {_COLUMNS} FROM applications WHERE posting_id = ?",
            (posting_id,))).fetchone()
        return _from_row(row) if row else None
    if company:
        rows = await conn.execute_fetchall(
            f"SELECT {_COLUMNS} FROM applications WHERE posting_id IS NULL "
            "AND lower(company) = lower(?)", (company,))
        if len(rows) == 1:
            return _from_row(rows[0])
    return None


async def set_status(conn: aiosqlite.Connection, status: str, now: str, source: Source, *,
                     application_id: int | None = None, posting_id: int | None = None,
                     company: str | None = None) -> Change:
    """Set the status of the application `find` picks, creating it when there is none.

    A new application is for `posting_id` and `company` (the posting's company when
    none is given). UnknownPosting when the posting does not exist; ApplicationError
    when nothing names a posting, application or company.
    """
    if status not in STATUSES:
        raise ValueError(f"{status!r} is not an application status")
    found = await find(conn, application_id=application_id, posting_id=posting_id,
                       company=company)
    if found is not None:
        await _write_status(conn, found.id, found.status, status, now, source)
        return Change(found.id, found.status, status)
    if posting_id is not None:
        row = await (await conn.execute("SELECT company FROM postings WHERE id = ?",
                                        (posting_id,))).fetchone()
        if row is None:
            raise UnknownPosting(f"names posting {posting_id}, which does not exist")
        company = company or row[0] or ""
    if posting_id is None and not company:
        raise ApplicationError("names no posting, application or company to update")
    cursor = await conn.execute(
        "INSERT INTO applications (posting_id, company, status, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?)", (posting_id, company or "", status, now, now))
    new_id = int(cursor.lastrowid or 0)
    await _write_status(conn, new_id, None, status, now, source)
    return Change(new_id, None, status)


async def unchanged(conn: aiosqlite.Connection, change: Change) -> Application:
    """The application `change` set, while it still has the status the change set;
    ApplicationError once it changed since (or is gone)."""
    current = await get(conn, change.application_id)
    if current is None or current.status != change.after:
        now_is = f"'{current.status}'" if current else "gone"
        raise ApplicationError(f"the application's status changed since (now {now_is})")
    return current


async def restore(conn: aiosqlite.Connection, change: Change, now: str,
                  source: Source) -> None:
    """Take back `change` while the application still has the status it set: put the
    previous status back, or delete the application the change created.

    ApplicationError when the status changed since, or when other records refer to
    an application it would delete.
    """
    current = await unchanged(conn, change)
    if change.before is not None:
        await _write_status(conn, current.id, current.status, change.before, now, source,
                            undoing=True)
        return
    try:
        await conn.execute("DELETE FROM applications WHERE id = ?", (current.id,))
    except sqlite3.IntegrityError as exc:
        raise ApplicationError("other records now refer to the application it "
                               "created") from exc


async def add_note(conn: aiosqlite.Connection, application_id: int, text: str,
                   now: str) -> int:
    """Add a timestamped note, stored exactly as given; returns its id.
    ApplicationError when there is no such application."""
    if await get(conn, application_id) is None:
        raise ApplicationError(f"no application {application_id}")
    cursor = await conn.execute(
        "INSERT INTO application_notes (application_id, at, text) VALUES (?, ?, ?)",
        (application_id, now, text))
    return int(cursor.lastrowid or 0)


async def _write_status(conn: aiosqlite.Connection, application_id: int, before: str | None,
                        after: str, now: str, source: Source, *, undoing: bool = False
                        ) -> None:
    """Every status change passes here, once, with where it came from, and adds its
    history row (time, from, to, source). A new application (`before` None) was
    inserted holding its first status already.

    A proposal's evidence and its email's date are copied into the row, so the
    history reads whole even if the proposal is later undone; an undo says so
    instead of repeating the evidence it takes back."""
    if before is not None:
        await conn.execute("UPDATE applications SET status = ?, updated_at = ? WHERE id = ?",
                           (after, now, application_id))
    evidence = message_at = None
    if source.proposal_id is not None:
        if undoing:
            evidence = f"undid accepting proposal {source.proposal_id}"
        else:
            row = await (await conn.execute(
                "SELECT json_extract(payload, '$.evidence'), "
                "json_extract(payload, '$.message.date') FROM proposals "
                "WHERE id = ? AND json_valid(payload)", (source.proposal_id,))).fetchone()
            if row is not None:
                evidence, message_at = row[0], row[1]
    await conn.execute(
        "INSERT INTO application_history (application_id, at, from_status, to_status, "
        "source, proposal_id, evidence, message_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (application_id, now, before, after, source.kind, source.proposal_id,
         None if evidence is None else str(evidence),
         None if message_at is None else str(message_at)))
