"""The workspace the matches tests share: five judged, scored postings (a closed one,
one below the wanted levels, one whose title carries terminal control and markup) and
the helper that reads `matches --json` back.

A test file takes the `seeded` fixture by binding it by name (`seeded =
matches_seed.seeded`); one of its own would take precedence."""

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


# id, company, title, location, remote, verdict, closed
POSTINGS = [
    (1, "Acme", "Senior Backend Engineer", "Berlin", 0, "strong", False),
    (2, "Bolt", "Staff Engineer", "Remote - EU", 1, "partial", False),
    (3, "Crane", "Senior SRE \x1b[31m[red]Evil[/red]\x1b]8;;http://x\x07", "Berlin", 0,
     "good", False),
    (4, "Dove", "Senior Data Engineer", "Berlin", 0, "strong", True),    # closed
    (5, "Eel", "Junior Engineer", "Berlin", 0, "strong", False),         # not a match
]


async def _seed(home: Path) -> None:
    profile = load_profile(home / "profile.yaml")
    async with store.connect(home / "jobtracker.db") as conn, store.write(conn):
        await conn.execute(
            "INSERT INTO boards (id, source, token, company) VALUES (1, 'greenhouse', 'x', 'X')")
        for pid, company, title, location, remote, verdict, closed in POSTINGS:
            level = "junior" if title.startswith("Junior") else (
                "staff" if title.startswith("Staff") else "senior")
            description = f"{title}: Python."
            await conn.execute(
                "INSERT INTO postings (id, board_id, external_id, company, title, location, "
                "remote, url, description, title_level, first_seen, last_seen, closed_at) "
                "VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (pid, f"e{pid}", company, title, location, remote,
                 f"https://jobs.example/{pid}", description, level, NOW, NOW,
                 NOW if closed else None))
            await conn.execute(
                "INSERT INTO rankings (posting_id, unit_key, prose_hash, description_hash, "
                "verdict, reasons, model, ranked_at) VALUES (?, ?, ?, ?, ?, '[\"r\"]', 'm', ?)",
                (pid, "k", profile.prose_hash, store.description_hash(description), verdict,
                 NOW))
        await scoring.score_postings(conn, profile, NOW)


@pytest.fixture
def seeded(ws: Workspace) -> Workspace:
    asyncio.run(_seed(ws.home))
    return ws


def matches_json(ws: Workspace, capsys: pytest.CaptureFixture[str], *extra: str) -> list[dict]:
    assert cli.main(["--home", str(ws.home), "matches", "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)
