"""Interviews from hostile mail and into a hostile workspace: a scheduling mail that
names year 9999, a zone of UTC+25 or a time past the calendar makes no proposal and
never fails its unit; a proposal stored before dates were bounded is refused at
accept with one line, never a traceback; accepting or moving an interview never
writes or removes through a linked `interviews/` folder or a linked `interviews.ics`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.test_interviews import LINK, SENTENCE, cli, mail, world

# (the sentence, the time the model read in it: what the quote holds, so only the
# bound can turn it away)
HOSTILE = [("Would Friday 3 December 9999 at 14:00 UTC work?", "9999-12-03T14:00"),
           ("Would Friday 31 December 9999 at 23:30 UTC work?", "9999-12-31T23:30"),
           ("Would Thursday 3 December at 14:00 UTC+25 work?", "2026-12-03T14:00"),
           ("Would Monday 3 December 2029 at 10:00 CET work?", "2029-12-03T10:00")]


@pytest.mark.parametrize(("quote", "start"), HOSTILE)
def test_a_mail_naming_an_impossible_time_makes_no_proposal_and_no_failure(
        tmp_path: Path, quote: str, start: str) -> None:
    ws = world(tmp_path)
    made = mail(ws, "far@acme", f"Hi. {quote} Rita", reading={
        "quote": quote, "start": start, "zone": "UTC", "where": LINK})
    assert made == []


def test_a_far_proposal_stored_before_the_bound_is_refused_at_accept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = world(tmp_path)
    [pid] = mail(ws, "s1@acme", f"Hi. {SENTENCE}", reading={
        "quote": SENTENCE, "start": "2026-12-03T14:00", "zone": "CET", "where": LINK})
    from tests.db import raw_connect

    with raw_connect(ws.db) as conn:
        payload = json.loads(conn.execute("SELECT payload FROM proposals WHERE id = ?",
                                          (pid,)).fetchone()[0])
        payload.update(start="9999-12-03T14:00:00+00:00", end="9999-12-03T15:00:00+00:00")
        conn.execute("UPDATE proposals SET payload = ? WHERE id = ?",
                     (json.dumps(payload), pid))
    code, out = cli(ws, capsys, "proposals", "accept", str(pid))
    assert code != 0 and "Traceback" not in out
    assert f"proposal {pid}" in out and not (ws.home / "interviews.ics").exists()


@pytest.mark.parametrize("linked", ["interviews", "interviews.ics"])
def test_accepting_writes_nothing_through_a_link(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], linked: str) -> None:
    ws = world(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    if linked == "interviews":
        if (ws.home / "interviews").is_dir():
            (ws.home / "interviews").rmdir()
        (ws.home / "interviews").symlink_to(outside)
    else:
        (outside / "theirs.ics").write_text("theirs\n")
        (ws.home / "interviews.ics").symlink_to(outside / "theirs.ics")
    [pid] = mail(ws, "s1@acme", f"Hi. {SENTENCE}", reading={
        "quote": SENTENCE, "start": "2026-12-03T14:00", "zone": "CET", "where": LINK})
    code, out = cli(ws, capsys, "proposals", "accept", str(pid))
    assert code != 0 and "symbolic link" in out, out
    assert sorted(p.name for p in outside.iterdir()) == (
        [] if linked == "interviews" else ["theirs.ics"])
    if linked == "interviews.ics":
        assert (outside / "theirs.ics").read_text() == "theirs\n"


def test_moving_an_interview_removes_nothing_through_a_linked_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = world(tmp_path, zone="Europe/Berlin")
    [pid] = mail(ws, "s1@acme", f"Hi. {SENTENCE}", reading={
        "quote": SENTENCE, "start": "2026-12-03T14:00", "zone": "CET", "where": LINK})
    assert cli(ws, capsys, "proposals", "accept", str(pid))[0] == 0
    own = ws.home / "interviews" / "1-acme-staff-engineer-20261203.ics"
    outside = tmp_path / "outside"
    (ws.home / "interviews").rename(outside)
    (ws.home / "interviews").symlink_to(outside)
    moved = "Could we move it to Friday 4 December at 10:00 CET instead?"
    [again] = mail(ws, "s2@acme", f"Sorry. {moved}", sent="2026-11-25T08:00:00Z",
                   reading={"quote": moved, "start": "2026-12-04T10:00"})
    code, out = cli(ws, capsys, "proposals", "accept", str(again))
    assert code != 0 and "symbolic link" in out, out
    assert (outside / own.name).exists(), "the file behind the link is not removed"
