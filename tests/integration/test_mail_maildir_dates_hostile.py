"""Dates from outside that no calendar sum survives: a mail dated 9999-12-31 (or any time
far past the sync) is stored with the sync's time, and rows stored before that rule
never stop `applications`, `stats` or a nightly run."""

from __future__ import annotations

import asyncio
import json

import pytest

from jobtracker.cli import main
from jobtracker.mail.maildir import sent_at
from jobtracker.workspace import Workspace
from tests.db import raw_connect
from tests.tracker_seed import message, postings, seeded, set_status

NOW = "2026-11-30T12:00:00Z"
FAR = ["9999-12-31T23:59:59Z", "9999-12-31T00:00:00Z", "5000-06-01T00:00:00Z",
       "2026-12-02T12:00:01Z", "9999-12-31T23:59:59+14:00"]


@pytest.mark.parametrize("claimed", FAR)
def test_a_date_far_past_the_sync_is_not_believed(claimed: str) -> None:
    assert sent_at(claimed, NOW, NOW) == NOW
    assert sent_at(claimed, "2026-11-29T08:00:00Z", NOW) == "2026-11-29T08:00:00Z"
    assert sent_at(None, claimed, NOW) == NOW


@pytest.mark.parametrize("claimed", ["2026-11-30T23:00:00Z", "2001-01-01T00:00:00Z"])
def test_a_plausible_date_is_kept(claimed: str) -> None:
    assert sent_at(claimed, NOW, NOW) == claimed


@pytest.mark.parametrize("header", ["Fri, 31 Dec 9999 23:59:59 +0000",
                                    "Fri, 31 Dec 9999 23:59:59 -1200",
                                    "Sat, 01 Jan 5000 00:00:00 +0000"])
def test_a_synced_mail_from_the_far_future_keeps_the_tracker_working(
        ws: Workspace, capsys: pytest.CaptureFixture[str], header: str) -> None:
    maildir = ws.home / "mail"
    for part in ("new", "cur", "tmp"):
        (maildir / part).mkdir(parents=True)
    (maildir / "new" / "1.eml").write_bytes(
        f"From: Rita <rita@acme.test>\r\nTo: ada@example.org\r\nSubject: Re: Engineer\r\n"
        f"Message-ID: <far@acme.test>\r\nDate: {header}\r\n\r\nThanks, Acme.\r\n".encode())
    (ws.home / "config.yaml").write_text(f"maildir: {maildir}\n")

    async def applied(conn) -> None:
        await postings(conn, (1, "Acme", "Engineer"))
        await set_status(conn, 1, "applied", "2026-10-01T09:00:00Z")
    asyncio.run(seeded(ws.db, applied))
    assert main(["--home", str(ws.home), "work", "--task", "inbox"]) == 0
    with raw_connect(ws.db) as conn:
        [(stored,)] = conn.execute("SELECT sent_at FROM messages").fetchall()
    assert stored < "2027"
    for command in (["applications"], ["applications", "--json"], ["stats", "--json"],
                    ["applications", "--due"]):
        assert main(["--home", str(ws.home), *command]) == 0, command
    capsys.readouterr()


@pytest.mark.parametrize("at", ["9999-12-31T23:59:59Z", "9999-12-25T00:00:00Z"])
def test_a_far_future_row_stored_before_is_no_crash(ws: Workspace,
                                                    capsys: pytest.CaptureFixture[str],
                                                    at: str) -> None:
    async def body(conn) -> None:
        await postings(conn, (1, "Acme", "Engineer"), (2, "Bolt", "SRE"))
        await set_status(conn, 1, "applied", "2026-10-01T09:00:00Z")
        await message(conn, "far", at, posting=1, state="scheduling")
        await set_status(conn, 2, "applied", at)
    asyncio.run(seeded(ws.db, body))
    capsys.readouterr()
    assert main(["--home", str(ws.home), "applications", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {row["followup_due"] for row in rows} <= {None} | {r["followup_due"] for r in rows
                                                              if r["followup_due"]}
    for command in (["applications"], ["stats"], ["stats", "--json"],
                    ["applications", "--due", "--today", "2026-12-01"]):
        assert main(["--home", str(ws.home), *command]) == 0, command
    assert "Traceback" not in capsys.readouterr().err
