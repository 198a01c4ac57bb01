"""The world the learning tests share: a profile with levels, an exclude and weights,
seven "Principal Sales Engineer" postings to dismiss and three others, every one judged
and scored; and the helpers that run the command line on it.

A test file takes the `seeded` fixture by binding it by name (`seeded =
learning_seed.seeded`); one of its own would take precedence."""

from __future__ import annotations

import asyncio
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
