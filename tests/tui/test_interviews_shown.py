"""Upcoming interviews in the TUI: the dashboard's status line says "interview today
14:00 Acme", the Applications screen lists them (the company's text literal)."""

from __future__ import annotations

from datetime import datetime, timedelta
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


@pytest.fixture
def soon() -> datetime:
    now = datetime.now().astimezone().replace(second=0, microsecond=0)
    start = now + timedelta(minutes=2)
    if start.date() != now.date():
        pytest.skip("too close to midnight for an interview later today")
    return start


async def test_the_dashboard_and_the_applications_screen_show_todays_interview(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, soon: datetime) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    ws = make_workspace(tmp_path, None)
    seed_review(ws)
    await _book(ws.db, soon)
    app = JobtrackerApp(load_setup(ws), clock=FrozenClock())
    expected = f"interview today {soon:%H:%M} Acme"
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: expected in screen_text(app))
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, ApplicationsScreen)
                         and "Upcoming interviews" in screen_text(app))
        text: Any = screen_text(app)
    assert f"next interview today {soon:%H:%M} Acme" in text
