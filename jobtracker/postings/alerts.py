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
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

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

SOURCE = groups.ALERT_SOURCE
NAME = "alerts"               # `fetch --source alerts`
BATCH = 25                    # IMAP messages a FETCH asks for, as the inbox's sync
SUBJECT_CHARS = 80            # a not-understood mail's subject in the fetch line


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


# --- reading the mailboxes -----------------------------------------------------------

def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _read_one(raw: bytes, fallback: str, scan: _Scan) -> None:
    scan.looked_at += 1
    if alerts.sender_of(mime.sender_address(raw)) is None:
        return                   # not from a sender of alerts: its body is never parsed
    try:
        reading = alerts.read(raw)
    except Exception:  # a reader's bug on odd mail must not stop the fetch
        log.exception("an alert reader failed")
        return
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
        session = await open_session(cfg)
    except ImapError as exc:
        scan.errors.append(f"imap: {exc}")
        return
    try:
        for folder in cfg.folders:
            uidvalidity = await asyncio.to_thread(session.examine, folder)
            row = await (await conn.execute(
                "SELECT uidvalidity, last_uid FROM alert_imap_folders WHERE account = ? "
                "AND folder = ?", (cfg.account, folder))).fetchone()
            last = int(row[1]) if row is not None and int(row[0]) == uidvalidity else 0
            uids = await asyncio.to_thread(session.uids_after, last)
            for start in range(0, len(uids), BATCH):
                items = await asyncio.to_thread(session.fetch, uids[start:start + BATCH])
                for item in items:
                    await asyncio.to_thread(_read_one, item.raw, item.internal_date or now,
                                            scan)
            scan.folders.append((cfg.account, folder, uidvalidity, uids[-1] if uids else last))
    except ImapError as exc:
        scan.errors.append(f"imap: {exc}")
    finally:
        await asyncio.to_thread(session.close)


async def _scan(conn: aiosqlite.Connection, settings: AlertSettings, now: str) -> _Scan:
    scan = _Scan()
    if settings.maildir is not None:
        recorded = {name: (size, mtime) for name, size, mtime in await conn.execute_fetchall(
            "SELECT name, size, mtime_ns FROM alert_maildir_files")}
        await asyncio.to_thread(_scan_maildir, settings.maildir, recorded, scan)
    if settings.imap is not None:
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

    def line(self) -> str:
        """`alerts:linkedin  12 new, 3 seen again, 0 closed (4 mails; 1 not understood: …)`."""
        if not self.ok:
            return f"{self.name}  FAILED {one_line(self.error or '')}"
        if self.name == NAME:
            return (f"{NAME}  no new alert mail ({self.looked_at} message"
                    f"{'s' if self.looked_at != 1 else ''} looked at)")
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
                      grouping: groups.Grouping | None = None) -> list[BoardResult]:
    """Read new alert mail from the configured mailboxes and store its cards: one
    result per sender that had mail or closed a card (`alerts:<sender>`), or one named
    `alerts` when there was none; a mailbox that could not be read fails that line.
    `grouping`: the fetch's (one of its own otherwise)."""
    grouping = grouping or groups.Grouping(conn)
    started = time.monotonic()
    scan = await _scan(conn, settings, now)
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
    if scan.errors or not results:
        error = "; ".join(scan.errors[:3]) if scan.errors else None
        result = AlertResult(NAME, "", error=one_line(error, 300) if error else None,
                             looked_at=scan.looked_at)
        result.seconds = time.monotonic() - started
        results.append(result)
        if on_done is not None:
            on_done(result)
    return results


__all__ = ["NAME", "SOURCE", "AlertResult", "AlertSettings", "read_alerts"]
