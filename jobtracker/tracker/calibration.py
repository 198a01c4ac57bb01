"""Calibration: the judge's verdicts beside what the user's applications became.

One entry per verdict: how many applications went out at that verdict, how many
heard back, how many reached an interview, and — from MIN_FOR_RATE applications up —
the interview rate (a rate from three applications says more than it knows, so
below that only the counts are given). The verdicts the user's own decisions
contradict are named: a `poor` or `partial` match that got an interview, a
`strong` or `good` one the user dismissed as the wrong role, stack or level.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

import aiosqlite

from jobtracker.config import Followup
from jobtracker.ranking.scoring import VERDICTS
from jobtracker.tracker.funnel import interviewed, rate, responded, summarize
from jobtracker.tracker.overview import Row, load_rows

MIN_FOR_RATE = 5
_LOW = ("partial", "poor")
_HIGH = ("strong", "good")
_WRONG_JOB = ("role", "stack", "level")    # dismissal reasons that say the verdict was wrong


async def dismissed_by_verdict(conn: aiosqlite.Connection) -> dict[str, list[dict[str, Any]]]:
    """Standing dismissals by the verdict the posting had when dismissed."""
    rows = await conn.execute_fetchall(
        "SELECT posting_id, verdict, reason FROM dismissals "
        "WHERE undismissed_at IS NULL AND verdict IS NOT NULL ORDER BY id")
    out: dict[str, list[dict[str, Any]]] = {}
    for posting_id, verdict, reason in rows:
        out.setdefault(verdict, []).append({"posting": posting_id, "reason": reason})
    return out


def calibration(rows: Sequence[Row], dismissed: dict[str, list[dict[str, Any]]]
                ) -> list[dict[str, Any]]:
    """One JSON-safe entry per verdict, best first (the `stats --json` `calibration`)."""
    out = []
    for verdict in VERDICTS:
        group = [r for r in rows if r.verdict == verdict and r.applied_at is not None]
        answered = sum(map(responded, group))
        interviews = [r for r in group if interviewed(r)]
        gone = dismissed.get(verdict, [])
        if verdict in _LOW:
            contradicted = [{"application": r.id, "posting": r.posting_id,
                             "outcome": "interview"} for r in interviews]
        else:
            contradicted = [{"posting": d["posting"], "outcome": f"dismissed: {d['reason']}"}
                            for d in gone if d["reason"] in _WRONG_JOB]
        out.append({
            "verdict": verdict, "applications": len(group), "responded": answered,
            "interviews": len(interviews),
            "interview_rate": rate(len(interviews), len(group))
            if len(group) >= MIN_FOR_RATE else None,
            "dismissed": len(gone), "contradicted": contradicted,
        })
    return out


def share(part: int, whole: int) -> str:
    """`3 of 12 (25%)` from MIN_FOR_RATE up, `1 of 3` below, `-` for none."""
    if not whole:
        return "-"
    if whole < MIN_FOR_RATE:
        return f"{part} of {whole}"
    return f"{part} of {whole} ({round(100 * part / whole)}%)"


def table(entries: Sequence[dict[str, Any]]) -> list[str]:
    """The calibration as plain lines for `stats` and the tracker screen."""
    lines = [f"  {'verdict':<8} {'applied':>7}  {'responded':<14} {'interviews':<14} "
             f"{'dismissed':>9}"]
    for e in entries:
        lines.append(f"  {e['verdict']:<8} {e['applications']:>7}  "
                     f"{share(e['responded'], e['applications']):<14} "
                     f"{share(e['interviews'], e['applications']):<14} {e['dismissed']:>9}")
    against = [(e["verdict"], c) for e in entries for c in e["contradicted"]]
    for verdict, item in against[:10]:
        lines.append(f"  contradicted: posting {item['posting']} was {verdict}, "
                     f"then {item['outcome']}")
    if len(against) > 10:
        lines.append(f"  … and {len(against) - 10} more contradicted (stats --json lists all)")
    return lines


async def stats(conn: aiosqlite.Connection, followup: Followup, today: date) -> dict[str, Any]:
    """The funnel of every application with its `calibration`: `jobtracker stats` and the
    Applications screen read this one object."""
    return await with_calibration(conn, await load_rows(conn, followup, today))


async def with_calibration(conn: aiosqlite.Connection, rows: list[Row]) -> dict[str, Any]:
    summary = summarize(rows)
    summary["calibration"] = calibration(rows, await dismissed_by_verdict(conn))
    return summary
