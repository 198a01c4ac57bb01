"""Against a real Dovecot on 127.0.0.1: jobtracker reads IMAP and changes nothing there."""

from __future__ import annotations

import imaplib
import re
import ssl
import sys
from pathlib import Path

import aiosqlite
import pytest

from jobtracker.config import Config, Profile
from jobtracker.intake.mail import STEP as MAIL
from jobtracker.mail.imap import ALLOWED, NEVER_SENT, ImapError, check_login, sync_imap
from jobtracker.mail.maildir import sync_maildir
from jobtracker.tasks import Context
from jobtracker.tasks.inbox import InboxTask
from tests.conftest import run_cli
from tests.imap.conftest import NOW, Wire, account, message
from tests.servers.dovecot import PASSWORD, Dovecot


def server_flags(server: Dovecot, user: str) -> dict[int, str]:
    """Each message's flags as the server keeps them, read with EXAMINE (read-only)."""
    imap = imaplib.IMAP4("127.0.0.1", server.plain_port)
    try:
        imap.login(user, PASSWORD)
        imap.select("INBOX", readonly=True)
        _, data = imap.uid("FETCH", "1:*", "(FLAGS)")
    finally:
        imap.logout()
    flags = {}
    for line in data:
        found = re.search(rb"UID (\d+) FLAGS \(([^)]*)\)", line or b"")
        if found:
            flags[int(found.group(1))] = found.group(2).decode()
    return flags


async def count(conn: aiosqlite.Connection, sql: str = "SELECT COUNT(*) FROM messages") -> int:
    return int((await (await conn.execute(sql)).fetchone())[0])


def assert_read_only(wire: Wire) -> None:
    verbs = wire.verbs()
    assert verbs, "nothing was recorded"
    assert {verb.split()[0] for verb in verbs} <= ALLOWED
    assert not [v for v in verbs if v.split()[-1] in NEVER_SENT]
    assert set(verbs) <= {"CAPABILITY", "STARTTLS", "LOGIN", "EXAMINE", "UID SEARCH",
                          "UID FETCH", "LOGOUT"}
    for verb, rest in wire.commands():
        if verb == "UID" and rest.upper().startswith("FETCH"):
            assert "BODY.PEEK[]" in rest and "BODY[" not in rest


async def test_every_message_synced_once_flags_untouched_second_sync_fetches_nothing(
        dovecot: Dovecot, user: str, password: str, wire: Wire,
        conn: aiosqlite.Connection) -> None:
    for n in range(1, 4):
        dovecot.deliver(user, message(n), seen=(n == 2))
    before = server_flags(dovecot, user)
    assert "\\Seen" in before[2] and "\\Seen" not in before[1]
    wire.clear()

    report = await sync_imap(conn, account(dovecot.plain_port, user), NOW)

    assert_read_only(wire)          # before the test's own look at the flags below
    assert "EXAMINE" in wire.verbs() and "SELECT" not in wire.verbs()
    assert (report.fetched, report.added) == (3, 3)
    assert await count(conn) == 3
    assert server_flags(dovecot, user) == before       # no \Seen added, \Recent kept

    wire.clear()
    again = await sync_imap(conn, account(dovecot.plain_port, user), NOW)
    assert (again.fetched, again.added) == (0, 0)
    assert "UID FETCH" not in wire.verbs()
    assert await count(conn) == 3
    dovecot.deliver(user, message(4))
    third = await sync_imap(conn, account(dovecot.plain_port, user), NOW)
    assert (third.fetched, third.added) == (1, 1)


async def test_uidvalidity_change_reads_the_folder_again_without_duplicates(
        dovecot: Dovecot, user: str, password: str, conn: aiosqlite.Connection) -> None:
    for n in range(1, 3):
        dovecot.deliver(user, message(n))
    cfg = account(dovecot.plain_port, user)
    await sync_imap(conn, cfg, NOW)
    old = await count(conn, "SELECT uidvalidity FROM imap_folders")
    # The folder recreated: a new UIDVALIDITY in Dovecot's uid list, its indexes gone.
    folder = dovecot.maildir(user)
    uidlist = folder / "dovecot-uidlist"
    uidlist.write_text(re.sub(r" V\d+", f" V{old + 1000}", uidlist.read_text(), count=1))
    for index in folder.glob("dovecot.index*"):
        index.unlink()
    dovecot.deliver(user, message(3))

    report = await sync_imap(conn, cfg, NOW)

    assert await count(conn, "SELECT uidvalidity FROM imap_folders") == old + 1000
    assert report.fetched == 3 and report.added == 1
    assert await count(conn) == 3


async def test_wrong_password_makes_inbox_unavailable_with_the_reason(
        dovecot: Dovecot, user: str, monkeypatch: pytest.MonkeyPatch,
        conn: aiosqlite.Connection, tmp_path: Path) -> None:
    monkeypatch.setenv("JT_IMAP_PW", "not-the-password-4711")
    dovecot.deliver(user, message(1))
    ctx = Context(home=tmp_path, config=Config(imap=account(dovecot.plain_port, user)),
                  profile=Profile(), now=NOW)
    task = InboxTask()

    await MAIL.bring_in(conn, ctx)

    reason = task.unavailable_reason(ctx)
    assert reason is not None and reason.startswith("imap: login: ")
    assert "AUTHENTICATIONFAILED" in reason
    assert "not-the-password-4711" not in reason
    dump = "\n".join([line async for line in conn.iterdump()])
    assert "not-the-password-4711" not in dump
    assert await count(conn) == 0
    # Another run's context is not this run's failure.
    assert task.unavailable_reason(Context(home=tmp_path, config=ctx.config,
                                           profile=Profile(), now=NOW)) is None


@pytest.mark.parametrize("tls", [True, "starttls"])
async def test_tls_with_a_trusted_self_signed_certificate(
        dovecot: Dovecot, user: str, password: str, wire: Wire, tls: bool | str,
        monkeypatch: pytest.MonkeyPatch, conn: aiosqlite.Connection) -> None:
    dovecot.deliver(user, message(1))
    port = dovecot.tls_port if tls is True else dovecot.plain_port
    cfg = account(port, user, tls=tls)
    with pytest.raises(ImapError, match=r"connecting: .*certificate verify failed"):
        await sync_imap(conn, cfg, NOW)       # not trusted: refused, never plain instead
    monkeypatch.setenv("SSL_CERT_FILE", str(dovecot.cert))
    wire.clear()

    report = await sync_imap(conn, cfg, NOW)

    assert report.added == 1
    assert_read_only(wire)
    if tls == "starttls":
        assert wire.verbs()[:2] == ["CAPABILITY", "STARTTLS"]
    # LOGIN never travelled in clear text: with implicit TLS every byte is encrypted,
    # with STARTTLS it comes after the handshake.
    assert "LOGIN" in wire.verbs()


async def test_a_message_in_the_maildir_and_on_imap_is_one_message(
        dovecot: Dovecot, user: str, password: str, conn: aiosqlite.Connection,
        tmp_path: Path) -> None:
    raw = message(7, subject="Interview invitation")
    dovecot.deliver(user, raw)
    local = tmp_path / "Mail"
    for sub in ("cur", "new", "tmp"):
        (local / sub).mkdir(parents=True)
    (local / "new" / "1.local").write_bytes(raw.replace(b"\r\n", b"\n"))  # as mbsync stores

    await sync_maildir(conn, local, NOW)
    report = await sync_imap(conn, account(dovecot.plain_port, user), NOW)

    assert report.fetched == 1 and report.added == 0
    assert await count(conn) == 1


def test_check_tests_the_login(dovecot: Dovecot, user: str, tmp_path: Path) -> None:
    dovecot.deliver(user, message(1))
    home = tmp_path / "home"
    assert run_cli("init", env={"JOBTRACKER_HOME": str(home)}).returncode == 0
    config = home / "config.yaml"
    base = config.read_text()
    command = f"{sys.executable} -c 'import os; print(os.environ[\\\"PW\\\"])'"
    imap = (f"\nimap:\n  host: 127.0.0.1\n  port: {dovecot.plain_port}\n  user: {user}\n"
            f"  password_command: \"{command}\"\n  tls: false\n")
    config.write_text(base + imap)

    good = run_cli("check", env={"JOBTRACKER_HOME": str(home), "PW": PASSWORD})
    bad = run_cli("check", env={"JOBTRACKER_HOME": str(home), "PW": "wrong-secret-99"})

    assert good.returncode == 0, good.stderr
    assert f"imap: {user}@127.0.0.1:{dovecot.plain_port}: login ok; INBOX readable" in good.stdout
    assert bad.returncode == 2
    assert "login: " in bad.stderr and "AUTHENTICATIONFAILED" in bad.stderr
    assert "wrong-secret-99" not in bad.stderr + bad.stdout
    assert PASSWORD not in good.stdout + good.stderr


def test_check_login_examines_each_folder(dovecot: Dovecot, user: str, password: str) -> None:
    dovecot.deliver(user, message(1))
    with pytest.raises(ImapError, match=r"examining Nope: NO"):
        check_login(account(dovecot.plain_port, user, folders=("INBOX", "Nope")))


def test_the_server_certificate_is_checked(dovecot: Dovecot, user: str, password: str) -> None:
    context = ssl.create_default_context()
    with pytest.raises(ssl.SSLCertVerificationError):
        imaplib.IMAP4_SSL("127.0.0.1", dovecot.tls_port, ssl_context=context, timeout=10)
