"""The funnel: where applications stand and what answered, overall and by source
(which board or feed the posting came from), by the judge's verdict, and by resume
(tailored by accepted edits, or the master).

An application **responded** when an employer replied (a linked message from the day
it went out, acknowledgements aside) or it reached a status only a reply brings
(screening, interviewing, offer, rejected), so replies outside the mail folder count.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from jobtracker.config import STATUSES
from jobtracker.tracker.overview import Row

if TYPE_CHECKING:
    pass


def responded(row: Row) -> bool:
    return bool(row.first_reply_at or row.screened or row.interviewed or row.offered
                or row.status in ("screening", "interviewing", "offer", "rejected"))


def interviewed(row: Row) -> bool:
    return row.interviewed or row.offered or row.status in ("interviewing", "offer")


def offered(row: Row) -> bool:
    return row.offered or row.status == "offer"


def rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _days(start: str, end: str) -> float | None:
    moment = datetime.fromisoformat
    try:
        return (moment(end.replace("Z", "+00:00")) -
                moment(start.replace("Z", "+00:00"))).total_seconds() / 86400
    except (ValueError, TypeError):   # a stamp that is no time: that wait is not counted
        return None


def group(rows: list[Row]) -> dict[str, Any]:
    """Counts and rates for a set of applications."""
    answered = sum(map(responded, rows))
    return {"applications": len(rows), "responded": answered,
            "response_rate": rate(answered, len(rows)),
            "interviews": sum(map(interviewed, rows)), "offers": sum(map(offered, rows))}


def _by(rows: Iterable[Row], key: Callable[[Row], str | None], name: str
        ) -> list[dict[str, Any]]:
    groups: dict[str | None, list[Row]] = {}
    for row in rows:
        groups.setdefault(key(row), []).append(row)
    out = [{name: value, **group(members)} for value, members in groups.items()]
    return sorted(out, key=lambda g: (-g["applications"], str(g[name])))


def summarize(rows: list[Row]) -> dict[str, Any]:
    """The funnel of `rows` as a JSON-safe object."""
    waits = [wait for r in rows
             if r.applied_at and r.first_reply_at and r.first_reply_at >= r.applied_at
             and (wait := _days(r.applied_at, r.first_reply_at)) is not None]
    median = statistics.median(waits) if waits else None
    return {
        **group(rows),
        "by_status": {s: sum(r.status == s for r in rows) for s in STATUSES},
        "sent": sum(r.applied_at is not None for r in rows),
        "due": sum(r.due for r in rows),
        "median_days_to_reply": None if median is None else round(median, 1),
        "by_source": _by(rows, lambda r: r.source, "source"),
        "by_verdict": _by(rows, lambda r: r.verdict, "verdict"),
        "by_resume": _by(rows, lambda r: "tailored" if r.tailored else "master", "resume"),
    }


# --- for people -------------------------------------------------------------------

SMALL = 10   # below this many, a rate says more than it knows: counts only


def counted(part: int, whole: int) -> str:
    """`3 of 12 (25%)`; `1 of 1` while the whole is small; `none yet` for nothing."""
    if not whole:
        return "none yet"
    if whole < SMALL:
        return f"{part} of {whole}"
    return f"{part} of {whole} ({round(100 * part / whole)}%)"


def bars(summary: dict[str, Any], width: int = 30) -> list[tuple[str, str, int]]:
    """The funnel as (label, bar, count) lines: applied, responded, interviews,
    offers; bars scaled to the widest, a non-zero count always gets one block."""
    steps = [("applied", summary["sent"]), ("responded", summary["responded"]),
             ("interviews", summary["interviews"]), ("offers", summary["offers"])]
    top = max((n for _, n in steps), default=0)
    return [(label, "█" * (max(1, round(width * n / top)) if n else 0), n)
            for label, n in steps]
