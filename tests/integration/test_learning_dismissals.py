"""Dismissals: a match leaves the list and comes back, unknown postings and reasons
are exit 2."""

from __future__ import annotations

import json
import sqlite3

import pytest

from jobtracker import cli
from jobtracker.workspace import Workspace
from tests import learning_seed
from tests.learning_seed import run

# The shared fixtures, bound here by name so that pytest finds them in this file.
seeded = learning_seed.seeded


def ids(ws: Workspace, capsys: pytest.CaptureFixture[str], *extra: str) -> list[int]:
    code, out, _ = run(ws, capsys, "matches", "--json", *extra)
    assert code == 0
    return [m["id"] for m in json.loads(out)]


def test_a_dismissed_match_leaves_the_list_and_comes_back_with_undismiss(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    assert 8 in ids(seeded, capsys)
    code, out, _ = run(seeded, capsys, "matches", "dismiss", "8", "--reason", "stack",
                       "--note", "no \x1b[31mJava")
    assert code == 0 and "posting 8 (Acme - Senior Backend Engineer): dismissed (stack)" in out
    assert 8 not in ids(seeded, capsys)
    code, out, _ = run(seeded, capsys, "matches", "--dismissed", "--json")
    assert [(m["id"], m["dismissed"]) for m in json.loads(out)] == [(8, "stack")]
    with sqlite3.connect(seeded.db) as conn:
        row = conn.execute("SELECT reason, note, verdict, score FROM dismissals").fetchone()
    assert row[:3] == ("stack", "no \x1b[31mJava", "strong")     # the note kept literally
    assert row[3] == pytest.approx(json.loads(run(seeded, capsys, "matches", "--dismissed",
                                                  "--json")[1])[0]["score"])
    code, out, _ = run(seeded, capsys, "matches", "undismiss", "8")
    assert code == 0 and "posting 8: back in matches" in out
    assert 8 in ids(seeded, capsys)


def no_dismissals(ws: Workspace) -> bool:
    with sqlite3.connect(ws.db) as conn:
        return conn.execute("SELECT COUNT(*) FROM dismissals").fetchone()[0] == 0


def test_a_dismissal_naming_an_unknown_posting_exits_2_and_writes_nothing(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(seeded, capsys, "matches", "dismiss", "8", "999", "--reason", "level")
    assert code == 2 and "no posting with id 999" in err
    assert no_dismissals(seeded)       # not even posting 8: all or nothing


def test_a_dismissal_with_an_unknown_reason_exits_2_naming_the_reasons(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["--home", str(seeded.home), "matches", "dismiss", "8", "--reason", "boring"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'boring'" in err and "'level', 'location', 'salary'" in err
    assert no_dismissals(seeded)


def test_the_dismissed_list_shows_each_reason_and_note_back(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(seeded, capsys, "matches", "dismiss", "8", "--reason", "stack",
                     "--note", "no \x1b[31mJava\nplease")
    assert code == 0
    code, out, _ = run(seeded, capsys, "matches", "--dismissed")
    lines = out.splitlines()
    assert lines[0].split()[:4] == ["id", "score", "verdict", "reason"]
    assert lines[1].split()[0] == "8" and lines[1].split()[3] == "stack"
    # The note as one plain line under its match: no escape, no line break.
    assert lines[2].strip() == "note: no Java please"
    (shown,) = json.loads(run(seeded, capsys, "matches", "--dismissed", "--json")[1])
    assert (shown["dismissed"], shown["dismissed_note"]) == ("stack", "no \x1b[31mJava\nplease")


def test_a_note_longer_than_500_characters_is_cut_and_said_so(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(seeded, capsys, "matches", "dismiss", "8", "--reason", "other",
                       "--note", "x" * 600)
    assert code == 0
    assert "the note was cut to its first 500 characters (it had 600)" in out
    (shown,) = json.loads(run(seeded, capsys, "matches", "--dismissed", "--json")[1])
    assert shown["dismissed_note"] == "x" * 500
    code, out, _ = run(seeded, capsys, "matches", "dismiss", "9", "--reason", "other",
                       "--note", "short")
    assert code == 0 and "cut" not in out
