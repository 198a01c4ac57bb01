"""Raw emails for the mail and inbox tests, and a Maildir built from them.

Each sample is built the way a mail server delivers it (bytes), so the tests run
the real parser over real MIME: multipart/alternative, HTML only, base64,
quoted-printable, an unknown charset, a broken From header, a large attachment.
"""

from __future__ import annotations

import base64
import hashlib
import mailbox
import os
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

import aiosqlite

DATE = "Mon, 07 Sep 2026 09:{minute:02d}:00 +0200"


def plain(subject: str, body: str, *, sender: str = "Acme Careers <jobs@acme.com>",
          message_id: str | None = "<m1@acme.com>", minute: int = 0, cte: str | None = None,
          charset: str = "utf-8") -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "me@example.org"
    msg["Subject"] = subject
    msg["Date"] = DATE.format(minute=minute)
    if message_id:
        msg["Message-ID"] = message_id
    msg.set_content(body, cte=cte, charset=charset)
    return msg.as_bytes(policy=SMTP)


def alternative(subject: str, text: str, html: str, **headers: str | int) -> bytes:
    msg = EmailMessage()
    msg["From"] = str(headers.get("sender", "Acme Careers <jobs@acme.com>"))
    msg["To"] = "me@example.org"
    msg["Subject"] = subject
    msg["Date"] = DATE.format(minute=int(headers.get("minute", 0)))
    msg["Message-ID"] = str(headers.get("message_id", "<alt@acme.com>"))
    msg.set_content(text)
    msg.add_alternative(html, subtype="html")
    return msg.as_bytes(policy=SMTP)


def html_only(subject: str, html: str, **headers: str | int) -> bytes:
    msg = EmailMessage()
    msg["From"] = str(headers.get("sender", "Bolt Talent <talent@bolt.io>"))
    msg["Subject"] = subject
    msg["Date"] = DATE.format(minute=int(headers.get("minute", 0)))
    msg["Message-ID"] = str(headers.get("message_id", "<html@bolt.io>"))
    msg.set_content(html, subtype="html")
    return msg.as_bytes(policy=SMTP)


def with_attachment(subject: str, body: str, size: int, **headers: str | int) -> bytes:
    msg = EmailMessage()
    msg["From"] = str(headers.get("sender", "Acme Careers <jobs@acme.com>"))
    msg["Subject"] = subject
    msg["Date"] = DATE.format(minute=int(headers.get("minute", 0)))
    msg["Message-ID"] = str(headers.get("message_id", "<big@acme.com>"))
    msg.set_content(body)
    # Recognizable bytes, so a test can prove none of them reached the body.
    payload = (b"ATTACHMENT-BYTES-" * (size // 17 + 1))[:size]
    msg.add_attachment(payload, maintype="application", subtype="pdf", filename="offer.pdf")
    return msg.as_bytes(policy=SMTP)


def unknown_charset(body_bytes: bytes) -> bytes:
    return (b"From: Crane HR <hr@crane.dev>\r\nSubject: Your application\r\n"
            b"Date: Tue, 08 Sep 2026 10:00:00 +0000\r\nMessage-ID: <cs@crane.dev>\r\n"
            b"MIME-Version: 1.0\r\n"
            b"Content-Type: text/plain; charset=\"x-no-such-charset\"\r\n"
            b"Content-Transfer-Encoding: 8bit\r\n\r\n" + body_bytes + b"\r\n")


def malformed_from(body: str) -> bytes:
    # policy.default raises IndexError on this From header (see facts.md).
    return (b"From: jobs@dove.com, <\r\nSubject: Interview invitation\r\n"
            b"Date: Wed, 09 Sep 2026 08:00:00 +0000\r\nMessage-ID: <mf@dove.com>\r\n"
            b"Content-Type: text/plain; charset=utf-8\r\n\r\n" + body.encode() + b"\r\n")


def base64_body(text: str) -> bytes:
    encoded = base64.encodebytes(text.encode("utf-8"))
    return (b"From: Crane Recruiting <recruiting@crane.dev>\r\nSubject: Next steps\r\n"
            b"Date: Thu, 10 Sep 2026 08:00:00 +0000\r\nMessage-ID: <b64@crane.dev>\r\n"
            b"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n"
            b"Content-Transfer-Encoding: base64\r\n\r\n" + encoded)


def build_maildir(root: Path, new: list[bytes], cur: list[bytes] = ()) -> Path:
    """A Maildir with these messages in new/ and (seen) in cur/, built by mailbox."""
    box = mailbox.Maildir(root, create=True)
    for raw in new:
        box.add(raw)
    for raw in cur:
        message = mailbox.MaildirMessage(raw)
        message.set_subdir("cur")
        message.add_flag("S")
        box.add(message)
    box.close()
    return root


def fingerprint(root: Path) -> dict[str, tuple[str, int]]:
    """Every file under the Maildir: relative path → (sha256, mtime_ns)."""
    out = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = Path(folder) / name
            out[str(path.relative_to(root))] = (
                hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns)
    return out


# --- the database side: boards, postings, applications ---------------------------------

NOW = "2026-09-12T12:00:00Z"


async def add_posting(conn, company: str, title: str, external_id: str, *,
                      token: str | None = None, url: str = "") -> int:
    """A posting on `company`'s greenhouse board (the board is made on first use)."""
    token = token or company.lower().replace(" ", "")
    await conn.execute(
        "INSERT INTO boards (source, token, company) VALUES ('greenhouse', ?, ?) "
        "ON CONFLICT (source, token) DO NOTHING", (token, company))
    board = (await (await conn.execute(
        "SELECT id FROM boards WHERE source = 'greenhouse' AND token = ?",
        (token,))).fetchone())[0]
    cursor = await conn.execute(
        "INSERT INTO postings (board_id, external_id, company, title, url, first_seen, "
        "last_seen) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (board, external_id, company, title, url, NOW, NOW))
    return int(cursor.lastrowid)


async def add_application(conn, posting_id: int | None, status: str,
                          company: str = "") -> int:
    cursor = await conn.execute(
        "INSERT INTO applications (posting_id, company, status, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?)", (posting_id, company, status, NOW, NOW))
    return int(cursor.lastrowid)


async def application_status(conn, application_id: int) -> str | None:
    row = await (await conn.execute(
        "SELECT status FROM applications WHERE id = ?", (application_id,))).fetchone()
    return row[0] if row else None


async def messages(conn: aiosqlite.Connection) -> dict[str, dict]:
    """The stored messages by key, every column."""
    conn.row_factory = aiosqlite.Row
    rows = await conn.execute_fetchall("SELECT * FROM messages")
    return {row["key"]: dict(row) for row in rows}
