"""The IMAP tier: a real Dovecot on loopback (when it is installed), the fault server,
a database, and a record of every command the client writes on the wire."""

from __future__ import annotations

import imaplib
import os
import warnings
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiosqlite
import pytest

from jobtracker import store
from jobtracker.config import ImapConfig
from tests.servers.dovecot import PASSWORD, Dovecot, dovecot_binary

NOW = "2026-11-30T12:00:00Z"
MISSING = ("IMAP REAL-SERVER TIER NOT RUN: dovecot is not installed "
           "(apt-get install -y dovecot-imapd; .ci/run installs it where apt works)")


@pytest.fixture(scope="session")
def dovecot() -> Iterator[Dovecot]:
    """One Dovecot for the session; each test uses its own user (its own mailbox)."""
    if dovecot_binary() is None or os.geteuid() != 0:
        # Said loudly (a warning in the summary, and the skip reason), never silently.
        warnings.warn(pytest.PytestWarning(MISSING), stacklevel=1)
        pytest.skip(MISSING)
    server = Dovecot().start()
    try:
        yield server
    finally:
        server.stop()


_users = iter(range(1, 10_000))


@pytest.fixture
def user() -> str:
    return f"user{next(_users)}"


def account(port: int, user: str, *, tls: bool | str = False, env: str = "JT_IMAP_PW",
            folders: tuple[str, ...] = ("INBOX",)) -> ImapConfig:
    return ImapConfig(host="127.0.0.1", port=port, user=user, password_env=env,
                      folders=folders, tls=tls)


@pytest.fixture
def password(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("JT_IMAP_PW", PASSWORD)
    return PASSWORD


@pytest.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with store.connect(tmp_path / "db.sqlite") as connection:
        yield connection


class Wire:
    """Every command line the client sent (imaplib writes each with `send`)."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    def commands(self) -> list[tuple[str, str]]:
        """(verb, the rest) per command line: `UID FETCH ...` is ('UID', 'FETCH ...')."""
        out = []
        for line in b"".join(self.chunks).split(b"\r\n"):
            parts = line.decode("utf-8", "replace").split(None, 2)
            if len(parts) >= 2:
                out.append((parts[1].upper(), parts[2] if len(parts) > 2 else ""))
        return out

    def verbs(self) -> list[str]:
        return [verb if verb != "UID" else "UID " + rest.split()[0].upper()
                for verb, rest in self.commands()]

    def clear(self) -> None:
        self.chunks.clear()


@pytest.fixture
def wire(monkeypatch: pytest.MonkeyPatch) -> Wire:
    record = Wire()
    original = imaplib.IMAP4.send

    def send(self: imaplib.IMAP4, data: bytes) -> None:
        record.chunks.append(bytes(data))
        original(self, data)

    monkeypatch.setattr(imaplib.IMAP4, "send", send)
    return record


def message(n: int, subject: str = "", message_id: str | None = None) -> bytes:
    mid = message_id or f"<m{n}@acme.example>"
    return (f"From: Acme Careers <jobs@acme.example>\r\nTo: ada@example.org\r\n"
            f"Subject: {subject or f'Your application {n}'}\r\nMessage-ID: {mid}\r\n"
            f"Date: Mon, 30 Nov 2026 10:{n % 60:02d}:00 +0000\r\n\r\n"
            f"Thank you for applying, message {n}.\r\n").encode()
