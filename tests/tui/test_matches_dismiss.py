"""The matches screen's `d` (dismiss with a reason, or bring back), `D` and the why bars."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input

from jobtracker.runner import load_setup
from tests.tui.fixtures import make_workspace, screen_text, seed_review, wait_until
from tui.app import JobtrackerApp
from tui.screens.dismiss import DismissPicker
from tui.screens.matches import MatchesScreen, bar

SIZE = (100, 30)


@pytest.fixture
def app(tmp_path: Path) -> JobtrackerApp:
    ws = make_workspace(tmp_path, None)
    seed_review(ws)
    return JobtrackerApp(load_setup(ws))


def dismissals(app: JobtrackerApp) -> list[tuple[int, str, str, str | None]]:
    with sqlite3.connect(app.setup.ws.db) as conn:
        return conn.execute("SELECT posting_id, reason, note, undismissed_at FROM dismissals"
                            " ORDER BY id").fetchall()


def listed(app: JobtrackerApp) -> list[int]:
    screen = app.screen
    return [m.id for m in screen.matches] if isinstance(screen, MatchesScreen) else []


async def test_d_dismisses_with_a_reason_and_a_note_and_D_lists_the_dismissed(
        app: JobtrackerApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("m")
        await wait_until(pilot, lambda: listed(app) == [1, 2, 3])
        await pilot.press("j", "d")                         # Bolt
        await wait_until(pilot, lambda: isinstance(app.screen, DismissPicker))
        assert "Not for me: Bolt - Platform Engineer" in screen_text(app)
        app.screen.query_one(Input).value = "too far \x1b[31mred"
        await pilot.press("j", "j", "enter")                 # level, location, salary
        await wait_until(pilot, lambda: listed(app) == [1, 3])
        assert dismissals(app) == [(2, "salary", "too far \x1b[31mred", None)]
        assert "dismissed Bolt - Platform Engineer (salary)" in screen_text(app)
        assert app.screen.current.id == 3, "the cursor moves on to the next match"
        await pilot.press("D")
        await wait_until(pilot, lambda: listed(app) == [2])
        await wait_until(pilot, lambda: "dismissed: salary" in screen_text(app))
        text = screen_text(app)
        assert "1 dismissed; d brings one back" in text
        # The list says what it is, its `d` what it does there, and the decision is shown
        # back: the reason and the note as one plain line.
        assert "Dismissed, best first" in text and "Matches, best first" not in text
        assert "d Bring back" in text and "d Dismiss" not in text
        assert "dismissed: salary — too far red" in text
        await pilot.press("d")                               # bring it back
        await wait_until(pilot, lambda: listed(app) == [])
        assert dismissals(app)[0][3] is not None
        await pilot.press("D")
        await wait_until(pilot, lambda: listed(app) == [1, 2, 3])
        await wait_until(pilot, lambda: "d Dismiss" in screen_text(app))
        assert "Matches, best first" in screen_text(app)


async def test_escape_in_the_reason_picker_dismisses_nothing(app: JobtrackerApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("m")
        await wait_until(pilot, lambda: listed(app) == [1, 2, 3])
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, DismissPicker))
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, MatchesScreen))
        assert dismissals(app) == []
        assert app.screen.query_one(DataTable).row_count == 3


async def test_the_detail_draws_each_part_of_the_score_as_a_bar(app: JobtrackerApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("m")
        await wait_until(pilot, lambda: "verdict strong" in screen_text(app))
        assert "fit    ██████████ 1.00 × 1.0 = 1.00 verdict strong" in screen_text(app)


async def test_every_bar_is_on_one_scale_and_shows_its_weight(app: JobtrackerApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("m")
        await wait_until(pilot, lambda: "verdict strong" in screen_text(app))
        # Acme's fit is 1.00 of its weight 1.0: the whole bar.
        assert "fit    ██████████ 1.00 × 1.0 = 1.00 verdict strong" in screen_text(app)
        # Remote: 0.3 of the largest weight 1.0, three cells, for every posting.
        assert "remote ███        1.00 × 0.3 = 0.30" in screen_text(app)
        await pilot.press("j")                 # Bolt: a good fit, 0.66 points
        await wait_until(pilot, lambda: "verdict good" in screen_text(app))
        assert "fit    ███████░░░ 1.00 × 1.0 = 0.66 verdict good" in screen_text(app)
        assert "remote ███        1.00 × 0.3 = 0.30" in screen_text(app)


@pytest.mark.parametrize(("points", "weight", "scale", "drawn"), [
    (1.0, 1.0, 1.0, "██████████"), (0.5, 1.0, 1.0, "█████░░░░░"),
    (0.0, 1.0, 1.0, "░░░░░░░░░░"), (0.001, 1.0, 1.0, "█░░░░░░░░░"),
    (0.3, 0.3, 1.0, "███       "), (0.66, 1.0, 1.0, "███████░░░"),
    (-0.3, 0.6, 1.2, "███░░     "), (0.0, 0.0, 0.0, "          "),
    (0.2, 0.5, 2.0, "█░░       "),
])
def test_a_bar_is_its_points_within_its_weight_on_one_scale(
        points: float, weight: float, scale: float, drawn: str) -> None:
    assert bar(points, weight, scale).plain == drawn
