"""Fetching boards and feeds: concurrent downloads, ordered writes, upsert and close.

Every board and feed in sources.yaml is downloaded concurrently under a small
semaphore (a politeness bound on the job boards, not a speed knob), parsed by its
pure source module, and written in sources.yaml order — each in one transaction —
so what is stored never depends on which server answered first. A board that fails
(timeout, HTTP error, malformed body) is recorded on its `boards` row and skipped:
it never stops the others and never closes its postings.

Downloads run each source's plan (jobtracker/postings/download.py: one place for HTTP, every
board bounded in time and size); storing a listing is jobtracker/postings/upsert.py.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import aiosqlite
import httpx

from jobtracker import secrets, store
from jobtracker.clock import now_iso
from jobtracker.config import Board, Feed, Sources
from jobtracker.postings import alerts, groups, probe
from jobtracker.postings.alerts import AlertSettings
from jobtracker.postings.download import (
    DEADLINE,
    TIMEOUT,
    USER_AGENT,
    DownloadError,
    download,
    make_client,
)
from jobtracker.postings.results import BoardResult
from jobtracker.postings.upsert import apply_board, apply_feed, ensure_board
from jobtracker.ranking import prerank
from jobtracker.sources import REGISTRY, NormalizedPosting, parse_feed
from jobtracker.sources.base import Known, Plan, single_get
from jobtracker.text import one_line

log = logging.getLogger(__name__)

CONCURRENCY = 4
FEED_SOURCE = "feed"
ALERTS = alerts.NAME      # `--source alerts`: the job alerts in the mail alone


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
    # A token a source cannot build an address from leaves `url` empty: that board fails.
    out += [Target(FEED_SOURCE, feed.name, "", feed.url, feed) for feed in sources.feeds]
    return out


def select_targets(sources: Sources, only: str | None = None) -> list[Target]:
    """Every target, or those `only` names: an `ats:token` or a feed's name picks that
    one; otherwise every board whose token or company it is (a company's boards, the
    same token on several ATSs).

    Names compare case-insensitively. Raises UnknownSource listing what exists.
    """
    targets = all_targets(sources)
    if only is None:
        return targets
    wanted = only.strip().lower()
    if wanted == ALERTS:
        return []                 # the job alerts in the mail, no board (postings/alerts.py)
    chosen = [t for t in targets
              if wanted == t.name.lower() or (t.is_feed and wanted == t.token.lower())]
    if not chosen:
        chosen = [t for t in targets if not t.is_feed
                  and wanted in (t.token.lower(), t.company.lower())]
    if not chosen:
        known = ", ".join([*(t.name for t in targets), ALERTS])
        raise UnknownSource(f"no board or feed named {only!r} in sources.yaml (known: {known})")
    return chosen


# --- results ------------------------------------------------------------------------

@dataclass
class _Download:
    target: Target
    postings: list[NormalizedPosting] = field(default_factory=list)
    etag: str | None = None
    last_modified: str | None = None
    not_modified: bool = False
    skipped: int = 0
    error: str | None = None
    seconds: float = 0.0


@dataclass(frozen=True)
class _Validator:
    """What the last successful fetch of a board returned for conditional requests."""

    url: str | None
    etag: str | None
    last_modified: str | None


# --- downloading --------------------------------------------------------------------

def _conditional_headers(target: Target, validator: _Validator | None) -> dict[str, str]:
    # A validator is only good for the address it came from.
    # (boards.url is stored without its credentials: compared in that form.)
    if validator is None or validator.url != secrets.display_url(target.url):
        return {}
    headers = {}
    if validator.etag:
        headers["If-None-Match"] = validator.etag
    if validator.last_modified:
        headers["If-Modified-Since"] = validator.last_modified
    return headers


def _plan(target: Target, known: Known) -> Plan:
    if target.is_feed:
        return single_get(parse_feed, target.config, target.url)
    return REGISTRY[target.source].start(target.config, target.url, known)


async def _download(client: httpx.AsyncClient, target: Target, validator: _Validator | None,
                    known: Known, semaphore: asyncio.Semaphore,
                    deadline: float) -> _Download:
    result = _Download(target)
    async with semaphore:
        # The deadline runs from here: waiting for a turn is not this board's slowness.
        started = time.monotonic()
        try:
            if not target.url:
                raise DownloadError(f"no address: {target.token!r} is not a {target.source} "
                                    "token this source understands (see docs/sources.md)")
            got = await download(client, _plan(target, known), deadline=deadline,
                                 conditional=_conditional_headers(target, validator))
        except DownloadError as exc:
            result.error = str(exc)
        except Exception as exc:  # a parser bug on odd input must not stop other boards
            log.exception("fetching %s failed", target.name)
            result.error = f"could not read the response ({type(exc).__name__}: {exc})"
        else:
            result.postings, result.skipped = got.postings, got.skipped
            result.etag, result.last_modified = got.etag, got.last_modified
            result.not_modified = got.not_modified
    if result.error:
        result.error = one_line(result.error, 300)
        result.postings = []
    result.seconds = time.monotonic() - started
    return result


# --- writing ------------------------------------------------------------------------

async def _known(conn: aiosqlite.Connection, target: Target) -> Known:
    """Jobs of this board that have a description, with their change stamp."""
    source = REGISTRY.get(target.source)
    if target.is_feed or source is None or source.plan is None:
        return {}
    rows = await conn.execute_fetchall(
        "SELECT p.external_id, COALESCE(p.updated_at, p.posted_at, '') FROM postings p "
        "JOIN boards b ON b.id = p.board_id WHERE b.source = ? AND b.token = ? "
        "COLLATE NOCASE AND p.description IS NOT NULL", (target.source, target.token))
    return {row[0]: row[1] for row in rows}


async def _validators(conn: aiosqlite.Connection) -> dict[tuple[str, str], _Validator]:
    rows = await conn.execute_fetchall(
        "SELECT source, lower(token), url, etag, last_modified FROM boards "
        "WHERE etag IS NOT NULL OR last_modified IS NOT NULL")
    return {(row[0], row[1]): _Validator(row[2], row[3], row[4]) for row in rows}


async def _write(conn: aiosqlite.Connection, grouping: groups.Grouping, download: _Download,
                 now: str, configured: dict[tuple[str, str], Board]) -> BoardResult:
    """One board's outcome in one transaction: its postings (grouped before anyone
    reads them) and its `boards` row."""
    target = download.target
    # A board's address may carry a token (a mirror's ?key=...): never in a message.
    error = (secrets.Redactor.of(urls=[target.url])(download.error)
             if download.error is not None else None)
    result = BoardResult(target.name, target.url, error=error,
                         not_modified=download.not_modified, seconds=download.seconds,
                         skipped=download.skipped)
    async with store.write(conn):
        board_id = await ensure_board(conn, target.source, target.token, target.company,
                                       configured=True)
        # Every board goes through the door, a failed one too: the first settles what
        # other writers left on the grouping work list.
        async with grouping.board(board_id) as board:
            if error is not None:
                await conn.execute(
                    "UPDATE boards SET last_fetched = ?, last_error = ? WHERE id = ?",
                    (now, error, board_id))
                return result
            if download.not_modified:
                # Same listing as last time: everything it listed is still there.
                cursor = await conn.execute(
                    "UPDATE postings SET last_seen = ? WHERE closed_at IS NULL AND "
                    + ("feed_id = ? AND description_source = 'feed'" if target.is_feed
                       else "board_id = ?"), (now, board_id))
                result.unchanged = max(cursor.rowcount, 0)
                await conn.execute(
                    "UPDATE boards SET last_fetched = ?, last_ok = ?, last_error = NULL "
                    "WHERE id = ?", (now, now, board_id))
                return result
            if target.is_feed:
                await apply_feed(conn, board, download.postings, now, result, configured)
            else:
                await apply_board(conn, board, target.company, download.postings, now,
                                  result)
            await conn.execute(
                "UPDATE boards SET url = ?, etag = ?, last_modified = ?, last_fetched = ?, "
                "last_ok = ?, last_error = NULL WHERE id = ?",
                # Credentials in the address (user:password@, ?api_key=) stay in
                # sources.yaml: the database keeps the address without them.
                (secrets.display_url(target.url), download.etag, download.last_modified,
                 now, now, board_id))
    return result


# --- the whole fetch ----------------------------------------------------------------

async def fetch_all(conn: aiosqlite.Connection, sources: Sources, client: httpx.AsyncClient, *,
                    only: str | None = None,
                    on_board_done: Callable[[BoardResult], None] | None = None,
                    concurrency: int = CONCURRENCY,
                    clock: Callable[[], str] = now_iso,
                    deadline: float = DEADLINE,
                    alert_mail: AlertSettings | None = None) -> list[BoardResult]:
    """Fetch every board and feed (or those `only` names) and store what they list;
    then, with `alert_mail` (and `only` None or "alerts"), the job alerts in the mail.

    Downloads run concurrently (at most `concurrency` boards at once), each within
    `deadline` seconds; results are written in sources.yaml order, one transaction
    per board, and `on_board_done` is called with each result as soon as it is
    written (alert senders' results after the boards'). Raises UnknownSource for a
    bad `only`.
    """
    targets = select_targets(sources, only)
    configured = {(board.ats, board.token.lower()): board for board in sources.boards}
    grouping = groups.Grouping(conn)
    validators = await _validators(conn)
    known = {target.name: await _known(conn, target) for target in targets}
    semaphore = asyncio.Semaphore(concurrency)
    downloads = [
        asyncio.create_task(_download(client, target, validators.get(
            (target.source, target.token.lower())), known[target.name], semaphore, deadline))
        for target in targets
    ]
    results = []
    try:
        for task in downloads:     # sources.yaml order, whoever answered first
            result = await _write(conn, grouping, await task, clock(), configured)
            results.append(result)
            if on_board_done is not None:
                on_board_done(result)
    finally:
        for task in downloads:
            task.cancel()
        await asyncio.gather(*downloads, return_exceptions=True)
    reading = alert_mail is not None and alert_mail.configured and (
        only is None or only.strip().lower() == ALERTS)
    if reading:
        results += await alerts.read_alerts(conn, alert_mail, clock(), on_done=on_board_done,
                                            grouping=grouping, deadline=deadline)
        if alert_mail.probe_companies:
            # Its line is said, not listed with the boards: it stores no posting.
            found = await probe.find_boards(
                conn, client, sources, clock(), limit=alert_mail.probe_companies,
                address=alert_mail.probe_address or probe.default_address)
            if found is not None and on_board_done is not None:
                on_board_done(found)
    return results


async def fetch_workspace(db: Path, sources: Sources, *, only: str | None = None,
                          on_board_done: Callable[[BoardResult], None] | None = None,
                          deadline: float = DEADLINE,
                          alert_mail: AlertSettings | None = None,
                          prerank_query: prerank.Query | None = None) -> list[BoardResult]:
    """`fetch_all` with its own connection to `db` and its own HTTP client; then, with
    `prerank_query`, the new postings' pre-rank (jobtracker/ranking/prerank.py), so a
    fetch leaves them ready to be judged in order."""
    select_targets(sources, only)     # a bad name fails before anything is opened
    async with store.connect(db) as conn, make_client() as client:
        results = await fetch_all(conn, sources, client, only=only,
                                  on_board_done=on_board_done, deadline=deadline,
                                  alert_mail=alert_mail)
        if prerank_query is not None:
            await prerank.refresh(conn, prerank_query)
        return results


__all__ = ["ALERTS", "CONCURRENCY", "DEADLINE", "TIMEOUT", "USER_AGENT", "AlertSettings",
           "BoardResult", "Target",
           "UnknownSource", "all_targets", "fetch_all", "fetch_workspace", "make_client",
           "select_targets"]
