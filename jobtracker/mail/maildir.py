"""Emails from the user's Maildir: raw bytes → plain data, and the read-only sync.

The Maildir belongs to the user and to their mail reader. This module only lists
`new/` and `cur/` and opens files for reading: it never moves, renames, flags or
writes anything there. What it learns goes into the `messages` table, where the
inbox task's queue is derived from.

Everything taken from an email (sender, subject, body) passes `clean_text` on the
way in: an email is untrusted text, and must never carry terminal control
sequences into a log, a prompt or a screen.
"""

from __future__ import annotations

import asyncio
import email
import email.errors
import hashlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.header import decode_header, make_header
from email.message import Message
from email.parser import BytesHeaderParser
from email.utils import parseaddr, parsedate_to_datetime
from pathlib import Path
from typing import TYPE_CHECKING

from jobtracker import store
from jobtracker.mail.link import Link, Linker
from jobtracker.mail.policy import COMPAT32, DEFAULT, mailbox
from jobtracker.mail.policy import MAX_HEADER_CHARS as MAX_HEADER_CHARS  # named here as before
from jobtracker.text import clean_text, html_to_text, one_line

if TYPE_CHECKING:
    import aiosqlite

MAX_BODY_CHARS = 100_000     # stored body bound; the prompt takes far less
# Only this much of a message is parsed. An email's text comes first, before its
# attachments; parsing a 10 MB PDF's base64 line by line would cost half a second
# for nothing (the parser is lenient with the cut-off part).
MAX_PARSE_BYTES = 1 << 20
SUBJECT_CHARS = 300
SENDER_CHARS = 200
MESSAGE_ID_CHARS = 500
# Headers that, with the body, make a message's content hash.
HASHED_HEADERS = ("from", "to", "date", "subject", "message-id")


class MailError(Exception):
    """The Maildir cannot be read as configured (missing folder, say)."""


@dataclass(frozen=True)
class ParsedMessage:
    """One email as plain data. `key` is its identity when nothing else claims it."""

    message_id: str          # normalized (no angle brackets), '' when absent
    content_hash: str        # 16 hex: the hashed headers and the raw body
    sender: str              # "Name <addr>", cleaned
    sender_address: str
    sender_domain: str       # lower case, '' when none
    subject: str
    date: str | None         # UTC ISO 8601 from the Date header; None when absent/unparsable
    body: str                # text/plain, else text/html converted; never an attachment
    partial: bool = False    # only the first bytes were fetched (IMAP over its cap)
    # The From header's one mailbox, parsed before any encoded word is decoded
    # (policy.mailbox); '' when the header holds anything else. Who sent an alert.
    from_mailbox: str = ""

    @property
    def key(self) -> str:
        """The Message-ID, else a hash of headers and body: never empty, never shared
        by two different header-less messages."""
        return self.message_id or f"hash:{self.content_hash}"

    @property
    def variant_key(self) -> str:
        """The key of a message that reuses an already-seen Message-ID with other content."""
        return f"{self.message_id}#{self.content_hash[:12]}"


# --- headers ------------------------------------------------------------------------



def _decoded(value: str) -> str:
    """A compat32 header value with its encoded words decoded, never raising."""
    try:
        return str(make_header(decode_header(value)))
    except (LookupError, ValueError, UnicodeError, email.errors.HeaderParseError):
        return value


def _headers_default(msg: Message) -> dict[str, str]:
    """Header values as text through policy.default (which can raise on bad headers)."""
    return {name: str(msg.get(name) or "") for name in HASHED_HEADERS}


def _headers_compat(raw: bytes) -> dict[str, str]:
    """The same, through the lenient compat32 parser: for headers policy.default
    cannot parse (Exchange's odd brackets, a truncated From)."""
    msg = BytesHeaderParser(policy=COMPAT32).parsebytes(raw)
    return {name: _decoded(str(msg.get(name) or "")) for name in HASHED_HEADERS}


def normalize_message_id(value: str) -> str:
    """`<abc@host>` → `abc@host`: whitespace, control characters and brackets dropped."""
    text = "".join(clean_text(value).split())
    if text.startswith("<") and ">" in text:
        text = text[1:text.index(">")]
    return text.strip("<>")[:MESSAGE_ID_CHARS]


def _utc_iso(value: str) -> str | None:
    try:
        when = parsedate_to_datetime(value)
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)   # RFC 5322 "-0000": UTC, origin unknown
        return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (TypeError, ValueError, IndexError, OverflowError, AttributeError):
        return None


# --- body ---------------------------------------------------------------------------

def _part_text(part: Message) -> str:
    """A text part's content, transfer encoding undone. An unknown or lying charset
    decodes as UTF-8 with replacement instead of raising."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return str(payload or "")
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:
        return payload.decode("utf-8", errors="replace")


def _body_part(msg: Message) -> Message | None:
    """The text/plain part, else the text/html one; never an attachment."""
    get_body = getattr(msg, "get_body", None)
    if get_body is None:              # a compat32 message has no get_body
        return _walk_for_body(msg)
    body: Message | None = get_body(preferencelist=("plain", "html"))
    return body


def _walk_for_body(msg: Message) -> Message | None:
    """get_body's choice made by hand, for a message parsed with compat32."""
    html = None
    for part in msg.walk():
        if part.is_multipart() or part.get_content_disposition() == "attachment":
            continue
        kind = part.get_content_type()
        if kind == "text/plain":
            return part
        if kind == "text/html" and html is None:
            html = part
    return html


def _body_text(msg: Message) -> str:
    part = _body_part(msg)
    if part is None:
        return ""
    text = _part_text(part)
    if part.get_content_type() == "text/html":
        return html_to_text(text)
    return clean_text(text)


def _body(msg: Message, raw: bytes) -> str:
    """The body text; when policy.default trips over the MIME headers, compat32's."""
    try:
        return _body_text(msg)
    except Exception:  # policy.default raises assorted errors on bad headers
        pass
    try:
        return _body_text(email.message_from_bytes(raw, policy=COMPAT32))
    except Exception:  # a structure nothing can read leaves the body empty
        return ""


def _raw_body(raw: bytes) -> bytes:
    """The bytes after the header block, line endings normalized, for hashing."""
    normalized = raw.replace(b"\r\n", b"\n")
    _, sep, body = normalized.partition(b"\n\n")
    return body if sep else b""


def content_hash(headers: dict[str, str], raw: bytes) -> str:
    """16 hex of sha256 over the identifying headers and the raw body.

    The raw body, not the extracted text: improving the HTML converter must not
    make a stored message look like new content under the same Message-ID.
    """
    digest = hashlib.sha256()
    for name in HASHED_HEADERS:
        digest.update(name.encode() + b":" + " ".join(headers[name].split()).encode(
            "utf-8", "surrogateescape") + b"\n")
    digest.update(b"\n")
    digest.update(_raw_body(raw))
    return digest.hexdigest()[:16]


def _from_mailbox(msg: Message) -> str:
    try:
        raw = [value for name, value in msg.raw_items() if name.lower() == "from"]
    except Exception:  # a header the parser cannot give back: no trusted sender
        return ""
    return one_line(mailbox(raw)[1], SENDER_CHARS)


def parse_message(raw: bytes, partial: bool = False) -> ParsedMessage:
    """Raw RFC 5322 bytes → a ParsedMessage. Never raises on malformed mail.

    The content hash covers every byte given (`partial`: only the message's first
    bytes were given); the parser sees the first MAX_PARSE_BYTES.
    """
    head = raw if len(raw) <= MAX_PARSE_BYTES else raw[:raw.rfind(b"\n", 0, MAX_PARSE_BYTES) + 1]
    msg = email.message_from_bytes(head, policy=DEFAULT)
    try:
        headers = _headers_default(msg)
    except Exception:  # policy.default raises assorted errors on bad headers
        headers = _headers_compat(head)
    name, address = parseaddr(clean_text(headers["from"]))
    address = one_line(address, SENDER_CHARS)
    name = one_line(name, SENDER_CHARS)
    domain = address.rpartition("@")[2].strip(" .>").lower() if "@" in address else ""
    body = _body(msg, head)
    return ParsedMessage(
        message_id=normalize_message_id(headers["message-id"]),
        content_hash=content_hash(headers, raw),
        sender=one_line(f"{name} <{address}>" if name and address else name or address,
                        SENDER_CHARS),
        sender_address=address,
        sender_domain=domain,
        subject=one_line(headers["subject"], SUBJECT_CHARS),
        date=_utc_iso(headers["date"]),
        body=body[:MAX_BODY_CHARS],
        partial=partial,
        from_mailbox=_from_mailbox(msg),
    )


# --- the sync -----------------------------------------------------------------------

@dataclass(frozen=True)
class MaildirFile:
    name: str        # the unique part of the file name (before ':')
    path: Path
    size: int
    mtime_ns: int


@dataclass(frozen=True)
class SyncReport:
    files: int           # message files in new/ and cur/
    read: int            # files read and parsed this time (new or changed)
    added: int           # messages new to the database
    relinked: int        # unread messages whose link was found this time
    errors: tuple[str, ...] = ()   # files that could not be read, with the reason
    skipped: tuple[str, ...] = ()  # symbolic links in new/ or cur/: never read


def list_maildir(maildir: Path, skipped: list[str] | None = None) -> list[MaildirFile]:
    """The message files in new/ and cur/, in delivery order: by unique name, its runs
    of digits compared as numbers (`delivery_key`).

    tmp/ is a delivery in progress and dot files are not messages (Maildir spec).
    A symbolic link is not a delivered message: whoever planted it could point it at
    any file the user can read. It is never opened; its path goes into `skipped`.
    The same holds for a `new/` or `cur/` folder that is a link: it is not read.
    """
    if not (maildir / "cur").is_dir() and not (maildir / "new").is_dir():
        raise MailError(f"{maildir}: not a Maildir (no cur/ or new/ folder)")
    found: dict[str, MaildirFile] = {}
    for sub in ("new", "cur"):
        folder = maildir / sub
        if folder.is_symlink():
            if skipped is not None:
                skipped.append(f"{folder}: a symbolic link, not read")
            continue
        if not folder.is_dir():
            continue
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.startswith("."):
                    continue
                if entry.is_symlink():
                    if skipped is not None:
                        skipped.append(f"{entry.path}: a symbolic link, not read")
                    continue
                if not entry.is_file():
                    continue
                info = entry.stat()
                name = entry.name.split(":", 1)[0]
                found.setdefault(name, MaildirFile(name, Path(entry.path), info.st_size,
                                                   info.st_mtime_ns))
    return [found[name] for name in sorted(found, key=delivery_key)]


_DIGITS = re.compile(r"(\d+)")


def delivery_key(name: str) -> tuple[tuple[int, str], ...]:
    """A unique name's sort key: delivery order. A name starts with the delivery's
    seconds, then (`M…`) its microseconds, not zero-padded, and a counter (`Q…`,
    Python's mailbox; `P…` a process id): as text, `M99999` would sort after
    `M100000`. So each run of digits compares as a number, the text between as text."""
    return tuple((int(part), "") if part.isdigit() else (-1, part)
                 for part in _DIGITS.split(name) if part)


def _read_and_parse(path: Path) -> ParsedMessage:
    # Read-only, the one way this module touches a file; O_NOFOLLOW refuses a file
    # swapped for a symbolic link after it was listed (ELOOP, an OSError).
    with open(os.open(path, os.O_RDONLY | os.O_NOFOLLOW), "rb") as handle:
        return parse_message(handle.read())


def _mtime_iso(mtime_ns: int) -> str:
    return datetime.fromtimestamp(mtime_ns / 1e9, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


async def _key_for(conn: aiosqlite.Connection, parsed: ParsedMessage) -> tuple[str, bool]:
    """The message's key, and whether a row with it already exists.

    The first content seen under a Message-ID keeps the plain id; a later message
    with the same id and other content gets `<id>#<hash>`, so both are read. A copy
    cut at a fetch cap (IMAP) hashes other bytes than a whole one: either being
    partial, the Message-ID alone says it is the same message.
    """
    if not parsed.message_id:
        row = await (await conn.execute(
            "SELECT 1 FROM messages WHERE key = ?", (parsed.key,))).fetchone()
        return parsed.key, row is not None
    rows = await conn.execute_fetchall(
        "SELECT key, content_hash, partial FROM messages WHERE message_id = ?",
        (parsed.message_id,))
    for key, digest, partial in rows:
        if digest == parsed.content_hash or partial or parsed.partial:
            return key, True
    taken = {key for key, _, _ in rows}
    if parsed.message_id not in taken:
        return parsed.message_id, False
    return parsed.variant_key, False


# Says which job-alert sender a message is from (None: it is no alert). The caller
# hands it in (the inbox task gives jobtracker.alerts.recognise): mail knows no sender.
AlertOf = Callable[[ParsedMessage], "str | None"]
ALERT_LINK = Link(None, None, "job alert")


# A mail's own date is believed up to this far past the sync (clocks and zones drift);
# later than that (`9999-12-31`) it is the sender's word only, and the sync's time is kept.
FUTURE_SLACK = timedelta(days=1)


def sent_at(claimed: str | None, fallback: str, now: str) -> str:
    """The time to store as a message's: its Date header, else `fallback` (the server's
    INTERNALDATE), else `now`, the first of them no later than a day past `now`. A date
    from outside is untrusted text: year 9999 would overflow every date sum after it."""
    try:
        latest = datetime.fromisoformat(now.replace("Z", "+00:00")) + FUTURE_SLACK
    except ValueError:
        return claimed or fallback
    for candidate in (claimed, fallback):
        try:
            when = datetime.fromisoformat(candidate.replace("Z", "+00:00")) if candidate \
                else None
        except ValueError:
            continue
        if candidate and when is not None and when.tzinfo is not None and when <= latest:
            return candidate
    return now


async def store_message(conn: aiosqlite.Connection, linker: Linker, message: ParsedMessage,
                        fallback_date: str, now: str,
                        alert_of: AlertOf | None = None) -> tuple[str, bool]:
    """Store one message, linked, unless it is stored already (under the caller's
    transaction): its key, and whether it is new. Every mail source stores through it,
    so the same message from the Maildir and from IMAP is one row. A job alert
    (`alert_of` names its sender) is stored marked and linked to nothing: it is no
    employer's reply, and the inbox task never reads it."""
    key, exists = await _key_for(conn, message)
    if not exists:
        alert = alert_of(message) if alert_of is not None else None
        link = ALERT_LINK if alert else await linker.link(
            conn, message.sender, message.sender_domain, message.subject, message.body)
        await conn.execute(
            "INSERT INTO messages (key, message_id, content_hash, sender, sender_domain, "
            "subject, sent_at, body, company, posting_id, link_reason, link_basis, first_seen,"
            " partial, alert) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (key, message.message_id, message.content_hash, message.sender,
             message.sender_domain, message.subject,
             sent_at(message.date, fallback_date, now),
             message.body, link.company, link.posting_id, link.reason, linker.basis, now,
             int(message.partial), alert))
    return key, not exists


async def unsynced_count(conn: aiosqlite.Connection, maildir: Path) -> int:
    """How many message files a sync would read now (new or changed since the last one).
    Lists the folder and reads the database; writes nothing (for a dry run's queue)."""
    recorded = {name: (size, mtime) for name, size, mtime in await conn.execute_fetchall(
        "SELECT name, size, mtime_ns FROM maildir_files")}
    return sum(recorded.get(f.name) != (f.size, f.mtime_ns) for f in list_maildir(maildir))


async def sync_maildir(conn: aiosqlite.Connection, maildir: Path, now: str,
                       alert_of: AlertOf | None = None) -> SyncReport:
    """Read new and changed message files into `messages`, in one transaction.

    Idempotent: a file whose (unique name, size, mtime) is recorded is not opened
    again. The Maildir is only listed and read, never written. `alert_of` marks job
    alerts (`store_message`).
    """
    skipped: list[str] = []
    files = list_maildir(maildir, skipped)
    recorded = {name: (size, mtime) for name, size, mtime in await conn.execute_fetchall(
        "SELECT name, size, mtime_ns FROM maildir_files")}
    todo = [f for f in files if recorded.get(f.name) != (f.size, f.mtime_ns)]
    parsed: list[tuple[MaildirFile, ParsedMessage]] = []
    errors = []
    for item in todo:
        try:
            # Parsing is CPU work; off the event loop so a TUI stays responsive.
            parsed.append((item, await asyncio.to_thread(_read_and_parse, item.path)))
        except OSError as exc:   # vanished or unreadable: the next sync tries again
            errors.append(f"{item.path}: {exc.strerror or exc}")
    added = 0
    async with store.write(conn):
        linker = await Linker.load(conn)
        # Postings fetched (or applications made) since an unread message was
        # linked may name it now; unchanged since, it is not linked again.
        relinked = await linker.relink_unread(conn)
        for item, message in parsed:
            key, new = await store_message(conn, linker, message, _mtime_iso(item.mtime_ns), now,
                                           alert_of)
            added += new
            await store.upsert(conn, "maildir_files", {
                "name": item.name, "size": item.size, "mtime_ns": item.mtime_ns,
                "message_key": key}, key=["name"])
        present = {f.name for f in files}
        gone = [name for name in recorded if name not in present]
        await conn.executemany("DELETE FROM maildir_files WHERE name = ?",
                               [(name,) for name in gone])
    return SyncReport(files=len(files), read=len(parsed), added=added, relinked=relinked,
                      errors=tuple(errors), skipped=tuple(skipped))
