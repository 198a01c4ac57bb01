"""Scored matches as rows: open ones best first, their keys in order, the top N, a
verdict for older text marked stale."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from jobtracker import cli, store
from jobtracker.workspace import Workspace
from tests import matches_seed
from tests.matches_seed import matches_json

KEYS = {"id", "score", "verdict", "company", "title", "location", "url", "status"}


# The shared fixtures, bound here by name so that pytest finds them in this file.
seeded = matches_seed.seeded


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
                           "prerank", "saved", "dismissed_note", "contacts", "signals"]
    assert (first["also_on"], first["reposted"], first["saved"]) == ([], None, False)
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
