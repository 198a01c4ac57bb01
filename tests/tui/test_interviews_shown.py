"""Upcoming interviews in the TUI: the dashboard's status line says "interview today
14:00 Acme", the Applications screen lists them (the company's text literal), both in
the user's `timezone:` (else the system's) on the app's one clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from jobtracker import store
from jobtracker.interviews import store as interviews
from jobtracker.runner import load_setup
from tests.tui.fixtures import make_workspace, screen_text, seed_review, wait_until
from tui.app import JobtrackerApp
from tui.clock import FrozenClock
from tui.screens.applications import ApplicationsScreen

SIZE = (100, 30)


async def _book(db: Path, start: datetime) -> None:
    async with store.connect(db) as conn, store.write(conn):
        await interviews.insert(
            conn, application_id=1, uid="u1@test", start=start.isoformat(),
            end=(start + timedelta(hours=1)).isoformat(), timezone=None,
            where="https://meet.example/x", quote="", proposal_id=None, message_key=None,
            now="2026-11-20T10:00:00Z")


# The app's wall clock, held still: noon on a Thursday, in the system's zone.
NOON = datetime(2026, 12, 3, 12, 0, tzinfo=UTC).astimezone()


async def test_the_dashboard_and_the_applications_screen_show_todays_interview(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    ws = make_workspace(tmp_path, None)
    seed_review(ws)
    soon = NOON + timedelta(hours=2)
    await _book(ws.db, soon)
    app = JobtrackerApp(load_setup(ws), clock=FrozenClock(moment=NOON))
    expected = f"interview today {soon:%H:%M} Acme"
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: expected in screen_text(app))
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, ApplicationsScreen)
                         and "Upcoming interviews" in screen_text(app))
        text: Any = screen_text(app)
    assert f"next interview today {soon:%H:%M} Acme" in text


async def test_times_are_the_users_zone_not_the_servers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a server kept in UTC, an interview at 16:30 in Los Angeles (00:30 UTC the next
    day) is today's, at 16:30, for a user whose `timezone:` is America/Los_Angeles: on
    the dashboard's line and on the Applications screen, as `jobtracker interviews`
    and the digest say it."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("TZ", "UTC")
    ws = make_workspace(tmp_path, None)
    with (ws.home / "config.yaml").open("a") as config:
        config.write("timezone: America/Los_Angeles\n")
    seed_review(ws)
    start = datetime.fromisoformat("2026-12-03T16:30:00-08:00")
    await _book(ws.db, start)
    morning = datetime(2026, 12, 3, 18, 0, tzinfo=UTC)     # 10:00 in Los Angeles
    app = JobtrackerApp(load_setup(ws), clock=FrozenClock(moment=morning))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: "interview today 16:30 Acme" in screen_text(app))
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, ApplicationsScreen)
                         and "Upcoming interviews" in screen_text(app))
        text: Any = screen_text(app)
    assert "next interview today 16:30 Acme" in text
    assert "00:30" not in text and "tomorrow" not in text
