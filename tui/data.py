"""The database reads and writes behind the screens, as plain data: their one route.

The TUI keeps no state the database does not also have: each screen loads what
it shows from here when it opens and after every change, and every decision is
written at once. No screen opens a connection or names a table; where the
library already has the read or the write (`jobtracker.proposals`,
`jobtracker.applications`, `jobtracker.tracker`, `jobtracker.ranking`, the
runner's survey), this module calls it, so a screen and a command never disagree.
Each call opens its own short-lived connection, so no connection outlives the
operation that needed it (aiosqlite threads must be closed) and the run's own
connection is never shared with the UI.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

from jobtracker import applications, proposals, runner, store
from jobtracker.applications import Change
from jobtracker.clock import now as clock_now
from jobtracker.clock import now_iso
from jobtracker.config import Followup, Profile
from jobtracker.interviews.store import Interview, upcoming
from jobtracker.learning import dismissals
from jobtracker.prepare.answer_bank import load_answers
from jobtracker.proposals import Decision, Line, Proposal
from jobtracker.ranking.matches import Listed, Match, load_filtered, load_matches, load_unjudged
from jobtracker.run.setup import config_of, sources_of
from jobtracker.runner import Setup, TaskState
from jobtracker.store import StoreError
from jobtracker.tracker import store as tracked
from jobtracker.tracker.store import Overview
from jobtracker.tracker.timeline import Timeline
from jobtracker.yamlfile import ConfigError

PREPARE = applications.Source("prepare")


# --- the dashboard ----------------------------------------------------------------------

async def survey(setup: Setup, model_reasons: dict[str, str | None] | None) -> list[TaskState]:
    """The queue now: with the model's availability when a run has told us."""
    async with store.connect(setup.ws.db) as conn:
        ctx = setup.context(runner.now_iso())
        return await runner.queue_between_runs(conn, setup, ctx, model_reasons)


FETCH_FAILED = "last fetch failed"


async def last_fetched(db: Path) -> str | None:
    """When a board was last fetched *successfully* (the newest `last_ok`), or
    FETCH_FAILED when every board's latest attempt failed: a fetch that reached no
    board must not read as a fresh one."""
    async with store.connect(db) as conn:
        row = await (await conn.execute(
            "SELECT MAX(last_ok), COUNT(last_fetched), "
            "COUNT(CASE WHEN last_fetched IS NOT NULL AND last_error IS NULL THEN 1 END) "
            "FROM boards")).fetchone()
    if row is None:
        return None
    newest_ok, tried, ok = row
    return FETCH_FAILED if tried and not ok else newest_ok


async def has_postings(db: Path) -> bool:
    async with store.connect(db) as conn:
        row = await (await conn.execute("SELECT 1 FROM postings LIMIT 1")).fetchone()
    return row is not None


async def waiting_count(db: Path, home: Path | None = None) -> int:
    """Proposals waiting for the user: pending and not stale (`proposals.waiting`, as
    the digest and `proposals list` count them)."""
    async with store.connect(db) as conn:
        return len(await proposals.waiting(conn, home))


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
        render = config_of(Workspace(home)).render
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


# --- applications ---------------------------------------------------------------------

async def set_status(db: Path, posting_id: int, status: str) -> Change:
    """The status picker's choice for a posting's application, by hand (creating the
    application when there is none), through the same rule as `jobtracker status`."""
    async with store.connect(db) as conn, store.write(conn):
        return await applications.set_status(conn, status, now_iso(), applications.HAND,
                                             posting_id=posting_id)


async def set_applied(db: Path, posting_id: int) -> tuple[Change | None, str | None]:
    """Mark the posting's application applied (from its packet: source `prepare`), as
    (the change, None); (None, the status now) when that would take it back or
    change nothing."""
    async with store.connect(db) as conn, store.write(conn):
        found = await applications.find(conn, posting_id=posting_id)
        current = found.status if found else None
        if not applications.status_change_applies(current, "applied"):
            return None, current
        return await applications.set_status(conn, "applied", now_iso(), PREPARE,
                                             posting_id=posting_id), None


async def overview(db: Path, followup: Followup, today: date,
                   at: datetime | None = None) -> Overview:
    """Every application and the funnel, as `jobtracker applications` reads them, and
    the interviews upcoming from `at` (the app's clock)."""
    return await tracked.overview(db, followup, today, at)


async def interviews(db: Path) -> list[Interview]:
    """The confirmed interviews from now on, soonest first: `jobtracker interviews`'
    own read."""
    async with store.connect(db) as conn:
        return await upcoming(conn, clock_now())


async def timeline(db: Path, application_id: int, followup: Followup,
                   today: date) -> Timeline | None:
    return await tracked.timeline(db, application_id, followup, today)


async def set_application_status(db: Path, application_id: int, status: str) -> Change:
    """A status picked by hand for this application."""
    return await tracked.set_status(db, application_id, status)


async def add_note(db: Path, application_id: int, text: str) -> None:
    await tracked.add_note(db, application_id, text)


async def prepare_packet(setup: Setup, posting_id: int) -> str | None:
    """Write the posting's application packet as `jobtracker prepare POSTING` does (no
    model); None when written, else why not, in one short line."""
    from jobtracker.prepare.run import prepare  # with the renderer: loaded when needed

    ws = setup.ws
    try:
        await prepare(ws.home, ws.db, setup.profile, load_answers(ws / "answers.yaml"),
                      now_iso(), ids=[posting_id], render=setup.config.render)
    except ConfigError as exc:   # the file's name, not its long path: one short line
        where = f"{exc.path.name}:{exc.line}" if exc.line else exc.path.name
        return f"{where}: {exc.field}: {exc.message}" if exc.field else f"{where}: {exc.message}"
    except StoreError as exc:
        return str(exc)
    return None


# --- matches and postings -----------------------------------------------------------------

async def matches(db: Path, profile: Profile, *, dismissed: bool = False) -> list[Match]:
    """Open, scored matches, best first (the dismissed ones instead, with `dismissed`):
    `jobtracker matches`' own query."""
    return await load_matches(db, profile, dismissed=dismissed)

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


async def filtered(db: Path, profile: Profile) -> list[Listed]:
    """The postings profile.yaml's filters keep from the model, each with its rules
    (`jobtracker matches --filtered`'s own query)."""
    return await load_filtered(db, profile)


async def unjudged(db: Path, profile: Profile) -> list[Listed]:
    """The matches the judge has not answered yet, best pre-rank first."""
    return await load_unjudged(db, profile)


# --- saving a posting found anywhere (`jobtracker save`) ----------------------------------

@dataclass(frozen=True)
class SavedPosting:
    """What `S` on the matches screen stored, or why nothing was."""

    posting_id: int | None
    label: str                   # `Company - Title`, or the reason nothing was saved
    new: bool = False
    leader: int | None = None    # the posting that stands for the job in the matches


async def save_posting(setup: Setup, entry: str, company: str = "",
                       title: str = "") -> SavedPosting:
    """Save what the prompt took, as `jobtracker save` does: one line that is an
    http(s) address is that page; anything else is pasted text (read by the model
    config.yaml names, when it answers)."""
    from jobtracker.postings import save  # the page reader and HTTP: loaded when needed

    text = entry.strip()
    ws = setup.ws
    try:
        if "\n" not in text and re.match(r"(?i)https?://\S+$", text):
            sources = sources_of(ws) if (ws / "sources.yaml").exists() else None
            found = await save.read_url(text, sources=sources, company=company or None,
                                        title=title or None)
        else:
            found = await save.read_pasted_input(
                save.read_pasted(entry.encode("utf-8")), setup.config.llm,
                company=company or None, title=title or None)
        stored = await save.store_saved(ws.db, found.posting, now_iso())
    except save.SaveError as exc:
        why = str(exc).splitlines()[0]
        if "--pick" in why:     # the command line chooses among a page's postings
            why = why.rstrip(":") + f" (`jobtracker save {text} --pick N`)"
        return SavedPosting(None, why)
    except (ConfigError, StoreError) as exc:
        return SavedPosting(None, str(exc))
    posting = found.posting
    label = f"{posting.company} - {posting.title}" if posting.company else posting.title
    return SavedPosting(stored.posting_id, label, stored.new, stored.leader)
