"""Scores: arithmetic over the judge's verdicts and a posting's own facts. No model.

A score is a weighted sum of parts, each a value in [0, 1] times its weight from
profile.yaml's `weights`:

    fit      the judge's verdict (strong 1, good 0.66, partial 0.33, poor 0)
    remote   1 when the board says remote, or the location says so
    location 1 when the location names one of profile.locations other than "remote"
    recency  halves every RECENCY_HALF_LIFE_DAYS since posted (else first seen)
    salary   0 when the board gives none; else 0.5 for naming one, plus up to 0.5
             by where its midpoint sits among the judged open postings in its currency

Every part is stored with its value, weight, points and a one-line basis, so a
score is always shown as exactly the sum it is (docs/scoring.md). Weights are not
part of any question the model is asked: changing them rescores, never re-asks.
Only judged postings are scored: without a verdict the biggest term is unknown,
and a score that silently treated it as 0 would rank every unjudged match last
for the wrong reason.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

import aiosqlite

from jobtracker import store
from jobtracker.config import Profile

# The verdict ladder, best first, and what each is worth. The judge's schema enum
# is built from this, so the two can never disagree.
FIT: dict[str, float] = {"strong": 1.0, "good": 0.66, "partial": 0.33, "poor": 0.0}
VERDICTS: tuple[str, ...] = tuple(FIT)

RECENCY_HALF_LIFE_DAYS = 14.0
PLACES = 4   # decimals kept in a stored part, so the stored parts sum to the stored score


def parse_time(text: str | None) -> datetime | None:
    """An ISO 8601 time as an aware UTC datetime; naive ones are taken as UTC."""
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _as_time(now: datetime | str) -> datetime:
    moment = parse_time(now) if isinstance(now, str) else now
    if moment is None:
        raise ValueError(f"not an ISO 8601 time: {now!r}")
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def salary_midpoint(low: float | None, high: float | None) -> float | None:
    """The middle of what the board gives; one bound alone stands for itself."""
    bounds = [v for v in (low, high) if v is not None and v > 0]
    return sum(bounds) / len(bounds) if bounds else None


# --- the parts: each returns (value in [0, 1], basis for people) -----------------------

def fit_part(verdict: str) -> tuple[float, str]:
    return FIT[verdict], f"verdict {verdict}"


def remote_part(remote: int | None, location: str) -> tuple[float, str]:
    if remote == 1:
        return 1.0, "board says remote"
    if remote is None and "remote" in location.lower():
        return 1.0, "location says remote"
    return 0.0, "not remote" if remote == 0 else "remote not stated"


def location_part(location: str, places: Iterable[str]) -> tuple[float, str]:
    wanted = [p for p in places if p != "remote"]
    if not wanted:
        return 0.0, "no places in profile.locations"
    lowered = location.lower()
    for place in wanted:
        if place in lowered:
            return 1.0, f"location names {place}"
    return 0.0, "location names none of profile.locations"


def recency_part(posted_at: str | None, first_seen: str | None,
                 now: datetime) -> tuple[float, str]:
    moment, what = parse_time(posted_at), "posted"
    if moment is None:
        moment, what = parse_time(first_seen), "first seen"
    if moment is None:
        return 0.0, "no date"
    days = max((now - moment).total_seconds() / 86400, 0.0)
    value = 0.5 ** (days / RECENCY_HALF_LIFE_DAYS)
    return value, f"{what} {days:.0f} day(s) ago"


def salary_part(low: float | None, high: float | None, currency: str | None,
                ranges: Mapping[str, tuple[float, float]]) -> tuple[float, str]:
    middle = salary_midpoint(low, high)
    if middle is None:
        return 0.0, "no salary given"
    code = (currency or "").upper()
    lo, hi = ranges.get(code, (middle, middle))
    position = 1.0 if hi <= lo else min(max((middle - lo) / (hi - lo), 0.0), 1.0)
    shown = f"{code} {middle:,.0f}".strip()
    return 0.5 + 0.5 * position, f"{shown} midpoint; judged range {lo:,.0f}-{hi:,.0f}"


def score_parts(row: Mapping[str, Any], profile: Profile, now: datetime,
                ranges: Mapping[str, tuple[float, float]]) -> dict[str, dict[str, Any]]:
    """Every part of one posting's score. `row` holds the ranking's verdict and the
    posting's remote, location, posted_at, first_seen, salary_min/max/currency."""
    found = {
        "fit": fit_part(row["verdict"]),
        "remote": remote_part(row["remote"], row["location"] or ""),
        "location": location_part(row["location"] or "", profile.locations),
        "recency": recency_part(row["posted_at"], row["first_seen"], now),
        "salary": salary_part(row["salary_min"], row["salary_max"], row["salary_currency"],
                              ranges),
    }
    parts = {}
    for name, (value, basis) in found.items():
        weight = float(profile.weights.get(name, 0.0))
        parts[name] = {"value": round(value, PLACES), "weight": weight,
                       "points": round(value * weight, PLACES), "basis": basis}
    return parts


def total(parts: Mapping[str, Mapping[str, Any]]) -> float:
    """The score is the sum of the parts' points, and nothing else."""
    return round(sum(part["points"] for part in parts.values()), PLACES)


# --- reading and writing ---------------------------------------------------------------

_JUDGED_OPEN = (
    "FROM postings AS p JOIN rankings AS r ON r.posting_id = p.id WHERE p.job_open = 1")


async def salary_ranges(conn: aiosqlite.Connection) -> dict[str, tuple[float, float]]:
    """Lowest and highest salary midpoint per currency among judged open postings."""
    rows = await conn.execute_fetchall(
        "SELECT p.salary_min, p.salary_max, upper(COALESCE(p.salary_currency, '')) AS code "
        f"{_JUDGED_OPEN} AND (p.salary_min > 0 OR p.salary_max > 0)")
    ranges: dict[str, tuple[float, float]] = {}
    for low, high, code in rows:
        middle = salary_midpoint(low, high)
        if middle is None:
            continue
        lo, hi = ranges.get(code, (middle, middle))
        ranges[code] = (min(lo, middle), max(hi, middle))
    return ranges


async def score_postings(conn: aiosqlite.Connection, profile: Profile,
                         now: datetime | str) -> int:
    """Score every judged open posting inside the caller's transaction; returns the count.

    All at once on purpose: the salary part places each posting among all the
    others, so scoring one alone would still read them all."""
    moment = _as_time(now)
    rows = await conn.execute_fetchall(
        "SELECT p.id, r.verdict, p.remote, p.location, p.posted_at, p.first_seen, "
        f"p.salary_min, p.salary_max, p.salary_currency {_JUDGED_OPEN}")
    ranges = await salary_ranges(conn)
    stamp = moment.isoformat().replace("+00:00", "Z")
    values = []
    for row in rows:
        parts = score_parts(row, profile, moment, ranges)
        values.append({"posting_id": row["id"], "score": total(parts),
                       "parts": json.dumps(parts, sort_keys=True), "scored_at": stamp})
    await store.upsert_many(conn, "scores", values, key=["posting_id"])
    return len(values)


async def rescore(conn: aiosqlite.Connection, profile: Profile, now: datetime | str) -> int:
    """Rescore every judged open posting in one transaction. Needs no model."""
    async with store.write(conn):
        return await score_postings(conn, profile, now)
