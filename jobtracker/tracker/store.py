"""The tracker's reads and writes for a screen: each opens its own short-lived
connection (an interactive view must never hold one), and returns plain data."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from jobtracker import applications, store
from jobtracker.applications import Change
from jobtracker.clock import now, now_iso
from jobtracker.config import Followup
from jobtracker.interviews.store import Interview, upcoming
from jobtracker.tracker.calibration import with_calibration
from jobtracker.tracker.overview import Row, load_rows
from jobtracker.tracker.timeline import Timeline, load_timeline


@dataclass(frozen=True)
class Overview:
    rows: list[Row]
    summary: dict[str, Any]
    interviews: list[Interview] = field(default_factory=list)   # upcoming, soonest first


async def overview(db: Path, followup: Followup, today: date,
                   at: datetime | None = None) -> Overview:
    """Every application and the funnel, from one read; the interviews upcoming from
    `at` (the app's clock; now when not given)."""
    async with store.connect(db) as conn:
        rows = await load_rows(conn, followup, today)
        return Overview(rows, await with_calibration(conn, rows),
                        await upcoming(conn, at or now()))


async def timeline(db: Path, application_id: int, followup: Followup,
                   today: date) -> Timeline | None:
    async with store.connect(db) as conn:
        return await load_timeline(conn, application_id, followup, today)


async def set_status(db: Path, application_id: int, status: str) -> Change:
    """A status picked by hand for this application."""
    async with store.connect(db) as conn, store.write(conn):
        return await applications.set_status(conn, status, now_iso(), applications.HAND,
                                             application_id=application_id)


async def add_note(db: Path, application_id: int, text: str) -> None:
    async with store.connect(db) as conn, store.write(conn):
        await applications.add_note(conn, application_id, text, now_iso())
