"""Scoring: arithmetic over verdicts and a posting's facts, weighted by profile.yaml."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from jobtracker import store
from jobtracker.config import DEFAULT_WEIGHTS, Config, Profile
from jobtracker.ranking import scoring
from jobtracker.tasks import Context
from jobtracker.tasks.judge import VERDICTS, JudgeTask

NOW = "2026-09-01T00:00:00Z"
NOW_DT = datetime(2026, 9, 1, tzinfo=UTC)
PROFILE = Profile(prose="Senior Python engineer.", levels=("senior",),
                  locations=("remote", "berlin"), exists=True)
TASK = JudgeTask()


def row(**fields: Any) -> dict[str, Any]:
    return {"verdict": "good", "remote": None, "location": "", "posted_at": None,
            "first_seen": NOW, "salary_min": None, "salary_max": None,
            "salary_currency": None, **fields}


@pytest.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with store.connect(tmp_path / "db.sqlite") as connection:
        await connection.execute("INSERT INTO boards (id, source, token) VALUES (1, 'lever', 'a')")
        yield connection


async def add_posting(conn: aiosqlite.Connection, pid: int, **fields: Any) -> None:
    values = {"title": "Senior Engineer", "location": "Berlin", "remote": 0,
              "description": f"Posting {pid}: Python.", "title_level": "senior",
              "first_seen": "2026-08-25T00:00:00Z", "posted_at": None, "closed_at": None,
              "salary_min": None, "salary_max": None, "salary_currency": None, **fields}
    await conn.execute(
        f"INSERT INTO postings (id, board_id, external_id, last_seen, {', '.join(values)}) "
        f"VALUES (?, 1, ?, ?, {', '.join('?' for _ in values)})",
        (pid, f"x{pid}", NOW, *values.values()))


async def judge_all(conn: aiosqlite.Connection, profile: Profile, verdict: str = "good") -> None:
    ctx = Context(home=Path("/nonexistent"), config=Config(), profile=profile, now=NOW)
    for unit in await TASK.pending(conn, ctx):
        answer = {"verdict": verdict, "reasons": ["fits"], "meets": [], "misses": []}
        async with store.write(conn):
            await TASK.apply(conn, unit, TASK.parse(unit, answer, ctx), ctx, "m")
    await scoring.rescore(conn, profile, NOW)


async def scores(conn: aiosqlite.Connection) -> dict[int, tuple[float, dict[str, Any]]]:
    rows = await conn.execute_fetchall("SELECT posting_id, score, parts FROM scores")
    return {r[0]: (r[1], json.loads(r[2])) for r in rows}


# --- the parts -------------------------------------------------------------------------

def test_fit_ladder_matches_the_judge_verdicts_best_first() -> None:
    assert tuple(scoring.FIT) == VERDICTS
    values = [scoring.FIT[v] for v in VERDICTS]
    assert values == sorted(values, reverse=True)
    assert (values[0], values[-1]) == (1.0, 0.0)


def test_parts_sum_to_the_score() -> None:
    ranges = {"EUR": (60_000.0, 120_000.0)}
    for fields in (row(), row(verdict="strong", remote=1, location="Berlin"),
                   row(verdict="poor", posted_at="2026-07-01T09:30:00+02:00",
                       salary_min=70_000, salary_max=90_000, salary_currency="eur")):
        parts = scoring.score_parts(fields, PROFILE, NOW_DT, ranges)
        assert set(parts) == {"fit", "remote", "location", "recency", "salary"}
        for part in parts.values():
            assert part["points"] == round(part["value"] * part["weight"], 4)
            assert isinstance(part["basis"], str) and part["basis"]
        assert scoring.total(parts) == pytest.approx(sum(p["points"] for p in parts.values()))


def test_remote_and_location_parts() -> None:
    assert scoring.remote_part(1, "Paris")[0] == 1.0
    assert scoring.remote_part(None, "Remote - EU")[0] == 1.0
    assert scoring.remote_part(0, "Remote - EU")[0] == 0.0   # the board's own flag wins
    assert scoring.location_part("Berlin, DE", ("remote", "berlin"))[0] == 1.0
    assert scoring.location_part("Remote", ("remote", "berlin"))[0] == 0.0
    assert scoring.location_part("Berlin", ("remote",)) == (0.0, "no places in profile.locations")


def test_recency_halves_every_two_weeks() -> None:
    assert scoring.recency_part("2026-09-01T00:00:00Z", None, NOW_DT)[0] == 1.0
    assert scoring.recency_part("2026-08-18T00:00:00Z", None, NOW_DT)[0] == pytest.approx(0.5)
    assert scoring.recency_part(None, "2026-08-04T00:00:00", NOW_DT)[0] == pytest.approx(0.25)
    assert scoring.recency_part("2026-10-01", None, NOW_DT)[0] == 1.0     # future: fresh
    assert scoring.recency_part("not a date", None, NOW_DT) == (0.0, "no date")


def test_salary_is_placed_within_its_own_currency() -> None:
    ranges = {"USD": (100_000.0, 200_000.0), "EUR": (50_000.0, 50_000.0)}
    assert scoring.salary_part(None, None, None, ranges) == (0.0, "no salary given")
    assert scoring.salary_part(100_000, None, "USD", ranges)[0] == 0.5    # lowest named
    assert scoring.salary_part(140_000, 160_000, "usd", ranges)[0] == 0.75
    assert scoring.salary_part(None, 200_000, "USD", ranges)[0] == 1.0
    assert scoring.salary_part(50_000, None, "EUR", ranges)[0] == 1.0     # alone in EUR


# --- reading and writing ---------------------------------------------------------------

async def test_only_judged_open_postings_are_scored(conn: aiosqlite.Connection) -> None:
    await add_posting(conn, 1)
    await add_posting(conn, 2)
    await judge_all(conn, PROFILE)
    await add_posting(conn, 3)                                     # a match, not judged yet
    await conn.execute("UPDATE postings SET closed_at = ? WHERE id = 2", (NOW,))
    await conn.execute("DELETE FROM scores")
    assert await scoring.rescore(conn, PROFILE, NOW) == 1     # 1 only: 2 closed, 3 unjudged
    assert set(await scores(conn)) == {1}


async def test_weights_change_scores_and_never_re_ask(conn: aiosqlite.Connection) -> None:
    await add_posting(conn, 1, remote=1, location="Remote")
    await add_posting(conn, 2, location="Berlin", posted_at="2026-08-31T00:00:00Z")
    office_first = replace(PROFILE, weights={**DEFAULT_WEIGHTS, "remote": 0.0})
    await judge_all(conn, office_first, verdict="strong")
    before = await scores(conn)
    assert before[2][0] > before[1][0]          # remote weighs nothing: Berlin, fresher, wins

    remote_first = replace(PROFILE, weights={**DEFAULT_WEIGHTS, "remote": 2.0})
    assert await scoring.rescore(conn, remote_first, NOW) == 2
    after = await scores(conn)
    assert after[1][0] > after[2][0]            # now the remote one leads
    for score, parts in after.values():
        assert score == pytest.approx(sum(p["points"] for p in parts.values()))
        assert parts["remote"]["weight"] == 2.0

    ctx = Context(home=Path("/nonexistent"), config=Config(), profile=remote_first, now=NOW)
    assert await TASK.pending(conn, ctx) == []
    assert await TASK.count(conn, ctx) == 0
    rankings = await conn.execute_fetchall("SELECT ranked_at FROM rankings")
    assert [r[0] for r in rankings] == [NOW, NOW]   # no verdict was touched


async def test_rescore_is_one_transaction(conn: aiosqlite.Connection) -> None:
    await add_posting(conn, 1)
    await judge_all(conn, PROFILE)
    await conn.execute("UPDATE rankings SET verdict = 'poor'")
    broken = replace(PROFILE, weights={**DEFAULT_WEIGHTS, "fit": "heavy"})  # type: ignore[dict-item]
    with pytest.raises((TypeError, ValueError)):
        await scoring.rescore(conn, broken, NOW)
    ((_score, parts),) = (await scores(conn)).values()
    assert parts["fit"]["basis"] == "verdict good"   # the old score stands, whole
    assert not conn.in_transaction


async def test_salary_ranges_come_from_judged_open_postings(conn: aiosqlite.Connection) -> None:
    await add_posting(conn, 1, salary_min=100_000, salary_max=120_000, salary_currency="USD")
    await add_posting(conn, 2, salary_min=150_000, salary_currency="usd")
    await add_posting(conn, 3, salary_min=90_000, salary_currency="EUR")
    await judge_all(conn, PROFILE)
    await add_posting(conn, 4, salary_min=500_000, salary_currency="USD")   # not judged
    ranges = await scoring.salary_ranges(conn)
    assert ranges == {"USD": (110_000.0, 150_000.0), "EUR": (90_000.0, 90_000.0)}
    await scoring.rescore(conn, PROFILE, NOW)
    found = await scores(conn)
    assert found[1][1]["salary"]["value"] == 0.5
    assert found[2][1]["salary"]["value"] == 1.0
    assert found[3][1]["salary"]["value"] == 1.0
