"""A `source` proposal (a board found for an alert company) opens in the review as its
kind shows it, and accepting it there appends the board to sources.yaml."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from jobtracker.runner import load_setup
from tests.tui.fixtures import make_workspace, screen_text, wait_until
from tui.app import JobtrackerApp
from tui.screens.review import ReviewScreen

SUMMARY = "add greenhouse:acme — it lists 'Senior Backend Engineer', seen in 3 LinkedIn alerts"


async def test_a_source_proposal_shows_its_board_and_diff_and_accepting_adds_it(
        tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, None)
    (ws.home / "sources.yaml").write_text("boards:\n  - {ats: lever, token: plaid}\n")
    payload = {"board": {"ats": "greenhouse", "token": "acme", "company": "Acme", "url": None},
               "title": "Senior Backend Engineer", "alerts": 3, "sender": "LinkedIn",
               "company": "Acme", "titles_listed": 1}
    with sqlite3.connect(ws.db) as conn:
        conn.execute(
            "INSERT INTO proposals (id, kind, task, unit_key, payload, summary, created_at) "
            "VALUES (1, 'source', 'alerts', 'source:acme', ?, ?, '2026-12-01T00:00:00Z')",
            (json.dumps(payload), SUMMARY))
    app = JobtrackerApp(load_setup(ws))
    async with app.run_test(size=(110, 30)) as pilot:
        await wait_until(pilot, lambda: "1 proposal waiting" in screen_text(app))
        await pilot.press("p")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen)
                         and app.screen.current is not None)
        text = screen_text(app)
        assert "● source" in text and "add greenhouse:acme" in text
        assert "+  - {ats: greenhouse, token: acme, company: Acme}" in text
        assert "3 LinkedIn alert mail(s) named this job" in text
        await pilot.press("a")
        await wait_until(pilot, lambda: "✓ source" in screen_text(app))
    assert (ws.home / "sources.yaml").read_text() == (
        "boards:\n  - {ats: lever, token: plaid}\n"
        "  - {ats: greenhouse, token: acme, company: Acme}\n")
