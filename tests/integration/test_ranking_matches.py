"""Scored matches as rows: open ones best first, their keys in order, the top N, a
verdict for older text marked stale."""

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


KEYS = {"id", "score", "verdict", "company", "title", "location", "url", "status"}


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


def test_matches_json_lists_open_scored_matches_best_first(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    found = matches_json(seeded, capsys)
    assert [m["id"] for m in found] == [1, 3, 2]
    assert all(set(m) >= KEYS for m in found)
    scores = [m["score"] for m in found]
    assert scores == sorted(scores, reverse=True)
    first = found[0]
    assert (first["verdict"], first["company"], first["title"], first["location"],
            first["url"], first["status"]) == ("strong", "Acme", "Senior Backend Engineer",
                                               "Berlin", "https://jobs.example/1", None)
    assert first["score"] == pytest.approx(sum(p["points"] for p in first["parts"].values()))
    assert first["stale"] is False


def test_matches_json_objects_keep_their_keys_in_order(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    # The typed Match prints exactly the object the command always printed, with the
    # group's keys (one posting per job) added at the end.
    assert cli.main(["--home", str(seeded.home), "matches", "--json", "--top", "1"]) == 0
    out = capsys.readouterr().out
    (first,) = json.loads(out)
    assert list(first) == ["id", "score", "verdict", "company", "title", "location", "url",
                           "status", "stale", "parts", "model", "prompt_version",
                           "also_on", "reposted", "why", "dismissed", "described",
                           "prerank"]
    assert (first["also_on"], first["reposted"]) == ([], None)
    assert out == json.dumps([first], ensure_ascii=False) + "\n", "one line, as every --json"
    assert all(set(part) >= {"value", "weight", "points"} for part in first["parts"].values())


def test_top_keeps_the_best(seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    assert [m["id"] for m in matches_json(seeded, capsys, "--top", "2")] == [1, 3]


async def _rewrite_description(db: Path, pid: int) -> None:
    async with store.connect(db) as conn:
        await conn.execute("UPDATE postings SET description = 'rewritten' WHERE id = ?", (pid,))


def test_a_verdict_for_older_text_is_marked_stale(seeded: Workspace,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(_rewrite_description(seeded.db, 2))
    by_id = {m["id"]: m for m in matches_json(seeded, capsys)}
    assert by_id[2]["stale"] is True and by_id[1]["stale"] is False
    assert cli.main(["--home", str(seeded.home), "matches"]) == 0
    out = capsys.readouterr().out
    assert "partial*" in out and "older description" in out
