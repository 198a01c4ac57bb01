"""The matches screen: best first, why, the posting's text, and setting a status."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable

from jobtracker.runner import load_setup
from tests.tui.fixtures import (
    application_status,
    make_workspace,
    screen_text,
    seed_review,
    settled,
    wait_until,
)
from tui.app import JobtrackerApp
from tui.screens.matches import MatchesScreen, PostingScreen, StatusPicker

SIZE = (100, 30)


@pytest.fixture
def app(tmp_path: Path) -> JobtrackerApp:
    ws = make_workspace(tmp_path, None)
    seed_review(ws)
    return JobtrackerApp(load_setup(ws))


async def test_m_lists_scored_matches_best_first_with_their_parts(app: JobtrackerApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("m")
        await settled(pilot)
        screen = app.screen
        assert isinstance(screen, MatchesScreen)
        assert [m.id for m in screen.matches] == [1, 2, 3]
        assert screen.query_one(DataTable).row_count == 3
        text = screen_text(app)
        assert "3 scored" in text
        assert "fit    ██████████ 1.00 × 1.0 = 1.00 verdict strong" in text
        assert "reasons: Python backend; staff scope" in text


async def test_s_sets_the_status_and_o_opens_the_posting(app: JobtrackerApp) -> None:
    ws = app.setup.ws
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("m")
        await settled(pilot)
        await pilot.press("j", "s")          # Bolt: no application yet
        await settled(pilot)
        assert isinstance(app.screen, StatusPicker)
        await pilot.press("j", "enter")      # saved -> applied
        await settled(pilot)
        assert application_status(ws, 2) == "applied"
        text = screen_text(app)
        assert "Bolt - Platform Engineer: applied (was no application)" in text
        assert isinstance(app.screen, MatchesScreen)
        assert app.screen.current.id == 2, "the cursor stays on the posting"
        await pilot.press("s", "escape")     # escape changes nothing
        await settled(pilot)
        assert application_status(ws, 2) == "applied"
        await pilot.press("o")
        await settled(pilot)
        assert isinstance(app.screen, PostingScreen)
        assert "Python, SQL, on-call." in screen_text(app)
        await pilot.press("escape", "escape")
        await settled(pilot)
        assert type(app.screen).__name__ == "DashboardScreen"


def test_a_regrouped_match_says_reposted_and_where_else_it_is_listed() -> None:
    """The table's title keeps `(reposted DATE)` whole (the title gives way), and the
    detail names the other open postings' pages, literally."""
    from rich.console import Console

    from jobtracker.ranking.matches import Match
    from tui.screens.matches import match_detail, title_cell

    match = Match(id=1, score=0.9, verdict="good", company="Acme", title="X" * 80,
                  location="Berlin", url="https://boards.example/12", status="applied",
                  stale=False, parts={}, also_on=["https://agg.example/[b]901[/b]"],
                  reposted="2026-09-05")
    cell = title_cell(match, 48)
    assert cell.plain.endswith(" (reposted 2026-09-05)") and cell.cell_len <= 48
    assert title_cell(Match(**{**match.__dict__, "reposted": None}), 48).plain == "X" * 47 + "…"
    narrow = title_cell(match, 20)      # the date is left to the detail pane
    assert narrow.plain == "XXXXXXXX… (reposted)" and narrow.cell_len == 20
    console = Console(width=100, record=True, color_system=None)
    console.print(match_detail(match, None))
    shown = console.export_text()
    assert "reposted 2026-09-05" in shown
    assert "also on https://agg.example/[b]901[/b]" in shown


async def test_the_title_takes_the_width_the_other_columns_leave(app: JobtrackerApp) -> None:
    """No row runs past a 100-column screen (the title gives way), and on a wider
    screen the same title is shown whole, laid out again as the terminal resizes."""
    import sqlite3

    long_title = "Senior Backend Engineer, Payments Ledger, Settlement and Reconciliation Team"
    with sqlite3.connect(app.setup.ws.db) as conn:
        conn.execute("UPDATE postings SET title = ? WHERE id = 1", (long_title,))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("m")
        await wait_until(pilot, lambda: bool(getattr(app.screen, "matches", None)))
        table = app.screen.query_one(DataTable)
        assert table.virtual_size.width <= table.size.width
        assert table.get_row_at(0)[5].plain.endswith("…")
        await pilot.resize_terminal(160, 30)
        await settled(pilot)
        assert table.get_row_at(0)[5].plain == long_title
        assert app.screen.current.id == 1, "the cursor stays on its match"
        await pilot.resize_terminal(*SIZE)
        await settled(pilot)
        assert table.virtual_size.width <= table.size.width
