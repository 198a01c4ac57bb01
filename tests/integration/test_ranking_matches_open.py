"""The open matches, one query (`ranking.matches.open_matches`): `jobtracker matches`,
`prepare`'s picks and the digest agree on which jobs are open — a dismissed match is
announced by no digest and packed by no prepare, and a job the user applied to is
left alone by both."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from jobtracker import cli, store
from jobtracker.ranking import scoring
from jobtracker.workspace import Workspace
from tests import prepare_world
from tests.prepare_world import NOW, posting_id

home, server = prepare_world.home, prepare_world.server


def rescore(ws: Workspace) -> None:
    """Score the judged postings, as `prepare` and `rank` do before they read matches."""
    async def run() -> None:
        async with store.connect(ws.db) as conn:
            await scoring.rescore(conn, ws.profile(), NOW)

    asyncio.run(run())


def _json(ws: Workspace, capsys: pytest.CaptureFixture[str], *args: str) -> object:
    capsys.readouterr()
    assert cli.main(["--home", str(ws.home), *args]) == 0
    return json.loads(capsys.readouterr().out)


def _digest_ids(ws: Workspace, capsys: pytest.CaptureFixture[str]) -> list[int]:
    (ws.home / "config.yaml").write_text(
        (ws.home / "config.yaml").read_text() + "notify: {min_verdict: partial}\n")
    try:
        return [m["id"] for m in _json(ws, capsys, "digest", "--json")["matches"]]
    finally:
        text = (ws.home / "config.yaml").read_text()
        (ws.home / "config.yaml").write_text(text.replace("notify: {min_verdict: partial}\n",
                                                          ""))


def test_a_dismissed_match_is_neither_announced_nor_packed(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    staff = posting_id(home, "Staff Engineer")
    rescore(home)
    before = [m["id"] for m in _json(home, capsys, "matches", "--json")]
    assert staff in before and staff in _digest_ids(home, capsys)
    assert cli.main(["--home", str(home.home), "matches", "dismiss", str(staff),
                     "--reason", "level"]) == 0
    listed = [m["id"] for m in _json(home, capsys, "matches", "--json")]
    announced = _digest_ids(home, capsys)
    packed = [p["posting"] for p in _json(home, capsys, "prepare", "--json", "--top", "10")]
    assert staff not in listed and staff not in announced and staff not in packed
    assert sorted(announced) == sorted(listed) == sorted(packed)
    # docs/notify.md's word: the digest's new matches are the open matches "as
    # `jobtracker matches` counts them".
    docs = (Path(__file__).resolve().parents[2] / "docs" / "notify.md").read_text()
    assert "open matches (as `jobtracker matches` counts them" in docs


def test_a_job_applied_to_is_left_alone_by_prepare_and_the_digest(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    staff = posting_id(home, "Staff Engineer")
    rescore(home)
    assert cli.main(["--home", str(home.home), "status", str(staff), "interviewing"]) == 0
    listed = {m["id"]: m["status"] for m in _json(home, capsys, "matches", "--json")}
    assert listed[staff] == "interviewing", "matches still lists it, with its status"
    packed = [p["posting"] for p in _json(home, capsys, "prepare", "--json", "--top", "10")]
    announced = _digest_ids(home, capsys)
    assert staff not in packed and staff not in announced
    assert sorted(announced) == sorted(packed) == sorted(i for i in listed if i != staff)
