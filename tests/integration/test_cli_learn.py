"""Learning from decisions, end to end: dismiss, `why`, learn, accept and undo, calibration."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest
from conftest import run_cli

from jobtracker import cli, store
from jobtracker.config import load_profile
from jobtracker.ranking import scoring
from jobtracker.workspace import Workspace

NOW = "2026-09-01T00:00:00Z"
PROFILE = """\
# What I want.
prose: |
  Senior backend engineer.

levels:            # these count
  - senior
  - staff
exclude: [crypto]  # never
weights: {fit: 1.0, remote: 0.3}
"""
# id, company, title, verdict
POSTINGS = [(i, f"Co{i}", f"Principal Sales Engineer {i}", "good") for i in range(1, 8)] + [
    (8, "Acme", "Senior Backend Engineer", "strong"),
    (9, "Bolt", "Senior Data Engineer", "partial"),
    (10, "Crane", "Senior Platform Engineer", "poor"),
]


async def _seed(home: Path) -> None:
    profile = load_profile(home / "profile.yaml")
    async with store.connect(home / "jobtracker.db") as conn, store.write(conn):
        await conn.execute(
            "INSERT INTO boards (id, source, token, company) VALUES (1, 'greenhouse', 'x', 'X')")
        for pid, company, title, verdict in POSTINGS:
            description = f"{title}: Python."
            await conn.execute(
                "INSERT INTO postings (id, board_id, external_id, company, title, location, "
                "remote, url, description, title_level, first_seen, last_seen) "
                "VALUES (?, 1, ?, ?, ?, 'Berlin', 0, ?, ?, 'senior', ?, ?)",
                (pid, f"e{pid}", company, title, f"https://jobs.example/{pid}", description,
                 NOW, NOW))
            await conn.execute(
                "INSERT INTO rankings (posting_id, unit_key, prose_hash, description_hash, "
                "verdict, reasons, model, ranked_at) VALUES (?, 'k', ?, ?, ?, '[\"r\"]', 'm', ?)",
                (pid, profile.prose_hash, store.description_hash(description), verdict, NOW))
        await scoring.score_postings(conn, profile, NOW)


@pytest.fixture
def seeded(ws: Workspace) -> Workspace:
    (ws.home / "profile.yaml").write_text(PROFILE)
    asyncio.run(_seed(ws.home))
    return ws


def run(ws: Workspace, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(["--home", str(ws.home), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


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


def test_why_holds_every_part_and_adds_up_to_the_score(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    _code, out, _ = run(seeded, capsys, "matches", "--json")
    for match in json.loads(out):
        assert set(match["why"]) == {"verdict", "remote", "location", "recency", "salary",
                                     "prerank", "learned"}
        assert sum(match["why"].values()) == pytest.approx(match["score"], abs=1e-3)


def dismiss_principals(ws: Workspace, capsys: pytest.CaptureFixture[str], count: int) -> None:
    code, _, _ = run(ws, capsys, "matches", "dismiss", *map(str, range(1, count + 1)),
                     "--reason", "role")
    assert code == 0


def test_learn_proposes_an_exclude_from_repeated_dismissals_and_accept_undo_is_exact(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    dismiss_principals(seeded, capsys, 4)
    code, out, _ = run(seeded, capsys, "learn")
    assert code == 0 and "0 new proposal(s)" in out         # four decisions: nothing
    dismiss_principals(seeded, capsys, 7)
    code, out, _ = run(seeded, capsys, "learn", "--json")
    made = json.loads(out)["made"]
    summaries = [m["summary"] for m in made]
    assert "profile.yaml: add 'principal' to exclude — 7 of 7 dismissals for `role` had " \
           "'principal' in the title" in summaries
    pid = next(m["id"] for m in made if "'principal'" in m["summary"])
    code, out, _ = run(seeded, capsys, "proposals", "show", str(pid), "--json")
    shown = json.loads(out)
    assert shown["kind"] == "profile" and len(shown["payload"]["decisions"]) == 7
    profile = seeded.home / "profile.yaml"
    before = profile.read_bytes()
    assert run(seeded, capsys, "proposals", "accept", str(pid))[0] == 0
    assert profile.read_text() == PROFILE.replace("exclude: [crypto]  # never",
                                                  "exclude: [crypto, principal]  # never")
    assert load_profile(profile).exclude == ("crypto", "principal")
    assert run(seeded, capsys, "proposals", "undo")[0] == 0
    assert profile.read_bytes() == before


def test_a_rejected_suggestion_is_not_made_again_for_the_same_evidence(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    dismiss_principals(seeded, capsys, 7)
    made = json.loads(run(seeded, capsys, "learn", "--json")[1])["made"]
    assert made
    assert run(seeded, capsys, "proposals", "reject", *[str(m["id"]) for m in made])[0] == 0
    again = json.loads(run(seeded, capsys, "learn", "--json")[1])
    assert again["made"] == [] and again["declined"] == len(made)


def test_a_profile_edited_since_the_suggestion_makes_it_stale_and_unappliable(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    dismiss_principals(seeded, capsys, 7)
    made = json.loads(run(seeded, capsys, "learn", "--json")[1])["made"]
    profile = seeded.home / "profile.yaml"
    edited = profile.read_text() + "# my own edit\n"
    profile.write_text(edited)
    code, out, _ = run(seeded, capsys, "proposals", "show", str(made[0]["id"]), "--json")
    assert json.loads(out)["state"] == "stale"
    code, out, _err = run(seeded, capsys, "proposals", "accept", str(made[0]["id"]))
    assert code != 0
    assert profile.read_text() == edited


def test_stats_json_has_a_calibration_entry_per_verdict(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    for posting, status in ((9, "applied"), (10, "interviewing")):
        assert run(seeded, capsys, "status", str(posting), status)[0] == 0
    dismiss_principals(seeded, capsys, 1)
    _, out, _ = run(seeded, capsys, "stats", "--json")
    calibration = {e["verdict"]: e for e in json.loads(out)["calibration"]}
    assert list(calibration) == ["strong", "good", "partial", "poor"]
    assert calibration["poor"]["applications"] == 1
    assert calibration["poor"]["interviews"] == 1
    assert calibration["poor"]["interview_rate"] is None          # under five applications
    assert calibration["poor"]["contradicted"] == [
        {"application": calibration["poor"]["contradicted"][0]["application"], "posting": 10,
         "outcome": "interview"}]
    assert calibration["good"]["contradicted"] == [{"posting": 1, "outcome": "dismissed: role"}]
    _code, out, _ = run(seeded, capsys, "stats")
    assert "calibration: each verdict and what it became" in out
    assert "contradicted: posting 10 was poor, then interview" in out


def test_a_headless_run_ends_with_learn_even_without_a_model(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    dismiss_principals(seeded, capsys, 7)
    (seeded.home / "config.yaml").write_text("llm: {url: null}\n")
    done = run_cli("--home", str(seeded.home), "--run", module="tui.cli")
    assert done.returncode == 0, done.stderr
    assert "learn: read 7 decision(s); 2 new proposal(s)" in done.stdout
    with sqlite3.connect(seeded.db) as conn:
        kinds = conn.execute("SELECT kind, task FROM proposals").fetchall()
    assert kinds == [("profile", "learn"), ("profile", "learn")]
