"""Storing one board's listing: upsert its postings, close what it no longer lists.

Identity is (board, ATS job id), never the URL. Within one board a posting is:
new (inserted), updated (a stored field changed, or it came back and is reopened),
unchanged (only `last_seen` moves), or closed (absent from a successful fetch).

Feeds and ATS boards share postings. A feed item whose link is a known ATS job page
(`sources.identify`) is stored under that ATS board with the ATS's job id, so when
the board itself is fetched the same row gets the ATS prose in place of the blurb
(`description_source` 'feed' → 'ats'). From then on the ATS board alone opens and
closes it; a feed only refreshes, reopens or closes rows still holding its blurb.
Feed items with no recognisable link live on the feed's own board row
(source 'feed', token = the feed's name).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

import aiosqlite

from jobtracker.config import Board
from jobtracker.postings.levels import title_level
from jobtracker.postings.samejob import stored_key
from jobtracker.sources import REGISTRY, NormalizedPosting, identify

if TYPE_CHECKING:   # handed in by fetch: grouping is entered from there alone
    from jobtracker.postings.groups import BoardGroups


class Counts(Protocol):
    """What the apply functions count (fetch.BoardResult has these)."""

    new: int
    updated: int
    reopened: int
    closed: int
    unchanged: int


# The posting columns a fetch writes, in this order everywhere below.
_CONTENT = ("company", "title", "location", "remote", "url", "department", "description",
            "description_source", "title_level", "salary_min", "salary_max",
            "salary_currency", "posted_at", "updated_at")
_SET_CONTENT = ", ".join(f"{column} = ?" for column in _CONTENT)
# `job_key` (jobtracker/postings/samejob.py) is written with the content it is made of, and a
# new posting's group (`lead_id`, `job_open`) with it, so the wide row is written once.
# A posting stored with its key is grouped by its writer: the schema queues only rows
# stored without one (migration 0014).
_INSERT = (f"INSERT INTO postings (board_id, external_id, {', '.join(_CONTENT)}, first_seen, "
           f"last_seen, feed_id, job_key, lead_id, job_open) VALUES (?, ?, "
           f"{', '.join('?' for _ in _CONTENT)}, ?, ?, ?, ?, ?, ?)")


def _content(posting: NormalizedPosting, company: str) -> tuple[Any, ...]:
    return (
        posting.company or company, posting.title, posting.location,
        None if posting.remote is None else int(posting.remote), posting.url,
        posting.department, posting.description, posting.description_source,
        title_level(posting.title), posting.salary_min, posting.salary_max,
        posting.salary_currency, posting.posted_at, posting.updated_at,
    )


async def _board_row(conn: aiosqlite.Connection, source: str,
                     token: str) -> aiosqlite.Row | None:
    """The board row for (source, token), tokens compared case-insensitively."""
    cursor = await conn.execute(
        "SELECT id, token, company, last_ok FROM boards "
        "WHERE source = ? AND token = ? COLLATE NOCASE ORDER BY id LIMIT 1", (source, token))
    return await cursor.fetchone()


async def ensure_board(conn: aiosqlite.Connection, source: str, token: str, company: str,
                        *, configured: bool) -> int:
    """The id of the board row, created if missing; a configured board updates its names."""
    row = await _board_row(conn, source, token)
    if row is None:
        # A feed, a job alert's cards and an aggregator list copies: a company's own
        # board leads their jobs.
        aggregator = source in ("feed", "alert") or (source in REGISTRY
                                                      and REGISTRY[source].aggregator)
        cursor = await conn.execute(
            "INSERT INTO boards (source, token, company, aggregator) VALUES (?, ?, ?, ?)",
            (source, token, company, int(aggregator)))
        return int(cursor.lastrowid or 0)
    if configured and (row["token"] != token or row["company"] != company):
        await conn.execute("UPDATE boards SET token = ?, company = ? WHERE id = ?",
                           (token, company, row["id"]))
    return int(row["id"])


async def _close_missing(conn: aiosqlite.Connection, open_ids: set[int], now: str) -> int:
    await conn.executemany("UPDATE postings SET closed_at = ? WHERE id = ?",
                           [(now, posting_id) for posting_id in sorted(open_ids)])
    return len(open_ids)


async def apply_board(conn: aiosqlite.Connection, board: BoardGroups, company: str,
                       postings: Sequence[NormalizedPosting], now: str,
                       result: Counts) -> None:
    """Upsert an ATS board's listing and close what it no longer lists: its new postings
    placed in their groups as they are stored, and `board` told when the grouping pass
    has work (a posting changed or closed, or a new one that could not be placed)."""
    board_id = board.board_id
    rows = await conn.execute_fetchall(
        f"SELECT id, external_id, closed_at, {', '.join(_CONTENT)} FROM postings "
        "WHERE board_id = ?", (board_id,))
    existing = {row["external_id"]: row for row in rows}
    open_ids = {row["id"] for row in rows if row["closed_at"] is None}
    seen: set[str] = set()
    inserts, updates, touches = [], [], []
    for posting in postings:
        if posting.external_id in seen:      # the same job listed twice: the first wins
            continue
        seen.add(posting.external_id)
        values = _content(posting, company)
        row = existing.get(posting.external_id)
        if row is None:
            inserts.append((board_id, posting.external_id, *values, now, now, None,
                            _key(values)))
            result.new += 1
            continue
        open_ids.discard(row["id"])
        if posting.description is None:     # no prose from the ATS: keep what is stored
            values = _with(values, "description", row["description"])
            # A listing that gives its date only with the prose (Workday) keeps it too.
            if posting.posted_at is None:
                values = _with(values, "posted_at", row["posted_at"])
        if row["closed_at"] is not None:
            result.reopened += 1
        if row["closed_at"] is not None or tuple(row[c] for c in _CONTENT) != values:
            updates.append((*values, _key(values), now, row["id"]))
            result.updated += 1
        else:
            touches.append((now, row["id"]))
            result.unchanged += 1
    await _insert_placed(conn, board, inserts)
    await conn.executemany(
        f"UPDATE postings SET {_SET_CONTENT}, job_key = ?, last_seen = ?, closed_at = NULL "
        "WHERE id = ?",
        updates)
    await conn.executemany("UPDATE postings SET last_seen = ? WHERE id = ?", touches)
    result.closed = await _close_missing(conn, open_ids, now)
    if updates or result.closed:
        board.changed()


_DESCRIPTION = 2 + _CONTENT.index("description")   # in an insert's row


async def _insert_placed(conn: aiosqlite.Connection, board: BoardGroups,
                         inserts: list[tuple[Any, ...]]) -> None:
    """Insert one board's new postings, each already in its group (`board.place`); the
    few it cannot settle are left to the grouping pass."""
    placed = await board.place([(row[-1], row[_DESCRIPTION]) for row in inserts])
    await conn.executemany(_INSERT, [(*row, where.leader, int(where.leader is None))
                                     for row, where in zip(inserts, placed, strict=True)
                                     if not where.unsettled])
    for row, where in zip(inserts, placed, strict=True):
        if where.unsettled:
            cursor = await conn.execute(_INSERT, (*row, where.leader, 0))
            await board.later(int(cursor.lastrowid or 0))


def _key(values: tuple[Any, ...]) -> str:
    return stored_key(values[0], values[1])        # company, title


def _with(values: tuple[Any, ...], column: str, value: Any) -> tuple[Any, ...]:
    index = _CONTENT.index(column)
    return (*values[:index], value, *values[index + 1:])


async def _feed_home(conn: aiosqlite.Connection, posting: NormalizedPosting, feed_board: int,
                     configured: dict[tuple[str, str], Board],
                     homes: dict[tuple[str, str], tuple[int, str, bool]],
                     ) -> tuple[int, str, str, bool]:
    """Where a feed item lives: (board id, external id, company, feed may reopen it)."""
    ref = identify(posting.url) if posting.url else None
    if ref is None:
        return feed_board, posting.external_id, posting.company, True
    ats, token, job_id = ref
    key = (ats, token.lower())
    if key not in homes:
        board = configured.get(key)
        company = board.company if board else (posting.company or token)
        board_id = await ensure_board(conn, ats, board.token if board else token, company,
                                       configured=False)
        last_ok = (await (await conn.execute(
            "SELECT last_ok FROM boards WHERE id = ?", (board_id,))).fetchone())[0]
        # Once the ATS board has been fetched, it alone says whether a job is open.
        homes[key] = (board_id, company, last_ok is None)
    board_id, company, may_reopen = homes[key]
    return board_id, job_id, posting.company or company, may_reopen


async def apply_feed(conn: aiosqlite.Connection, board: BoardGroups,
                      postings: Sequence[NormalizedPosting], now: str, result: Counts,
                      configured: dict[tuple[str, str], Board]) -> None:
    """Upsert a feed's items (as blurbs) and close the blurbs it no longer lists; `board`
    (the feed's own) is told when the grouping pass has work, as in `apply_board`."""
    feed_board = board.board_id
    homes: dict[tuple[str, str], tuple[int, str, bool]] = {}
    seen: set[tuple[int, str]] = set()
    listed: set[int] = set()
    for posting in postings:
        board_id, external_id, company, may_reopen = await _feed_home(
            conn, posting, feed_board, configured, homes)
        if (board_id, external_id) in seen:
            continue
        seen.add((board_id, external_id))
        values = _content(posting, company)
        row = await (await conn.execute(
            f"SELECT id, closed_at, {', '.join(_CONTENT)} FROM postings "
            "WHERE board_id = ? AND external_id = ?", (board_id, external_id))).fetchone()
        if row is None:   # alone at first; the grouping pass looks at it
            cursor = await conn.execute(
                _INSERT, (board_id, external_id, *values, now, now, feed_board, _key(values),
                          None, 1))
            await board.later(int(cursor.lastrowid or 0))
            listed.add(int(cursor.lastrowid or 0))
            result.new += 1
            continue
        if row["description_source"] != "feed":    # the ATS prose is there: hands off
            result.unchanged += 1
            continue
        listed.add(row["id"])
        reopen = row["closed_at"] is not None and may_reopen
        closed_at = None if reopen else row["closed_at"]
        if reopen or tuple(row[c] for c in _CONTENT) != values:
            result.updated += 1
            result.reopened += int(reopen)
        else:
            result.unchanged += 1
        await conn.execute(
            f"UPDATE postings SET {_SET_CONTENT}, job_key = ?, last_seen = ?, closed_at = ?, "
            "feed_id = ? WHERE id = ?",
            (*values, _key(values), now, closed_at, feed_board, row["id"]))
    rows = await conn.execute_fetchall(
        "SELECT id FROM postings WHERE feed_id = ? AND description_source = 'feed' "
        "AND closed_at IS NULL", (feed_board,))
    result.closed = await _close_missing(conn, {row[0] for row in rows} - listed, now)
    if result.updated or result.closed:
        board.changed()
# --- job alerts ---------------------------------------------------------------------

async def apply_alerts(conn: aiosqlite.Connection, board: BoardGroups,
                       cards: Sequence[tuple[NormalizedPosting, str]], now: str,
                       result: Counts) -> dict[str, int]:
    """Upsert one alert sender's cards (`board` is its board), each with the time its
    mail was sent; returns each card's posting id.

    Mail comes a message at a time, not as a listing, so nothing is closed here (a
    card not seen for a while is: `close_stale_alerts`). A card seen again moves
    `last_seen` to its mail's date (the latest wins; a late-read older mail never
    moves it back, nor reopens a card closed after it); a stored text a card
    inherited from a board's posting (description_source other than 'alert') is
    kept. New cards are placed in their groups as they are stored (`board`)."""
    board_id = board.board_id
    latest: dict[str, tuple[NormalizedPosting, str]] = {}
    for posting, seen in cards:
        held = latest.get(posting.external_id)
        if held is None or seen >= held[1]:
            latest[posting.external_id] = (posting, min(seen, now))
    existing = {row["external_id"]: row for row in await _by_ids(
        conn, board_id, sorted(latest),
        f"id, external_id, closed_at, last_seen, {', '.join(_CONTENT)}")}
    inserts, updates, touches = [], [], []
    for external_id, (posting, seen) in latest.items():
        values = _content(posting, "")
        row = existing.get(external_id)
        if row is None:
            inserts.append((board_id, external_id, *values, seen, seen, None, _key(values)))
            result.new += 1
            continue
        if row["description_source"] != "alert":      # a board's text, inherited: kept
            values = _with(_with(values, "description", row["description"]),
                           "description_source", row["description_source"])
        if posting.posted_at is None:
            values = _with(values, "posted_at", row["posted_at"])
        last_seen = max(row["last_seen"], seen)
        reopen = row["closed_at"] is not None and seen > row["closed_at"]
        closed_at = None if reopen else row["closed_at"]
        if reopen or tuple(row[c] for c in _CONTENT) != values:
            updates.append((*values, _key(values), last_seen, closed_at, row["id"]))
            result.updated += 1
            result.reopened += int(reopen)
        else:
            touches.append((last_seen, row["id"]))
            result.unchanged += 1
    placed = await board.place_alerts([(row[-1], row[2 + _LOCATION]) for row in inserts])
    await conn.executemany(_INSERT, [(*row, where.leader, int(where.leader is None))
                                     for row, where in zip(inserts, placed, strict=True)])
    await conn.executemany(
        f"UPDATE postings SET {_SET_CONTENT}, job_key = ?, last_seen = ?, closed_at = ? "
        "WHERE id = ?", updates)
    await conn.executemany("UPDATE postings SET last_seen = ? WHERE id = ?", touches)
    if updates:
        board.changed()
    posting_ids = {external_id: row["id"] for external_id, row in existing.items()}
    posting_ids.update((row[0], row[1]) for row in await _by_ids(
        conn, board_id, [row[1] for row in inserts], "external_id, id"))
    return posting_ids


_LOCATION = _CONTENT.index("location")


async def _by_ids(conn: aiosqlite.Connection, board_id: int, ids: Sequence[str],
                  columns: str) -> list[aiosqlite.Row]:
    rows: list[aiosqlite.Row] = []
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        marks = ", ".join("?" for _ in chunk)
        rows += await conn.execute_fetchall(
            f"SELECT {columns} FROM postings WHERE board_id = ? AND external_id IN ({marks})",
            [board_id, *chunk])
    return rows


async def close_stale_alerts(conn: aiosqlite.Connection, board: BoardGroups, cutoff: str,
                             now: str) -> int:
    """Close the open cards of an alert board last seen in a mail sent before `cutoff`:
    a job that stopped appearing in alerts is closed like one a board stopped listing."""
    cursor = await conn.execute(
        "UPDATE postings SET closed_at = ? WHERE board_id = ? AND closed_at IS NULL "
        "AND last_seen < ?", (now, board.board_id, cutoff))
    closed = max(cursor.rowcount, 0)
    if closed:
        board.changed()
    return closed


# --- postings the user saved (`jobtracker save`) ---------------------------------------

async def apply_saved(conn: aiosqlite.Connection, board: BoardGroups,
                      posting: NormalizedPosting, now: str) -> tuple[int, bool]:
    """Store one posting the user saved on the workspace's `saved` board (`board`): new,
    it is placed in its group as a board's posting is (the same job on a board or in
    an alert is one job); saved again (the same canonical address), its fields are
    brought up to date and it is opened if it was closed. Nothing else ever closes
    it: no fetch lists this board. Returns (posting id, whether it is new)."""
    values = _content(posting, posting.company)
    row = await (await conn.execute(
        f"SELECT id, closed_at, {', '.join(_CONTENT)} FROM postings "
        "WHERE board_id = ? AND external_id = ?", (board.board_id, posting.external_id))
    ).fetchone()
    if row is None:
        inserts = [(board.board_id, posting.external_id, *values, now, now, None,
                    _key(values))]
        await _insert_placed(conn, board, inserts)
        found = await (await conn.execute(
            "SELECT id FROM postings WHERE board_id = ? AND external_id = ?",
            (board.board_id, posting.external_id))).fetchone()
        return int(found[0]), True
    if posting.description is None:
        values = _with(values, "description", row["description"])
    if row["closed_at"] is not None or tuple(row[c] for c in _CONTENT) != values:
        await conn.execute(
            f"UPDATE postings SET {_SET_CONTENT}, job_key = ?, last_seen = ?, "
            "closed_at = NULL WHERE id = ?", (*values, _key(values), now, row["id"]))
        board.changed()
    else:
        await conn.execute("UPDATE postings SET last_seen = ? WHERE id = ?", (now, row["id"]))
    return int(row["id"]), False
