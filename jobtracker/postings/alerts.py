"""Job alerts in `fetch`: the user's mail read for alerts, each card stored as a posting.

The configured Maildir and IMAP folders are read the way the inbox's sync reads
them, and only read: a Maildir file is opened read-only (never moved, flagged or
written), IMAP goes through the read-only session (EXAMINE, BODY.PEEK). The alert
reader keeps its own place in each (`alert_maildir_files`, `alert_imap_folders`), so
a message is read once by each whichever runs first, and a mail in both mailboxes is
one mail (`alert_mails`, by Message-ID). Mail from no known sender is passed over
after its headers.

Each sender's cards are stored on one board of its own (source 'alert', token the
sender's name) in one transaction (jobtracker/postings/upsert.py `apply_alerts`),
dated by their mail's `Date:`: the same job in tomorrow's alert is the same posting
and its `last_seen` moves; a card not seen for `close_after_days` is closed. Cards
are grouped with the boards' postings of the same company and title
(jobtracker/postings/groups.py `place_alerts`), and a group led by a card takes a
board posting's text (`inherit_texts`). A known sender's mail that yields no card is
counted "not understood" and named in the fetch's line.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from jobtracker import alerts, store
from jobtracker.alerts import mime
from jobtracker.config import Config, ImapConfig
from jobtracker.postings import groups
from jobtracker.postings.results import BoardResult
from jobtracker.postings.upsert import apply_alerts, close_stale_alerts, ensure_board
from jobtracker.text import one_line

if TYPE_CHECKING:
    import aiosqlite

log = logging.getLogger(__name__)
T = TypeVar("T")

SOURCE = groups.ALERT_SOURCE
NAME = "alerts"               # `fetch --source alerts`
BATCH = 25                    # IMAP messages a FETCH asks for, as the inbox's sync
SUBJECT_CHARS = 80            # a not-understood mail's subject in the fetch line
# What one fetch spends on alert mail at most, whatever the mailbox holds: the bytes
# read and the CPU seconds spent reading them (the wall clock is `fetch.deadline`).
# Past a budget the read stops, says so in its line, and the rest waits for the next
# fetch (nothing unread is marked read).
MAX_FETCH_BYTES = 256 * 1024 * 1024
MAX_FETCH_CPU = 60.0


@dataclass(frozen=True)
class AlertSettings:
    """Where alerts are read from and how long a card stays open unseen."""

    maildir: Path | None = None
    imap: ImapConfig | None = None
    close_after_days: int = 14
    # Alert companies whose boards a fetch looks for (jobtracker/postings/probe.py), and
    # where it asks: (ats, token) -> address; None: each source's public one.
    probe_companies: int = 0
    probe_address: Callable[[str, str], str] | None = None
    max_bytes: int = MAX_FETCH_BYTES        # read at most this much mail per fetch
    max_cpu: float = MAX_FETCH_CPU          # and spend at most this CPU time on it

    @property
    def configured(self) -> bool:
        return self.maildir is not None or self.imap is not None

    @classmethod
    def of(cls, config: Config) -> AlertSettings | None:
        """What config.yaml says: None when alerts are switched off or no mailbox is set."""
        settings = cls(config.maildir, config.imap, config.alerts.close_after_days,
                       config.alerts.probe_companies)
        return settings if config.alerts.enabled and settings.configured else None


@dataclass
class _Read:
    """One alert mail as read, and the date to use when it has no Date: header."""

    reading: alerts.Reading
    fallback: str


@dataclass
class _Scan:
    """What reading the mailboxes found, and where to mark them read afterwards."""

    mails: list[_Read] = field(default_factory=list)
    files: list[tuple[str, int, int]] = field(default_factory=list)     # name, size, mtime
    folders: list[tuple[str, str, int, int]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    looked_at: int = 0
    bytes_read: int = 0
    cpu: float = 0.0
    stop_at: float | None = None           # time.monotonic() the read must end by
    deadline: float | None = None          # fetch.deadline, for the line
    max_bytes: int = MAX_FETCH_BYTES
    max_cpu: float = MAX_FETCH_CPU
    cut: str = ""                          # why the read stopped early ("" when it did not)

    def over(self) -> bool:
        """Whether a budget is spent (then `cut` says which): checked before each mail."""
        if self.cut:
            return True
        if self.stop_at is not None and time.monotonic() >= self.stop_at:
            self.cut = f"fetch.deadline ({self.deadline:g} s)"
        elif self.bytes_read >= self.max_bytes:
            self.cut = f"the byte budget ({self.max_bytes // (1024 * 1024)} MB)"
        elif self.cpu >= self.max_cpu:
            self.cut = f"the CPU budget ({self.max_cpu:g} s)"
        return bool(self.cut)


# --- reading the mailboxes -----------------------------------------------------------

def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _read_one(raw: bytes, fallback: str, scan: _Scan) -> None:
    scan.looked_at += 1
    scan.bytes_read += len(raw)
    started = time.process_time()
    try:
        if alerts.sender_of(mime.sender_address(raw)) is None:
            return               # not from a sender of alerts: its body is never parsed
        try:
            reading = alerts.read(raw)
        except Exception:  # a reader's bug on odd mail must not stop the fetch
            log.exception("an alert reader failed")
            return
    finally:
        scan.cpu += time.process_time() - started
    if reading is not None:
        # Its cards are read: a backlog of thousands of mails holds no parts in memory.
        reading.mail.html = reading.mail.text = None
        scan.mails.append(_Read(reading, fallback))


def _scan_maildir(maildir: Path, recorded: dict[str, tuple[int, int]], scan: _Scan) -> None:
    """New and changed message files, read-only, first MAX_MAIL_BYTES of each (a thread:
    reading files and parsing mail are blocking CPU work)."""
    from jobtracker.mail.maildir import MailError, list_maildir

    skipped: list[str] = []
    try:
        files = list_maildir(maildir, skipped)
    except MailError as exc:
        scan.errors.append(str(exc))
        return
    for item in files:
        if recorded.get(item.name) == (item.size, item.mtime_ns):
            continue
        if scan.over():
            return               # the rest waits for the next fetch: not marked read
        try:
            # O_NOFOLLOW: a file swapped for a link after listing is refused (ELOOP).
            with open(os.open(item.path, os.O_RDONLY | os.O_NOFOLLOW), "rb") as handle:
                raw = handle.read(mime.MAX_MAIL_BYTES)
        except OSError as exc:          # vanished or unreadable: tried again next time
            scan.errors.append(f"{item.path}: {exc.strerror or exc}")
            continue
        _read_one(raw, _iso(datetime.fromtimestamp(item.mtime_ns / 1e9, UTC)), scan)
        scan.files.append((item.name, item.size, item.mtime_ns))


async def _scan_imap(conn: aiosqlite.Connection, cfg: ImapConfig, now: str,
                     scan: _Scan) -> None:
    from jobtracker.mail.imap import ImapError
    from jobtracker.mail.imap.sync import open_session

    try:
        session = await _bounded(open_session(cfg), scan)
    except ImapError as exc:
        scan.errors.append(f"imap: {exc}")
        return
    if session is None:
        return
    try:
        for folder in cfg.folders:
            uidvalidity = await _bounded(asyncio.to_thread(session.examine, folder), scan)
            if uidvalidity is None:
                break
            row = await (await conn.execute(
                "SELECT uidvalidity, last_uid FROM alert_imap_folders WHERE account = ? "
                "AND folder = ?", (cfg.account, folder))).fetchone()
            last = int(row[1]) if row is not None and int(row[0]) == uidvalidity else 0
            uids = await _bounded(asyncio.to_thread(session.uids_after, last), scan)
            if uids is None:
                break
            done = last
            for start in range(0, len(uids), BATCH):
                if scan.over():
                    break
                batch = uids[start:start + BATCH]
                items = await _bounded(asyncio.to_thread(session.fetch, batch), scan)
                if items is None:
                    break
                for item in items:
                    await asyncio.to_thread(_read_one, item.raw, item.internal_date or now,
                                            scan)
                done = batch[-1]
            # Read up to `done`: what the budget left is read by the next fetch.
            scan.folders.append((cfg.account, folder, uidvalidity,
                                 uids[-1] if uids and not scan.cut else done))
            if scan.cut:
                break
    except ImapError as exc:
        scan.errors.append(f"imap: {exc}")
    finally:
        await asyncio.to_thread(session.close)


async def _bounded(work: Awaitable[T], scan: _Scan) -> T | None:
    """`work`, or None when fetch.deadline passes first (the cut is recorded)."""
    if scan.stop_at is None:
        return await work
    try:
        async with asyncio.timeout(max(0.0, scan.stop_at - time.monotonic())):
            return await work
    except TimeoutError:
        scan.cut = scan.cut or f"fetch.deadline ({scan.deadline:g} s)"
        return None


async def _scan(conn: aiosqlite.Connection, settings: AlertSettings, now: str,
                deadline: float | None = None) -> _Scan:
    scan = _Scan(max_bytes=settings.max_bytes, max_cpu=settings.max_cpu)
    if deadline is not None:
        scan.deadline, scan.stop_at = deadline, time.monotonic() + deadline
    if settings.maildir is not None:
        recorded = {name: (size, mtime) for name, size, mtime in await conn.execute_fetchall(
            "SELECT name, size, mtime_ns FROM alert_maildir_files")}
        await asyncio.to_thread(_scan_maildir, settings.maildir, recorded, scan)
    if settings.imap is not None and not scan.over():
        await _scan_imap(conn, settings.imap, now, scan)
    return scan


# --- storing ------------------------------------------------------------------------------

@dataclass
class AlertResult(BoardResult):
    """One sender's part of a fetch: a BoardResult (new, updated, closed) plus the mails
    read, the ones not understood (by subject), and the messages looked at."""

    mails: int = 0
    not_understood: list[str] = field(default_factory=list)
    looked_at: int = 0
    cut: str = ""              # the budget that stopped the read, when one did

    def line(self) -> str:
        """`alerts:linkedin  12 new, 3 seen again, 0 closed (4 mails; 1 not understood: …)`."""
        if not self.ok:
            return f"{self.name}  FAILED {one_line(self.error or '')}"
        if self.name == NAME:
            looked = (f"{self.looked_at} message{'s' if self.looked_at != 1 else ''} "
                      "looked at")
            if self.cut:
                return (f"{NAME}  stopped at {self.cut} ({looked}; the rest is read by "
                        "the next fetch)")
            return f"{NAME}  no new alert mail ({looked})"
        text = (f"{self.name}  {self.new} new, {self.updated + self.unchanged} seen again, "
                f"{self.closed} closed ({self.mails} mail{'s' if self.mails != 1 else ''}")
        if self.not_understood:
            text += (f"; {len(self.not_understood)} not understood: "
                     + ", ".join(f'"{subject}"' for subject in self.not_understood[:3]))
        if self.skipped:
            text += f"; {self.skipped} links or cards left out"
        return text + ")"


async def _new_mails(conn: aiosqlite.Connection, found: list[_Read]) -> list[_Read]:
    """The mails not read before (by any mailbox), each once."""
    keys = sorted({item.reading.mail.key for item in found})
    known: set[str] = set()
    for start in range(0, len(keys), 500):
        chunk = keys[start:start + 500]
        marks = ", ".join("?" for _ in chunk)
        known.update(row[0] for row in await conn.execute_fetchall(
            f"SELECT key FROM alert_mails WHERE key IN ({marks})", chunk))
    out, seen = [], set()
    for item in found:
        key = item.reading.mail.key
        if key not in known and key not in seen:
            seen.add(key)
            out.append(item)
    return out


async def _store_sender(conn: aiosqlite.Connection, grouping: groups.Grouping, name: str,
                        mails: list[_Read], settings: AlertSettings, now: str,
                        result: AlertResult) -> None:
    """One sender's new mail, its cards, its stale cards closed: one transaction, its
    cards grouped before anyone reads them (the fetch's `grouping`, as for a board)."""
    sender = alerts.REGISTRY[name]
    cutoff = _iso(datetime.fromisoformat(now.replace("Z", "+00:00"))
                  - timedelta(days=settings.close_after_days))
    async with store.write(conn):
        board_id = await ensure_board(conn, SOURCE, name, sender.label, configured=True)
        async with grouping.board(board_id, cards=True) as board:
            await _store_cards(conn, board, name, mails, cutoff, now, result)
        await conn.execute(
            "UPDATE boards SET last_fetched = ?, last_ok = ?, last_error = NULL WHERE id = ?",
            (now, now, board_id))


async def _store_cards(conn: aiosqlite.Connection, board: groups.BoardGroups, name: str,
                       mails: list[_Read], cutoff: str, now: str, result: AlertResult) -> None:
    """The cards of a sender's new mails, each mail recorded (its sightings too), alert
    mail the inbox stored marked, and the cards not seen since `cutoff` closed."""
    cards = [(posting, min(item.reading.mail.date or item.fallback, now))
             for item in mails for posting in item.reading.postings]
    ids = await apply_alerts(conn, board, cards, now, result)
    for item in mails:
        mail = item.reading.mail
        sent = min(mail.date or item.fallback, now)
        await conn.execute(
            "INSERT OR IGNORE INTO alert_mails (key, sender, template, subject, sent_at, "
            "cards, skipped, read_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (mail.key, name, item.reading.template, mail.subject, sent,
             len(item.reading.postings), item.reading.counts.total, now))
        await conn.executemany(
            "INSERT OR IGNORE INTO alert_sightings (posting_id, mail_key) VALUES (?, ?)",
            [(ids[p.external_id], mail.key) for p in item.reading.postings
             if p.external_id in ids])
        if mail.message_id:
            # Stored by the inbox's sync before it knew this sender: no reply, no link.
            await conn.execute(
                "UPDATE messages SET alert = ?, company = NULL, posting_id = NULL, "
                "link_reason = 'job alert' WHERE message_id = ? AND alert IS NULL "
                "AND state IS NULL", (name, mail.message_id))
        result.mails += 1
        result.skipped += item.reading.counts.total
        if not item.reading.understood:
            result.not_understood.append(one_line(mail.subject or "(no subject)",
                                                  SUBJECT_CHARS))
    result.closed = await close_stale_alerts(conn, board, cutoff, now)


async def _mark_read(conn: aiosqlite.Connection, scan: _Scan, now: str) -> None:
    async with store.write(conn):
        await conn.executemany(
            "INSERT INTO alert_maildir_files (name, size, mtime_ns) VALUES (?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET size = excluded.size, "
            "mtime_ns = excluded.mtime_ns", scan.files)
        await conn.executemany(
            "INSERT INTO alert_imap_folders (account, folder, uidvalidity, last_uid, read_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (account, folder) DO UPDATE SET "
            "uidvalidity = excluded.uidvalidity, last_uid = excluded.last_uid, "
            "read_at = excluded.read_at", [(*folder, now) for folder in scan.folders])


async def read_alerts(conn: aiosqlite.Connection, settings: AlertSettings, now: str, *,
                      on_done: Callable[[BoardResult], None] | None = None,
                      grouping: groups.Grouping | None = None,
                      deadline: float | None = None) -> list[BoardResult]:
    """Read new alert mail from the configured mailboxes and store its cards: one
    result per sender that had mail or closed a card (`alerts:<sender>`), or one named
    `alerts` when there was none; a mailbox that could not be read fails that line.
    `grouping`: the fetch's (one of its own otherwise). `deadline` (fetch.deadline)
    bounds the whole read, as `settings.max_bytes` and `max_cpu` do; past one the read
    stops, its `alerts` line says which, and what was not read waits for the next fetch."""
    grouping = grouping or groups.Grouping(conn)
    started = time.monotonic()
    scan = await _scan(conn, settings, now, deadline)
    fresh = await _new_mails(conn, scan.mails)
    by_sender: dict[str, list[_Read]] = defaultdict(list)
    for item in fresh:
        by_sender[item.reading.sender].append(item)
    stored = {row[0] for row in await conn.execute_fetchall(
        "SELECT token FROM boards WHERE source = ?", (SOURCE,))}
    results: list[BoardResult] = []
    for name in alerts.REGISTRY:
        if name not in by_sender and name not in stored:
            continue
        result = AlertResult(f"{NAME}:{name}", "")
        await _store_sender(conn, grouping, name, by_sender.get(name, []), settings, now,
                            result)
        result.seconds = time.monotonic() - started
        if result.mails or result.closed:
            results.append(result)
            if on_done is not None:
                on_done(result)
    await _mark_read(conn, scan, now)
    if scan.errors or scan.cut or not results:
        error = "; ".join(scan.errors[:3]) if scan.errors else None
        result = AlertResult(NAME, "", error=one_line(error, 300) if error else None,
                             looked_at=scan.looked_at, cut=scan.cut)
        result.seconds = time.monotonic() - started
        results.append(result)
        if on_done is not None:
            on_done(result)
    return results


__all__ = ["NAME", "SOURCE", "AlertResult", "AlertSettings", "read_alerts"]
