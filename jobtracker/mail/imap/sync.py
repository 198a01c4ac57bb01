"""IMAP folders → `messages`, incrementally by UID, never changing the mailbox.

Per folder, `imap_folders` keeps the UIDVALIDITY seen and the highest UID stored. A
sync EXAMINEs the folder, asks for the UIDs above that one, fetches them in batches
(`BODY.PEEK`, the first FETCH_BYTES of each) and stores each batch in its own
transaction, through the same `mail.store_message` as the Maildir: a message in both
is one row. A dropped connection leaves every batch before it stored; the next sync
goes on from there. A folder whose UIDVALIDITY changed is read again from UID 1, and
what was stored already is recognized by Message-ID and content.

The blocking session runs in a daemon thread of its own (`off_loop`), not the event
loop's default executor: a run stopped by Ctrl-C or SIGTERM cancels the wait at once,
aborts the exchange, and never waits for that thread at exit (asyncio.run joins the
default executor's threads, and would wait on a server dripping a byte a second).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from jobtracker import store
from jobtracker.config import ImapConfig
from jobtracker.mail.imap.password import resolve_password
from jobtracker.mail.imap.session import Fetched, Session
from jobtracker.mail.link import Linker
from jobtracker.mail.maildir import AlertOf, ParsedMessage, parse_message, store_message

if TYPE_CHECKING:
    import aiosqlite

BATCH = 25      # messages a FETCH asks for: at most 25 x 1 MiB held at once
T = TypeVar("T")


def _settle(future: asyncio.Future[Any], value: Any, failed: bool) -> None:
    if future.done():      # the waiter was cancelled: nobody wants the outcome
        return
    if failed:
        future.set_exception(value)
    else:
        future.set_result(value)


async def off_loop(call: Callable[..., T], *args: Any,
                   abort: Callable[[], None] | None = None) -> T:
    """`call(*args)` in a daemon thread; cancelling the wait calls `abort` (which ends the
    call's blocking read) and returns at once, whatever the thread is doing."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def run() -> None:
        try:
            outcome, failed = call(*args), False
        except BaseException as exc:   # handed to the waiter, raised there
            outcome, failed = exc, True
        with contextlib.suppress(RuntimeError):     # the loop closed meanwhile
            loop.call_soon_threadsafe(_settle, future, outcome, failed)

    threading.Thread(target=run, name="jobtracker-imap", daemon=True).start()
    try:
        return await future
    except asyncio.CancelledError:
        if abort is not None:
            abort()
        raise


@dataclass(frozen=True)
class ImapReport:
    folders: int        # folders examined
    fetched: int        # messages fetched this time
    added: int          # messages new to the database
    relinked: int       # unread messages whose link was found this time


async def _last_uid(conn: aiosqlite.Connection, account: str, folder: str,
                    uidvalidity: int) -> int:
    """The highest UID stored from the folder; 0 when it is new or was recreated."""
    row = await (await conn.execute(
        "SELECT uidvalidity, last_uid FROM imap_folders WHERE account = ? AND folder = ?",
        (account, folder))).fetchone()
    return int(row[1]) if row is not None and int(row[0]) == uidvalidity else 0


def _parse_all(fetched: list[Fetched]) -> list[tuple[Fetched, ParsedMessage]]:
    return [(item, parse_message(item.raw, partial=item.partial)) for item in fetched]


async def _store_batch(conn: aiosqlite.Connection, cfg: ImapConfig, folder: str,
                       uidvalidity: int, last_uid: int,
                       parsed: list[tuple[Fetched, ParsedMessage]], now: str,
                       alert_of: AlertOf | None = None) -> int:
    """One batch and the folder's new position, in one transaction: new messages."""
    added = 0
    async with store.write(conn):
        linker = await Linker.load(conn)
        for item, message in parsed:
            _, new = await store_message(conn, linker, message, item.internal_date or now, now,
                                         alert_of)
            added += new
        await store.upsert(conn, "imap_folders", {
            "account": cfg.account, "folder": folder, "uidvalidity": uidvalidity,
            "last_uid": last_uid, "synced_at": now}, key=["account", "folder"])
    return added


async def _sync_folder(conn: aiosqlite.Connection, session: Session, folder: str,
                       now: str, alert_of: AlertOf | None = None) -> tuple[int, int]:
    cfg = session.cfg
    uidvalidity = await off_loop(session.examine, folder, abort=session.abort)
    last = await _last_uid(conn, cfg.account, folder, uidvalidity)
    uids = await off_loop(session.uids_after, last, abort=session.abort)
    fetched = added = 0
    for start in range(0, len(uids), BATCH):
        batch = uids[start:start + BATCH]
        items = await off_loop(session.fetch, batch, abort=session.abort)
        # Parsing is CPU work; off the event loop so a TUI stays responsive.
        parsed = await off_loop(_parse_all, items)
        added += await _store_batch(conn, cfg, folder, uidvalidity, batch[-1], parsed, now,
                                    alert_of)
        fetched += len(items)
    return fetched, added


async def open_session(cfg: ImapConfig) -> Session:
    """Logged in, or ImapError saying why not (the password kept only for the login)."""
    password = await off_loop(resolve_password, cfg)
    session = Session(cfg)
    await off_loop(session.open, password, abort=session.abort)
    return session


async def sync_imap(conn: aiosqlite.Connection, cfg: ImapConfig, now: str,
                    alert_of: AlertOf | None = None) -> ImapReport:
    """Read new mail from every configured folder into `messages`. Raises ImapError
    when the account cannot be read; what was stored before the failure stays.
    `alert_of` marks job alerts (mail.maildir.store_message)."""
    session = await open_session(cfg)
    fetched = added = 0
    try:
        for folder in cfg.folders:
            got, new = await _sync_folder(conn, session, folder, now, alert_of)
            fetched, added = fetched + got, added + new
    except asyncio.CancelledError:
        session.abort()       # stopped (Ctrl-C, SIGTERM, a deadline): no goodbye to wait for
        raise
    finally:
        await off_loop(session.close)
    async with store.write(conn):
        # Postings fetched since an unread message was linked may name it now.
        relinked = await (await Linker.load(conn)).relink_unread(conn)
    return ImapReport(len(cfg.folders), fetched, added, relinked)


def check_login(cfg: ImapConfig) -> str:
    """Log in and examine every folder (`jobtracker check`): one line saying so, or
    ImapError. Blocks; changes nothing anywhere."""
    session = Session(cfg, resolve_password(cfg))
    try:
        for folder in cfg.folders:
            session.examine(folder)
    finally:
        session.close()
    return f"imap: {cfg.account}: login ok; {', '.join(cfg.folders)} readable"
