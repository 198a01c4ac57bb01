"""The matches screen at 80×24, as a new user meets it: every column on screen with
no sideways scroll, titles that tell similar jobs apart, the posting id `status`
takes, `enter` opening the posting, and the status picker showing every status
from the current one."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, OptionList

from jobtracker.runner import load_setup
from tests.tui.fixtures import _connect, _posting, _ranked, make_workspace, seed_review, wait_until
from tui.app import JobtrackerApp
from tui.screens.matches import MatchesScreen, PostingScreen, StatusPicker, distinct_titles

SMALL = (80, 24)
# Three jobs whose titles begin alike, at companies with long names (as in the demo).
SIMILAR = ((11, "Northwind Robotics", "Senior Backend Engineer, Python"),
           (12, "Northwind Robotics", "Senior Backend Engineer, Payments Platform"),
           (13, "Brightline Health Systems", "Senior Backend Engineer (Energy Markets)"))


@pytest.fixture
def app(tmp_path: Path) -> JobtrackerApp:
    ws = make_workspace(tmp_path, None)
    seed_review(ws)
    prose = ws.profile().prose_hash
    with _connect(ws.db) as conn:
        for pid, company, title in SIMILAR:
            _posting(conn, pid, company, title)
            conn.execute("UPDATE postings SET location = 'Remote (EU), Berlin' WHERE id = ?",
                         (pid,))
            _ranked(conn, pid, "strong", 1.4, ["backend"], prose)
        conn.execute("INSERT INTO applications (posting_id, company, status, created_at, "
                     "updated_at) VALUES (12, 'Northwind Robotics', 'interviewing', "
                     "'2026-11-20T00:00:00Z', '2026-11-20T00:00:00Z')")
    return JobtrackerApp(load_setup(ws))


async def open_matches(pilot) -> MatchesScreen:
    await pilot.press("m")
    await wait_until(pilot, lambda: bool(getattr(pilot.app.screen, "matches", None)))
    return pilot.app.screen


async def test_at_80_columns_nothing_scrolls_sideways_and_titles_differ(
        app: JobtrackerApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_matches(pilot)
        table = screen.query_one(DataTable)
        assert table.max_scroll_x == 0, "every column fits the screen"
        assert [str(c.label) for c in table.columns.values()] == [
            "id", "score", "verdict", "status", "company", "title", "location"]
        rows = {int(table.get_row_at(i)[0].plain): table.get_row_at(i)
                for i in range(table.row_count)}
        assert set(rows) == {1, 2, 3, 11, 12, 13}, "the id column holds the posting ids"
        shown = [rows[pid][5].plain for pid, _, _ in SIMILAR]
        assert len(set(shown)) == 3, f"three jobs, three titles: {shown}"
        assert rows[12][3].plain == "interviewing"


def test_distinct_titles_keep_the_end_where_the_beginnings_collide() -> None:
    titles = ["Senior Backend Engineer, Platform Reliability",
              "Senior Backend Engineer, Platform Payments", "Staff Engineer"]
    shown = distinct_titles(titles, 20)
    assert len(set(shown)) == 3 and all(len(title) <= 20 for title in shown)
    assert shown[0].endswith("Reliability") and shown[1].endswith("Payments")
    assert shown[2] == "Staff Engineer"


async def test_enter_opens_the_posting_as_the_help_says(app: JobtrackerApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        await open_matches(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, PostingScreen))


async def test_the_picker_opens_on_the_current_status_with_every_status_in_view(
        app: JobtrackerApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_matches(pilot)
        table = screen.query_one(DataTable)
        row = next(i for i in range(table.row_count) if table.get_row_at(i)[0].plain == "12")
        table.move_cursor(row=row, animate=False)
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, StatusPicker))
        await pilot.pause(0.1)
        options = app.screen.query_one(OptionList)
        assert options.get_option_at_index(options.highlighted).id == "interviewing"
        assert options.max_scroll_y == 0, "ghosted is not below the fold"
        assert options.option_count == 8
