"""The end of a headless run: learn, even without a model."""

from __future__ import annotations

import asyncio
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


def dismiss_principals(ws: Workspace, capsys: pytest.CaptureFixture[str], count: int) -> None:
    code, _, _ = run(ws, capsys, "matches", "dismiss", *map(str, range(1, count + 1)),
                     "--reason", "role")
    assert code == 0


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
