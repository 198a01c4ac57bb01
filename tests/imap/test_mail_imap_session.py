"""The IMAP session's guard: every command that writes is refused, on the imaplib that is used."""

from __future__ import annotations

import imaplib

import pytest

from jobtracker.mail.imap import ImapError
from jobtracker.mail.imap.session import Session
from tests.imap.conftest import account, message
from tests.servers.imap_faults import FaultImap


@pytest.fixture
def pw(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("JT_IMAP_PW", "pw")
    return "pw"


def test_the_guard_refuses_every_command_that_writes(pw: str) -> None:
    with FaultImap({1: message(1)}) as server:
        session = Session(account(server.port, "ada"), "pw")
        imap = session._imap
        assert imap is not None
        imap.select("INBOX", readonly=True)
        calls = [lambda: imap.select("INBOX"), lambda: imap.store("1", "+FLAGS", "\\Seen"),
                 lambda: imap.copy("1", "Trash"), lambda: imap.expunge(),
                 lambda: imap.append("INBOX", None, None, b"x"),
                 lambda: imap.uid("STORE", "1", "+FLAGS", "(\\Seen)"),
                 lambda: imap.uid("MOVE", "1", "Trash"),
                 lambda: imap.uid("FETCH", "1", "(BODY[])"),
                 lambda: imap.uid("FETCH", "1", "(RFC822)"),
                 lambda: imap.fetch("1", "(BODY.PEEK[])")]
        for call in calls:
            with pytest.raises(ImapError, match="refused"):
                call()
        session.close()
        sent = " ".join(server.commands).upper()
    for word in ("SELECT", "STORE", "COPY", "EXPUNGE", "APPEND", "MOVE", "BODY[]", "RFC822 "):
        assert word not in sent


def test_imaplib_is_what_is_guarded() -> None:
    # The guard overrides imaplib's one entry for commands; if imaplib renamed it, the
    # guard would silently stop guarding.
    assert callable(getattr(imaplib.IMAP4, "_command", None))
