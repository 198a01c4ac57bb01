"""The funnel: stats with zero, one and many applications."""

from __future__ import annotations

import asyncio
import json

import pytest

from jobtracker.cli import main
from jobtracker.workspace import Workspace
from tests.tracker_seed import message, postings, seeded, set_status


def cli(capsys: pytest.CaptureFixture[str], ws: Workspace, *args: str) -> tuple[int, str, str]:
    code = main(["--home", str(ws.home), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_stats_with_zero_one_and_many(ws: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, ws, "stats", "--json")
    empty = json.loads(out)
    assert code == 0 and empty["applications"] == 0 and empty["response_rate"] is None
    assert empty["median_days_to_reply"] is None and empty["by_source"] == []

    async def one(conn) -> None:
        await postings(conn, (1, "Acme", "Engineer"))
        await set_status(conn, 1, "applied", "2026-10-01T00:00:00Z")
        await message(conn, "r", "2026-10-04T00:00:00Z", posting=1, state="interview_request")
    asyncio.run(seeded(ws.db, one))
    single = json.loads(cli(capsys, ws, "stats", "--json")[1])
    assert (single["applications"], single["responded"], single["response_rate"]) == (1, 1, 1.0)
    assert single["median_days_to_reply"] == 3.0
    assert single["by_source"] == [{"source": "greenhouse:acme", "applications": 1,
                                    "responded": 1, "response_rate": 1.0, "interviews": 0,
                                    "offers": 0}]
    text = cli(capsys, ws, "stats")[1]
    assert "responded    1 of 1\n" in text and "100%" not in text

    async def many(conn) -> None:
        await postings(conn, *((i, f"Co{i}", "Engineer") for i in range(2, 13)))
        for i in range(2, 13):
            await set_status(conn, i, "applied", "2026-10-01T00:00:00Z")
        await set_status(conn, 2, "interviewing", "2026-10-10T00:00:00Z")
        await set_status(conn, 2, "offer", "2026-10-20T00:00:00Z")
        await message(conn, "ack3", "2026-10-01T01:00:00Z", posting=3, state="acknowledgement")
        await message(conn, "rej4", "2026-10-08T00:00:00Z", posting=4, state="rejection")
    asyncio.run(seeded(ws.db, many))
    full = json.loads(cli(capsys, ws, "stats", "--json")[1])
    assert full["applications"] == 12 and full["by_status"]["applied"] == 11
    assert full["responded"] == 3          # 1 (mail), 2 (statuses), 4 (mail); 3's ack is not
    assert full["response_rate"] == 0.25
    assert (full["interviews"], full["offers"]) == (1, 1)
    assert full["median_days_to_reply"] == 5.0                 # 3 days and 7 days
    assert "responded    3 of 12 (25%)" in cli(capsys, ws, "stats")[1]
