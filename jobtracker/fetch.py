"""Fetching boards and feeds: concurrent downloads, ordered writes, upsert and close.

Every board and feed in sources.yaml is downloaded concurrently under a small
semaphore (a politeness bound on the job boards, not a speed knob), parsed by its
pure source module, and written in sources.yaml order — each in one transaction —
so what is stored never depends on which server answered first. A board that fails
(timeout, HTTP error, malformed body) is recorded on its `boards` row and skipped:
it never stops the others and never closes its postings.

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

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import aiosqlite
import httpx

from jobtracker import store
from jobtracker.config import Board, Feed, Sources
from jobtracker.levels import title_level
from jobtracker.sources import REGISTRY, NormalizedPosting, SourceError, identify, parse_feed
from jobtracker.text import one_line

log = logging.getLogger(__name__)

CONCURRENCY = 4
TIMEOUT = httpx.Timeout(30.0, connect=10.0)
# The largest body read: big Ashby boards are ~12 MB; anything past this is not a board.
MAX_BODY_BYTES = 64 * 1024 * 1024
FEED_SOURCE = "feed"


def _version() -> str:
    try:
        return metadata.version("jobtracker")
    except metadata.PackageNotFoundError:
        return "0"


USER_AGENT = f"jobtracker/{_version()} (+personal job search)"


def utc_now() -> str:
    """The time written to `first_seen`, `last_seen`, `closed_at`: ISO 8601 UTC."""
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def make_client(timeout: httpx.Timeout = TIMEOUT, **kwargs: Any) -> httpx.AsyncClient:
    """An HTTP client with the fetcher's timeouts and User-Agent."""
    return httpx.AsyncClient(timeout=timeout, headers={"User-Agent": USER_AGENT},
                             follow_redirects=True, **kwargs)


# --- what to fetch ------------------------------------------------------------------

@dataclass(frozen=True)
class Target:
    """One board or feed to fetch, with the address actually used."""

    source: str          # an ATS name, or 'feed'
    token: str           # the board token, or the feed's name
    company: str
    url: str
    config: Board | Feed

    @property
    def name(self) -> str:
        return f"{self.source}:{self.token}"

    @property
    def is_feed(self) -> bool:
        return self.source == FEED_SOURCE


class UnknownSource(LookupError):
    """`--source NAME` names no board or feed in sources.yaml."""


def all_targets(sources: Sources) -> list[Target]:
    """Boards then feeds, each in sources.yaml order."""
    out = [Target(board.ats, board.token, board.company,
                  board.url or REGISTRY[board.ats].default_url(board.token), board)
           for board in sources.boards]
    out += [Target(FEED_SOURCE, feed.name, "", feed.url, feed) for feed in sources.feeds]
    return out


def select_targets(sources: Sources, only: str | None = None) -> list[Target]:
    """Every target, or those `only` names: `ats:token`, a token, a company, a feed name.

    Names compare case-insensitively. Raises UnknownSource listing what exists.
    """
    targets = all_targets(sources)
    if only is None:
        return targets
    wanted = only.strip().lower()
    chosen = [t for t in targets
              if wanted in (t.name.lower(), t.token.lower(), t.company.lower())]
    if not chosen:
        known = ", ".join(t.name for t in targets) or "none"
        raise UnknownSource(f"no board or feed named {only!r} in sources.yaml (known: {known})")
    return chosen


# --- results ------------------------------------------------------------------------

@dataclass
class BoardResult:
    """What one board's fetch did. `error` is set when it failed (nothing was closed)."""

    name: str
    url: str
    new: int = 0
    updated: int = 0
    reopened: int = 0        # also counted in `updated`
    closed: int = 0
    unchanged: int = 0
    error: str | None = None
    not_modified: bool = False
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass
class _Download:
    target: Target
    postings: list[NormalizedPosting] = field(default_factory=list)
    etag: str | None = None
    last_modified: str | None = None
    not_modified: bool = False
    error: str | None = None
    seconds: float = 0.0


@dataclass(frozen=True)
class _Validator:
    """What the last successful fetch of a board returned for conditional requests."""

    url: str | None
    etag: str | None
    last_modified: str | None


# --- downloading --------------------------------------------------------------------

async def _read_body(response: httpx.Response) -> bytes:
    chunks, size = [], 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise SourceError(f"response larger than {MAX_BODY_BYTES // (1024 * 1024)} MB")
        chunks.append(chunk)
    return b"".join(chunks)


def _conditional_headers(target: Target, validator: _Validator | None) -> dict[str, str]:
    # A validator is only good for the address it came from.
    if validator is None or validator.url != target.url:
        return {}
    headers = {}
    if validator.etag:
        headers["If-None-Match"] = validator.etag
    if validator.last_modified:
        headers["If-Modified-Since"] = validator.last_modified
    return headers


def _parse(target: Target, body: bytes) -> list[NormalizedPosting]:
    if target.is_feed:
        assert isinstance(target.config, Feed)
        return parse_feed(body, target.config)
    return REGISTRY[target.source].parse(body, target.config)


async def _download(client: httpx.AsyncClient, target: Target, validator: _Validator | None,
                    semaphore: asyncio.Semaphore) -> _Download:
    started = time.monotonic()
    result = _Download(target)
    body = b""
    try:
        async with semaphore, client.stream(
                "GET", target.url, headers=_conditional_headers(target, validator)) as response:
            if response.status_code == 304:
                result.not_modified = True
            elif response.status_code != 200:
                result.error = f"HTTP {response.status_code} {response.reason_phrase}".strip()
            else:
                body = await _read_body(response)
                result.etag = response.headers.get("etag")
                result.last_modified = response.headers.get("last-modified")
    except httpx.TimeoutException:
        result.error = "timed out"
    except (httpx.HTTPError, httpx.InvalidURL) as exc:   # InvalidURL is no HTTPError
        result.error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    except SourceError as exc:
        result.error = str(exc)
    if result.error is None and not result.not_modified:
        # Parsing runs outside the semaphore: the next download starts meanwhile.
        try:
            result.postings = _parse(target, body)
        except SourceError as exc:
            result.error = str(exc)
        except Exception as exc:  # a parser bug on odd input must not stop other boards
            log.exception("parsing %s failed", target.name)
            result.error = f"could not read the response ({type(exc).__name__}: {exc})"
    if result.error:
        result.error = one_line(result.error, 300)
        result.postings = []
    result.seconds = time.monotonic() - started
    return result


# --- writing ------------------------------------------------------------------------

# The posting columns a fetch writes, in this order everywhere below.
_CONTENT = ("company", "title", "location", "remote", "url", "department", "description",
            "description_source", "title_level", "salary_min", "salary_max",
            "salary_currency", "posted_at", "updated_at")
_SET_CONTENT = ", ".join(f"{column} = ?" for column in _CONTENT)
_INSERT = (f"INSERT INTO postings (board_id, external_id, {', '.join(_CONTENT)}, first_seen, "
           f"last_seen, feed_id) VALUES (?, ?, {', '.join('?' for _ in _CONTENT)}, ?, ?, ?)")


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


async def _ensure_board(conn: aiosqlite.Connection, source: str, token: str, company: str,
                        *, configured: bool) -> int:
    """The id of the board row, created if missing; a configured board updates its names."""
    row = await _board_row(conn, source, token)
    if row is None:
        cursor = await conn.execute(
            "INSERT INTO boards (source, token, company) VALUES (?, ?, ?)",
            (source, token, company))
        return int(cursor.lastrowid or 0)
    if configured and (row["token"] != token or row["company"] != company):
        await conn.execute("UPDATE boards SET token = ?, company = ? WHERE id = ?",
                           (token, company, row["id"]))
    return int(row["id"])


async def _validators(conn: aiosqlite.Connection) -> dict[tuple[str, str], _Validator]:
    rows = await conn.execute_fetchall(
        "SELECT source, lower(token), url, etag, last_modified FROM boards "
        "WHERE etag IS NOT NULL OR last_modified IS NOT NULL")
    return {(row[0], row[1]): _Validator(row[2], row[3], row[4]) for row in rows}


async def _close_missing(conn: aiosqlite.Connection, open_ids: set[int], now: str) -> int:
    await conn.executemany("UPDATE postings SET closed_at = ? WHERE id = ?",
                           [(now, posting_id) for posting_id in sorted(open_ids)])
    return len(open_ids)


async def _apply_board(conn: aiosqlite.Connection, board_id: int, target: Target,
                       postings: Sequence[NormalizedPosting], now: str,
                       result: BoardResult) -> None:
    """Upsert an ATS board's listing and close what it no longer lists."""
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
        values = _content(posting, target.company)
        row = existing.get(posting.external_id)
        if row is None:
            inserts.append((board_id, posting.external_id, *values, now, now, None))
            result.new += 1
            continue
        open_ids.discard(row["id"])
        if posting.description is None:     # no prose from the ATS: keep what is stored
            values = _with(values, "description", row["description"])
        if row["closed_at"] is not None:
            result.reopened += 1
        if row["closed_at"] is not None or tuple(row[c] for c in _CONTENT) != values:
            updates.append((*values, now, row["id"]))
            result.updated += 1
        else:
            touches.append((now, row["id"]))
            result.unchanged += 1
    await conn.executemany(_INSERT, inserts)
    await conn.executemany(
        f"UPDATE postings SET {_SET_CONTENT}, last_seen = ?, closed_at = NULL WHERE id = ?",
        updates)
    await conn.executemany("UPDATE postings SET last_seen = ? WHERE id = ?", touches)
    result.closed = await _close_missing(conn, open_ids, now)


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
        board_id = await _ensure_board(conn, ats, board.token if board else token, company,
                                       configured=False)
        last_ok = (await (await conn.execute(
            "SELECT last_ok FROM boards WHERE id = ?", (board_id,))).fetchone())[0]
        # Once the ATS board has been fetched, it alone says whether a job is open.
        homes[key] = (board_id, company, last_ok is None)
    board_id, company, may_reopen = homes[key]
    return board_id, job_id, posting.company or company, may_reopen


async def _apply_feed(conn: aiosqlite.Connection, feed_board: int,
                      postings: Sequence[NormalizedPosting], now: str, result: BoardResult,
                      configured: dict[tuple[str, str], Board]) -> None:
    """Upsert a feed's items (as blurbs) and close the blurbs it no longer lists."""
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
        if row is None:
            cursor = await conn.execute(
                _INSERT, (board_id, external_id, *values, now, now, feed_board))
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
            f"UPDATE postings SET {_SET_CONTENT}, last_seen = ?, closed_at = ?, feed_id = ? "
            "WHERE id = ?", (*values, now, closed_at, feed_board, row["id"]))
    rows = await conn.execute_fetchall(
        "SELECT id FROM postings WHERE feed_id = ? AND description_source = 'feed' "
        "AND closed_at IS NULL", (feed_board,))
    result.closed = await _close_missing(conn, {row[0] for row in rows} - listed, now)


async def _write(conn: aiosqlite.Connection, download: _Download, now: str,
                 configured: dict[tuple[str, str], Board]) -> BoardResult:
    """One board's outcome in one transaction: its postings and its `boards` row."""
    target = download.target
    result = BoardResult(target.name, target.url, error=download.error,
                         not_modified=download.not_modified, seconds=download.seconds)
    async with store.write(conn):
        board_id = await _ensure_board(conn, target.source, target.token, target.company,
                                       configured=True)
        if download.error is not None:
            await conn.execute(
                "UPDATE boards SET last_fetched = ?, last_error = ? WHERE id = ?",
                (now, download.error, board_id))
            return result
        if download.not_modified:
            # Same listing as last time: everything it listed is still there.
            cursor = await conn.execute(
                "UPDATE postings SET last_seen = ? WHERE closed_at IS NULL AND "
                + ("feed_id = ? AND description_source = 'feed'" if target.is_feed
                   else "board_id = ?"), (now, board_id))
            result.unchanged = max(cursor.rowcount, 0)
        elif target.is_feed:
            await _apply_feed(conn, board_id, download.postings, now, result, configured)
        else:
            await _apply_board(conn, board_id, target, download.postings, now, result)
        if download.not_modified:
            await conn.execute(
                "UPDATE boards SET last_fetched = ?, last_ok = ?, last_error = NULL "
                "WHERE id = ?", (now, now, board_id))
        else:
            await conn.execute(
                "UPDATE boards SET url = ?, etag = ?, last_modified = ?, last_fetched = ?, "
                "last_ok = ?, last_error = NULL WHERE id = ?",
                (target.url, download.etag, download.last_modified, now, now, board_id))
    return result


# --- the whole fetch ----------------------------------------------------------------

async def fetch_all(conn: aiosqlite.Connection, sources: Sources, client: httpx.AsyncClient, *,
                    only: str | None = None,
                    on_board_done: Callable[[BoardResult], None] | None = None,
                    concurrency: int = CONCURRENCY,
                    clock: Callable[[], str] = utc_now) -> list[BoardResult]:
    """Fetch every board and feed (or those `only` names) and store what they list.

    Downloads run concurrently (at most `concurrency` at once); results are written
    in sources.yaml order, one transaction per board, and `on_board_done` is called
    with each result as soon as it is written. Raises UnknownSource for a bad `only`.
    """
    targets = select_targets(sources, only)
    configured = {(board.ats, board.token.lower()): board for board in sources.boards}
    validators = await _validators(conn)
    semaphore = asyncio.Semaphore(concurrency)
    downloads = [
        asyncio.create_task(_download(client, target, validators.get(
            (target.source, target.token.lower())), semaphore))
        for target in targets
    ]
    results = []
    try:
        for task in downloads:     # sources.yaml order, whoever answered first
            result = await _write(conn, await task, clock(), configured)
            results.append(result)
            if on_board_done is not None:
                on_board_done(result)
    finally:
        for task in downloads:
            task.cancel()
        await asyncio.gather(*downloads, return_exceptions=True)
    return results


async def fetch_workspace(db: Path, sources: Sources, *, only: str | None = None,
                          on_board_done: Callable[[BoardResult], None] | None = None,
                          ) -> list[BoardResult]:
    """`fetch_all` with its own connection to `db` and its own HTTP client."""
    select_targets(sources, only)     # a bad name fails before anything is opened
    async with store.connect(db) as conn, make_client() as client:
        return await fetch_all(conn, sources, client, only=only, on_board_done=on_board_done)
