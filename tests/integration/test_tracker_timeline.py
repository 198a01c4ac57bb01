"""One application's timeline: history, mail and notes, stored and shown literally."""

from __future__ import annotations

import asyncio
import json

import pytest

from jobtracker.cli import main
from jobtracker.workspace import Workspace
from tests.tracker_seed import message, postings, seeded, set_status


def cli(capsys: pytest.CaptureFixture[str], ws: Workspace, *args: str) -> tuple[int, str, str]:
    code = main(["--home", str(ws.home), *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def world(ws: Workspace) -> Workspace:
    """Acme applied Oct 1 and heard back Oct 6; Bolt applied Oct 1, silent; Crane moved to
    interviewing by hand Oct 20; Dove only saved."""
    async def body(conn) -> None:
        await postings(conn, (1, "Acme", "Engineer"), (2, "Bolt", "SRE"),
                       (3, "Crane", "Staff Engineer"), (4, "Dove", "Data"))
        await set_status(conn, 1, "applied", "2026-10-01T09:00:00Z")
        await message(conn, "m1", "2026-10-06T10:00:00Z", posting=1, state="scheduling")
        await set_status(conn, 2, "applied", "2026-10-01T09:00:00Z")
        await message(conn, "ack", "2026-10-01T09:05:00Z", company="Bolt",
                      state="acknowledgement")
        await set_status(conn, 3, "applied", "2026-10-02T09:00:00Z")
        await set_status(conn, 3, "interviewing", "2026-10-20T09:00:00Z")
        await set_status(conn, 4, "saved", "2026-10-01T09:00:00Z")
    asyncio.run(seeded(ws.db, body))
    return ws


def test_show_has_history_mail_and_notes_stored_and_shown_literally(
        world: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    hostile = "call [red]Rita[/red] \x1b[31mnow\x1b[0m"
    assert cli(capsys, world, "applications", "note", "1", hostile)[0] == 0
    code, out, _ = cli(capsys, world, "applications", "show", "1", "--json")
    found = json.loads(out)
    assert code == 0 and found["notes"][0]["text"] == hostile
    assert [(h["from"], h["to"], h["source"]) for h in found["history"]] == [
        (None, "applied", "hand")]
    assert [(m["date"], m["state"]) for m in found["messages"]] == [
        ("2026-10-06T10:00:00Z", "scheduling")]
    assert {"id", "posting", "company", "title", "status", "applied_at", "last_contact_at",
            "followup_due", "due", "url"} <= set(found)
    code, out, _ = cli(capsys, world, "applications", "show", "1")
    assert "[red]Rita[/red]" in out and "\x1b" not in out
    assert "mail from Rita <rita@acme.test>: Re: your application [scheduling]" in out
