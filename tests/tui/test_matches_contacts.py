"""The matches screen names who the user knows at the company and the posting's
signals, at 80x24, as text (a contact's name is never markup)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from jobtracker.runner import load_setup
from tests.tui.fixtures import make_workspace, screen_text, seed_review, settled
from tui.app import JobtrackerApp
from tui.screens.matches import MatchesScreen


@pytest.fixture
def app(tmp_path: Path) -> JobtrackerApp:
    ws = make_workspace(tmp_path, None)
    seed_review(ws)
    with sqlite3.connect(ws.db) as conn:
        conn.execute("INSERT INTO boards (id, source, token, company, aggregator) "
                     "VALUES (2, 'feed', 'copies', '', 1)")
        conn.execute("UPDATE postings SET board_id = 2 WHERE id = 2")     # Bolt: a copy only
        conn.executemany(
            "INSERT INTO contacts (source, name, company, company_key, position, line, "
            "imported_at) VALUES ('linkedin', ?, ?, ?, ?, 5, '2026-11-30T00:00:00Z')",
            [("Dana [b]Lee[/b]", "Acme, Inc.", "acme", "Staff Engineer"),
             ("Sam Roe", "ACME", "acme", "Recruiter")])
    return JobtrackerApp(load_setup(ws))


async def test_the_detail_says_who_you_know_and_what_the_postings_say(
        app: JobtrackerApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")
        await settled(pilot)
        assert isinstance(app.screen, MatchesScreen)
        text = screen_text(app)
        # Rita's mail to the user is not read yet: she is no contact until it is.
        assert "you know 2 people at Acme (Dana [b]Lee[/b], Staff Engineer; Sam Roe," in text
        await pilot.press("j")
        await settled(pilot)
        text = screen_text(app)
        assert "signals: only on aggregators, apply page not the company's" in text
        assert "you know" not in text
