"""The database reads and writes behind the screens, as plain data.

The TUI keeps no state the database does not also have: each screen loads what
it shows from here when it opens and after every change, and every decision is
written at once. Each call opens its own short-lived connection, so no
connection outlives the operation that needed it (aiosqlite threads must be
closed) and the run's own connection is never shared with the UI.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jobtracker import applications, proposals, store
from jobtracker.applications import Change
from jobtracker.clock import now_iso
from jobtracker.learning import dismissals
from jobtracker.proposals import Decision, Line, Proposal


async def waiting_count(db: Path) -> int:
    """Proposals still to decide (pending, stale ones included)."""
    async with store.connect(db) as conn:
        row = await (await conn.execute(
            "SELECT COUNT(*) FROM proposals WHERE state = 'pending'")).fetchone()
    return int(row[0])


# --- the review -------------------------------------------------------------------------

@dataclass(frozen=True)
class ReviewItem:
    """One proposal as its kind shows it, with what the review shows beside it."""

    proposal: Proposal
    group: str                  # proposals about the same posting/application share it
    heading: str                # the group's name for people: "Acme — Staff Engineer"
    score: float | None         # the posting's score, when scored
    word: str = ""              # the kind's word in the list ("edit")
    brief: str = ""             # what changes, in a few words
    lines: tuple[Line, ...] = ()   # the detail, as the kind describes it
    revisable: str | None = None   # the payload field the user may rewrite first (`e`)


def _group_of(p: Proposal, company: str | None) -> str:
    if p.posting_id is not None:
        return f"posting:{p.posting_id}"
    if p.application_id is not None:
        return f"application:{p.application_id}"
    return f"company:{(company or '').lower()}"


async def load_review(db: Path, home: Path, also: set[int] | None = None) -> list[ReviewItem]:
    """Proposals still to decide, plus those named in `also` (decided in this
    session, shown with their mark), grouped by posting and ordered by group."""
    async with store.connect(db) as conn:
        found = await proposals.list_proposals(conn, home)
        keep = [p for p in found if p.state in ("pending", "stale") or p.id in (also or set())]
        items = [await _item(conn, p, home) for p in keep]
    first: dict[str, int] = {}
    for index, item in enumerate(items):
        first.setdefault(item.group, index)
    return sorted(items, key=lambda item: (first[item.group], item.proposal.id))


async def _item(conn: Any, p: Proposal, home: Path) -> ReviewItem:
    company = p.payload.get("company")
    heading, score = str(company or "no posting"), None
    if p.posting_id is not None:
        row = await (await conn.execute(
            "SELECT p.company, p.title, s.score FROM postings AS p "
            "LEFT JOIN scores AS s ON s.posting_id = p.id WHERE p.id = ?",
            (p.posting_id,))).fetchone()
        if row is not None:
            heading = f"{row[0]} — {row[1]}" if row[0] else str(row[1])
            score = row[2]
    view = proposals.presentation(p.kind)
    return ReviewItem(p, _group_of(p, company), heading, score, proposals.word(p),
                      view.brief(p), tuple(await view.detail(conn, p, home)),
                      view.revisable)


async def accept(db: Path, home: Path, ids: list[int]) -> list[Decision]:
    async with store.connect(db) as conn:
        decisions = await proposals.accept(conn, ids, now_iso(), home)
        await _refresh_packets(conn, home, decisions)
        return decisions


async def _refresh_packets(conn: Any, home: Path, decisions: list[Decision]) -> list[str]:
    """Packets of the postings decided about, brought up to date (jobtracker/prepare/
    refresh.py); a bad config.yaml leaves them for the next prepare."""
    from jobtracker.prepare.refresh import after_decisions  # the renderer loads when needed
    from jobtracker.workspace import Workspace
    from jobtracker.yamlfile import ConfigError

    try:
        render = Workspace(home).config().render
    except ConfigError:
        return []
    return await after_decisions(conn, home, decisions, now_iso(), render)


async def reject(db: Path, home: Path, ids: list[int]) -> list[Decision]:
    async with store.connect(db) as conn:
        return await proposals.reject(conn, ids, now_iso(), home)


async def undo(db: Path, home: Path) -> Decision | None:
    async with store.connect(db) as conn:
        decision = await proposals.undo_last(conn, now_iso(), home)
        if decision is not None:
            await _refresh_packets(conn, home, [decision])
        return decision


async def revise(db: Path, proposal_id: int, text: str) -> bool:
    """The user's own version of a pending proposal's revisable field, before it is
    accepted. False when it is no longer pending (decided elsewhere meanwhile)."""
    async with store.connect(db) as conn:
        return await proposals.revise(conn, proposal_id, text)


async def set_status(db: Path, posting_id: int, status: str) -> Change:
    """The status picker's choice for a posting's application, by hand (creating the
    application when there is none), through the same rule as `jobtracker status`."""
    async with store.connect(db) as conn, store.write(conn):
        return await applications.set_status(conn, status, now_iso(), applications.HAND,
                                             posting_id=posting_id)


# --- matches and postings -----------------------------------------------------------------

@dataclass(frozen=True)
class PostingText:
    id: int
    company: str
    title: str
    location: str
    url: str
    description: str


async def load_posting(db: Path, posting_id: int) -> PostingText | None:
    async with store.connect(db) as conn:
        row = await (await conn.execute(
            "SELECT id, company, title, location, url, description FROM postings "
            "WHERE id = ?", (posting_id,))).fetchone()
    if row is None:
        return None
    return PostingText(row[0], row[1] or "", row[2] or "", row[3] or "", row[4] or "",
                       row[5] or "")


@dataclass(frozen=True)
class Ranking:
    reasons: list[str]
    meets: list[str]
    misses: list[str]


def _strings(raw: str | None) -> list[str]:
    try:
        value = json.loads(raw or "[]")
    except ValueError:
        return []
    return [str(v) for v in value] if isinstance(value, list) else []


async def load_ranking(db: Path, posting_id: int) -> Ranking | None:
    async with store.connect(db) as conn:
        row = await (await conn.execute(
            "SELECT reasons, meets, misses FROM rankings WHERE posting_id = ?",
            (posting_id,))).fetchone()
    if row is None:
        return None
    return Ranking(_strings(row[0]), _strings(row[1]), _strings(row[2]))


async def dismiss(db: Path, posting_id: int, reason: str, note: str) -> None:
    """Dismiss one match, as `jobtracker matches dismiss` does."""
    async with store.connect(db) as conn, store.write(conn):
        await dismissals.dismiss(conn, [posting_id], reason, note, now_iso())


async def undismiss(db: Path, posting_id: int) -> bool:
    async with store.connect(db) as conn, store.write(conn):
        return await dismissals.undismiss(conn, posting_id, now_iso())
