"""A scheduling mail becomes an interview proposal; accepting it writes the `.ics`
files, which icalendar and a second parser (ical) read back; a move keeps the UID."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from ical.calendar_stream import IcsCalendarStream
from icalendar import Calendar

from jobtracker import store
from jobtracker.cli import main
from jobtracker.run.setup import config_of
from jobtracker.tasks.base import Context
from jobtracker.tasks.inbox import InboxTask
from jobtracker.workspace import Workspace
from tests.db import raw_connect
from tests.notify_seed import workspace

TASK = InboxTask()
NOW = "2026-11-20T10:00:00Z"
LINK = "https://meet.example.com/abc-defg-hij"


def world(tmp_path: Path, zone: str | None = None) -> Workspace:
    ws = workspace(tmp_path, extra=f"timezone: {zone}\n" if zone else "")
    return ws


def mail(ws: Workspace, key: str, body: str, *, sent: str = "2026-11-20T08:30:00Z",
         state: str = "scheduling", reading: dict[str, Any] | None = None) -> list[int]:
    """A mail from Acme about posting 1 (applied), read by the inbox as `reading` says;
    the ids of the interview proposals it made."""
    return asyncio.run(_mail(ws, key, body, sent, state, reading or {}))


async def _mail(ws: Workspace, key: str, body: str, sent: str, state: str,
                reading: dict[str, Any]) -> list[int]:
    async with store.connect(ws.db) as conn:
        async with store.write(conn):
            await conn.execute("INSERT OR IGNORE INTO boards (id, source, token, company) "
                               "VALUES (1, 'greenhouse', 'acme', 'Acme')")
            await conn.execute(
                "INSERT OR IGNORE INTO postings (id, board_id, external_id, company, title, "
                "url, first_seen, last_seen, job_key) VALUES (1, 1, 'e1', 'Acme', "
                "'Staff Engineer', 'https://x/1', ?, ?, 'k1')", (NOW, NOW))
            await conn.execute(
                "INSERT OR IGNORE INTO applications (id, posting_id, company, status, "
                "created_at, updated_at) VALUES (1, 1, 'Acme', 'applied', ?, ?)", (NOW, NOW))
            await conn.execute(
                "INSERT INTO messages (key, content_hash, sender, subject, sent_at, body, "
                "company, posting_id, first_seen) VALUES (?, ?, 'Rita <rita@acme.test>', "
                "'Interview', ?, ?, 'Acme', 1, ?)", (key, key, sent, body, NOW))
        ctx = Context(home=ws.home, config=config_of(ws), profile=ws.profile(), now=NOW)
        (unit,) = await TASK.pending(conn, ctx, subject=key)
        answer = {"evidence": body[:300], "state": state, "summary": "a time",
                  "interview": {"quote": "", "start": "", "end": "", "minutes": 0,
                                "zone": "", "where": "", "cancelled": False,
                                **reading}}
        async with store.write(conn):
            await TASK.apply(conn, unit, TASK.parse(unit, answer, ctx), ctx, "test-model")
        rows = await conn.execute_fetchall(
            "SELECT id FROM proposals WHERE kind = 'interview' AND unit_key = ? ORDER BY item",
            (unit.unit_key,))
    return [int(r[0]) for r in rows]


def cli(ws: Workspace, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["--home", str(ws.home), *args])
    out = capsys.readouterr()
    return code, out.out + out.err


def feed(ws: Workspace) -> tuple[Calendar, Any]:
    raw = (ws.home / "interviews.ics").read_bytes()
    return Calendar.from_ical(raw), IcsCalendarStream.calendar_from_ics(raw.decode())


SENTENCE = f"Would Thursday 3 December at 14:00 CET work for a call on {LINK} with Rita?"


def test_a_scheduling_mail_becomes_an_interview_you_accept_into_ics(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = world(tmp_path)
    [pid] = mail(ws, "s1@acme", f"Hi Ada. {SENTENCE} Best, Rita", reading={
        "quote": SENTENCE, "start": "2026-12-03T14:00", "zone": "CET", "where": LINK})
    code, out = cli(ws, capsys, "proposals", "show", str(pid))
    assert code == 0 and "Thu 3 Dec 2026 14:00 CET" in out
    code, out = cli(ws, capsys, "proposals", "accept", str(pid))
    assert code == 0, out
    assert "interviews/1-acme-staff-engineer-20261203.ics" in out
    own = Calendar.from_ical((ws.home / "interviews/1-acme-staff-engineer-20261203.ics")
                             .read_bytes())
    (event,) = own.events
    assert event.start.isoformat() == "2026-12-03T13:00:00+00:00", "a fixed offset, as UTC"
    assert str(event["LOCATION"]) == LINK and str(event["URL"]) == LINK
    assert str(event["SUMMARY"]) == "Interview: Acme — Staff Engineer"
    first, second = feed(ws)
    assert [e.uid for e in first.events] == [second.events[0].uid]
    assert second.events[0].dtstart.isoformat() == "2026-12-03T13:00:00+00:00"
    code, out = cli(ws, capsys, "applications", "show", "1", "--json")
    shown = json.loads(out)
    assert shown["status"] == "interviewing" and shown["history"][-1]["proposal"] == pid
    assert shown["interviews"][0]["start"] == "2026-12-03T14:00:00+01:00"
    code, out = cli(ws, capsys, "interviews", "--json")
    assert json.loads(out)[0]["where"] == LINK or code != 0
    # Undo takes all of it back: the row, the file, the status.
    code, out = cli(ws, capsys, "proposals", "undo")
    assert code == 0, out
    assert not (ws.home / "interviews/1-acme-staff-engineer-20261203.ics").exists()
    assert feed(ws)[0].events == []
    code, out = cli(ws, capsys, "applications", "show", "1", "--json")
    assert json.loads(out)["status"] == "applied"


def test_a_moved_interview_keeps_its_uid_and_raises_its_sequence(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = world(tmp_path, zone="Europe/Berlin")
    [pid] = mail(ws, "s1@acme", f"Hi. {SENTENCE}", reading={
        "quote": SENTENCE, "start": "2026-12-03T14:00", "zone": "CET", "where": LINK})
    assert cli(ws, capsys, "proposals", "accept", str(pid))[0] == 0
    moved = "Could we move it to Friday 4 December at 10:00 CET instead?"
    [again] = mail(ws, "s2@acme", f"Sorry. {moved}", sent="2026-11-25T08:00:00Z",
                         reading={"quote": moved, "start": "2026-12-04T10:00"})
    code, out = cli(ws, capsys, "proposals", "accept", str(again))
    assert code == 0 and "moved from Thu 3 Dec 2026 14:00" in out, out
    first, second = feed(ws)
    (event,) = first.events
    assert event["SEQUENCE"] == 1 and event.uid == "interview-1-" + str(pid) + "@jobtracker"
    assert event.start.isoformat() == "2026-12-04T10:00:00+01:00"
    assert str(event.start.tzinfo) == "Europe/Berlin", "the user's zone, by name"
    assert "VTIMEZONE" in (ws.home / "interviews.ics").read_text()
    assert second.events[0].sequence == 1
    assert not (ws.home / "interviews/1-acme-staff-engineer-20261203.ics").exists()
    assert (ws.home / "interviews/1-acme-staff-engineer-20261204.ics").exists()
    cancel = "We have to cancel the interview on Friday 4 December, sorry."
    [off] = mail(ws, "s3@acme", cancel, sent="2026-11-26T08:00:00Z",
                       reading={"quote": cancel, "cancelled": True})
    assert cli(ws, capsys, "proposals", "accept", str(off))[0] == 0
    (event,) = feed(ws)[0].events
    assert str(event["STATUS"]) == "CANCELLED" and event["SEQUENCE"] == 2
    assert cli(ws, capsys, "interviews", "--json")[1].strip() == "[]"


def test_two_slots_make_two_proposals_and_accepting_one_stales_the_other(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = world(tmp_path)
    both = "Would Thursday 3 December at 10:00 or Friday 4 December at 15:00 CET suit you?"
    first, second = mail(ws, "s1@acme", f"Hi. {both}",
                               reading={"quote": both, "start": "2026-12-04T15:00"})
    code, out = cli(ws, capsys, "proposals", "list", "--json")
    summaries = {p["id"]: p["summary"] for p in json.loads(out)}
    assert "one of 2 times: pick one" in summaries[first]
    assert cli(ws, capsys, "proposals", "accept", str(second))[0] == 0
    code, out = cli(ws, capsys, "proposals", "accept", str(first))
    assert code != 0 and "time 2 of this mail was accepted" in out
    assert len(feed(ws)[0].events) == 1


def test_no_zone_asks_in_the_review_until_config_names_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = world(tmp_path)
    said = "Shall we talk tomorrow at 10?"
    [pid] = mail(ws, "s1@acme", f"Hello. {said}",
                       reading={"quote": said, "start": "2026-11-21T10:00"})
    code, out = cli(ws, capsys, "proposals", "accept", str(pid))
    assert code != 0 and "set timezone: in config.yaml" in out
    assert not (ws.home / "interviews.ics").exists()
    with (ws.home / "config.yaml").open("a") as handle:
        handle.write("timezone: America/New_York\n")
    code, out = cli(ws, capsys, "proposals", "accept", str(pid))
    assert code == 0, out
    (event,) = feed(ws)[0].events
    assert event.start.isoformat() == "2026-11-21T10:00:00-05:00"


@pytest.mark.parametrize(("quote", "start"), [
    ("Would Tuesday 3 December at 14:00 CET work?", "2026-12-03T14:00"),   # a Thursday
    ("Would Thursday 3 December at 14:00 CET work?", "2026-12-03T15:00"),  # not what it says
    ("Could you share two or three times that suit you?", "2026-12-03T14:00"),
])
def test_a_reading_the_quote_does_not_hold_makes_no_interview(
        tmp_path: Path, quote: str, start: str) -> None:
    ws = world(tmp_path)
    assert mail(ws, "s1@acme", f"Hi. {quote}",
                      reading={"quote": quote, "start": start}) == []
    with raw_connect(ws.db) as conn:
        statuses = conn.execute("SELECT kind FROM proposals").fetchall()
    assert [row[0] for row in statuses] == ["status"], "the status proposal stands alone"


def test_a_quote_that_is_not_in_the_mail_is_no_reading(tmp_path: Path) -> None:
    ws = world(tmp_path)
    made = mail(ws, "s1@acme", "Hi. Please pick a slot.", reading={
        "quote": "Thursday 3 December at 14:00 CET", "start": "2026-12-03T14:00"})
    assert made == []
    with raw_connect(ws.db) as conn:
        row = conn.execute("SELECT interview FROM messages WHERE key = 's1@acme'").fetchone()
    assert row[0] is None




def test_the_listing_shows_the_application_id_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = world(tmp_path)
    [pid] = mail(ws, "s1@acme", f"Hi Ada. {SENTENCE} Best, Rita", reading={
        "quote": SENTENCE, "start": "2026-12-03T14:00", "zone": "CET", "where": LINK})
    assert cli(ws, capsys, "proposals", "accept", str(pid))[0] == 0
    code, out = cli(ws, capsys, "interviews", "--all")
    header, row = out.splitlines()
    assert code == 0 and header.split() == ["app", "when", "job", "where"]
    assert row.split()[0] == "1", "the id `applications show` takes"
    assert "Thu 3 Dec 2026 14:00-15:00" in row and row.endswith(LINK)
    assert row.index("Acme") == header.index("job")


def test_the_feed_says_how_often_to_read_it_as_iso_durations(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """X-PUBLISHED-TTL (Outlook) and RFC 7986's REFRESH-INTERVAL, both PT1H, never a
    Python timedelta's `1:00:00`; both parsers read an hour."""
    from datetime import timedelta

    ws = world(tmp_path)
    [pid] = mail(ws, "s1@acme", f"Hi. {SENTENCE}", reading={
        "quote": SENTENCE, "start": "2026-12-03T14:00", "zone": "CET", "where": LINK})
    assert cli(ws, capsys, "proposals", "accept", str(pid))[0] == 0
    raw = (ws.home / "interviews.ics").read_bytes().decode()
    assert "\r\nX-PUBLISHED-TTL:PT1H\r\n" in raw
    assert "\r\nREFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n" in raw
    # What docs/notify.md says the feed says, word for word.
    docs = (Path(__file__).resolve().parents[2] / "docs" / "notify.md").read_text()
    claimed = re.findall(r"`((?:X-PUBLISHED-TTL|REFRESH-INTERVAL)[^`]*)`", docs)
    assert sorted(claimed) == ["REFRESH-INTERVAL;VALUE=DURATION:PT1H", "X-PUBLISHED-TTL:PT1H"]
    assert all(f"\r\n{line}\r\n" in raw for line in claimed)
    first, second = feed(ws)
    assert first["REFRESH-INTERVAL"].dt == timedelta(hours=1)
    assert second.refresh_interval == timedelta(hours=1)


def test_a_move_rewrites_the_events_description_from_the_new_mail(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = world(tmp_path, zone="Europe/Berlin")
    [pid] = mail(ws, "s1@acme", f"Hi. {SENTENCE}", reading={
        "quote": SENTENCE, "start": "2026-12-03T14:00", "zone": "CET", "where": LINK})
    assert cli(ws, capsys, "proposals", "accept", str(pid))[0] == 0
    moved = "Could we move it to Friday 4 December at 10:00 CET instead?"
    [again] = mail(ws, "s2@acme", f"Sorry. {moved}", sent="2026-11-25T08:00:00Z",
                   reading={"quote": moved, "start": "2026-12-04T10:00"})
    assert cli(ws, capsys, "proposals", "accept", str(again))[0] == 0
    first, second = feed(ws)
    (event,) = first.events
    assert str(event["DESCRIPTION"]) == f"From the email: {moved}"
    assert second.events[0].description == f"From the email: {moved}"
    assert str(event["SUMMARY"]) == second.events[0].summary == \
        "Interview: Acme — Staff Engineer"
    own = Calendar.from_ical((ws.home / "interviews/1-acme-staff-engineer-20261204.ics")
                             .read_bytes())
    assert "3 December" not in str(own.events[0]["DESCRIPTION"])
    assert cli(ws, capsys, "proposals", "undo")[0] == 0
    (event,) = feed(ws)[0].events
    assert str(event["DESCRIPTION"]) == f"From the email: {SENTENCE}", "undo puts it back"


def test_accepting_the_interview_resolves_the_mails_status_proposal_and_undo_restores_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The scheduling mail proposes `interviewing` and the interview; accepting the
    interview moves the application, so the status proposal is moot: resolved with it,
    named in the message, not waiting in the digest, and back with one undo."""
    ws = world(tmp_path)
    [pid] = mail(ws, "s1@acme", f"Hi. {SENTENCE}", reading={
        "quote": SENTENCE, "start": "2026-12-03T14:00", "zone": "CET", "where": LINK})
    with raw_connect(ws.db) as conn:
        (status,) = conn.execute("SELECT id FROM proposals WHERE kind = 'status'").fetchone()
    code, out = cli(ws, capsys, "digest", "--json")
    assert status in [p["id"] for p in json.loads(out)["proposals"]]
    code, out = cli(ws, capsys, "proposals", "accept", str(pid))
    assert code == 0 and f"resolved {status} (" in out, out
    code, out = cli(ws, capsys, "proposals", "list", "--json")
    states = {p["id"]: p["state"] for p in json.loads(out)}
    assert states == {pid: "accepted", status: "rejected"}
    code, out = cli(ws, capsys, "digest", "--json")
    assert json.loads(out)["proposals"] == []
    code, out = cli(ws, capsys, "proposals", "undo")
    assert code == 0 and str(status) in out, out
    code, out = cli(ws, capsys, "proposals", "list", "--json")
    assert {p["id"]: p["state"] for p in json.loads(out)} == {pid: "pending",
                                                              status: "pending"}


def test_a_stale_proposal_is_not_counted_as_waiting(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Set by hand past what a mail proposed: that proposal can no longer be accepted,
    and neither the digest nor `proposals list` counts it as waiting."""
    ws = world(tmp_path)
    mail(ws, "s1@acme", "Hi. We would love to talk.", state="interview_request")
    assert cli(ws, capsys, "status", "1", "offer")[0] == 0
    _, out = cli(ws, capsys, "digest", "--json")
    data = json.loads(out)
    assert data["proposals"] == [] and data["proposals_by_kind"] == {}
    _, out = cli(ws, capsys, "proposals", "list")
    assert "0 pending" in out and "stale" in out
