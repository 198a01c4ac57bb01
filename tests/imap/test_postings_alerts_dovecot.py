"""Job alerts read from a real Dovecot on 127.0.0.1: postings made, the mailbox unchanged."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
from alerts_samples import NOT_ALERTS, SAMPLES

from jobtracker import cli
from jobtracker.postings.alerts import AlertSettings, read_alerts
from jobtracker.workspace import Workspace
from tests.imap.conftest import NOW, Wire, account
from tests.imap.test_mail_imap_dovecot import assert_read_only, server_flags
from tests.servers.dovecot import Dovecot


async def test_alerts_over_imap_become_postings_and_nothing_on_the_server_changes(
        dovecot: Dovecot, user: str, password: str, wire: Wire,
        conn: aiosqlite.Connection) -> None:
    dovecot.deliver(user, SAMPLES["linkedin saved search"].raw)
    dovecot.deliver(user, SAMPLES["indeed digest"].raw, seen=True)
    dovecot.deliver(user, NOT_ALERTS["linkedin message"])
    before = server_flags(dovecot, user)
    wire.clear()
    settings = AlertSettings(imap=account(dovecot.plain_port, user))

    results = await read_alerts(conn, settings, NOW)

    assert_read_only(wire)
    assert server_flags(dovecot, user) == before          # no \Seen set, \Recent kept
    assert {r.name: r.new for r in results} == {"alerts:linkedin": 3, "alerts:indeed": 3}
    urls = {row[0] for row in await conn.execute_fetchall("SELECT url FROM postings")}
    assert "https://www.linkedin.com/jobs/view/4317109784/" in urls
    assert "https://www.indeed.com/viewjob?jk=a1b2c3d4e5f60718" in urls

    wire.clear()
    again = await read_alerts(conn, settings, NOW)
    assert [r.line() for r in again] == ["alerts  no new alert mail (0 messages looked at)"]
    assert "UID FETCH" not in wire.verbs()                  # its own place in the folder


async def test_a_mail_in_the_maildir_and_on_imap_is_one_mail(
        dovecot: Dovecot, user: str, password: str, tmp_path: Path,
        conn: aiosqlite.Connection) -> None:
    from tests.unit.mail_samples import build_maildir

    raw = SAMPLES["glassdoor"].raw
    dovecot.deliver(user, raw)
    box = build_maildir(tmp_path / "Mail", [raw])
    results = await read_alerts(conn, AlertSettings(maildir=box, imap=account(
        dovecot.plain_port, user)), NOW)
    (glassdoor,) = [r for r in results if r.name == "alerts:glassdoor"]
    assert (glassdoor.mails, glassdoor.new) == (1, 3)


def test_fetch_on_the_imap_server_prints_its_senders(
        dovecot: Dovecot, user: str, password: str, tmp_path: Path,
        capsys: object) -> None:
    dovecot.deliver(user, SAMPLES["wttj"].raw)
    ws = Workspace(tmp_path / "home")
    ws.init()
    (ws.home / "config.yaml").write_text(
        "llm: {url: null}\nalerts: {probe_companies: 0}\n"
        f"imap: {{host: 127.0.0.1, port: {dovecot.plain_port}, user: {user}, "
        "password_env: JT_IMAP_PW, tls: false}\n")
    assert cli.main(["--home", str(ws.home), "fetch", "--source", "alerts"]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "alerts:wttj  2 new, 0 seen again, 0 closed (1 mail)" in out


async def test_the_inbox_sync_over_imap_marks_alerts(
        dovecot: Dovecot, user: str, password: str, conn: aiosqlite.Connection) -> None:
    from jobtracker.intake.mail import alert_of
    from jobtracker.mail.imap import sync_imap

    dovecot.deliver(user, SAMPLES["ziprecruiter"].raw)
    dovecot.deliver(user, NOT_ALERTS["a friend's links"])
    await sync_imap(conn, account(dovecot.plain_port, user), NOW, alert_of)
    marked = sorted(tuple(row) for row in await conn.execute_fetchall(
        "SELECT sender_domain, alert FROM messages ORDER BY sender_domain"))
    assert marked == [("gmail.com", None), ("ziprecruiter.com", "ziprecruiter")]
