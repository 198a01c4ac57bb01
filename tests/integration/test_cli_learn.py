"""`jobtracker learn`, end to end: repeated dismissals become a proposal to exclude a
word; accepting edits profile.yaml and undo restores it byte for byte; stats --json
carries the calibration."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

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
