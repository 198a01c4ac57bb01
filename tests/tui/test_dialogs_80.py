"""Overlays and the tracker at 80×24: the help's frame drawn once, the note dialog
clear of the header line, and tracker rows under a header, their dates with a year."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from jobtracker import store
from jobtracker.runner import load_setup
from tests.tracker_seed import set_status
from tests.tui.fixtures import make_workspace, screen_text, seed_review, wait_until
from tui.app import JobtrackerApp
from tui.clock import FrozenClock
from tui.screens.applications import ApplicationsScreen, NoteInput
from tui.screens.help import HelpScreen

SIZE = (80, 24)
DOUBLED = ("╭╭", "╮╮", "╰╰", "╯╯", "││", "╰│", "│╯", "╭│", "│╮")


@pytest.fixture
def app(tmp_path: Path) -> JobtrackerApp:
    ws = make_workspace(tmp_path, None)
    seed_review(ws)

    async def seed() -> None:
        async with store.connect(ws.db) as conn, store.write(conn):
            await set_status(conn, 2, "applied", "2025-12-20T09:00:00Z")
    asyncio.run(seed())
    return JobtrackerApp(load_setup(ws), clock=FrozenClock())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_help_overlay_draws_its_frame_once(app: JobtrackerApp,
                                                     size: tuple[int, int]) -> None:
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.3)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause(0.2)
        text = screen_text(app)
        assert "Keys — Dashboard" in text
        doubled = [mark for mark in DOUBLED if mark in text]
        assert doubled == [], f"frames drawn side by side: {doubled}\n{text}"


async def open_tracker(pilot) -> ApplicationsScreen:
    await pilot.pause(0.3)
    await pilot.press("t")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ApplicationsScreen)
                     and bool(pilot.app.screen.rows))
    return pilot.app.screen


async def test_the_note_dialog_leaves_the_header_line_alone(app: JobtrackerApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await open_tracker(pilot)
        header = screen_text(app).splitlines()[0]
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, NoteInput))
        await pilot.pause(0.2)
        dialog = app.screen.query_one("#dialog")
        assert dialog.region.y > 0
        assert screen_text(app).splitlines()[0] == header


async def test_tracker_rows_have_a_header_and_dates_with_their_year(
        app: JobtrackerApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await open_tracker(pilot)
        await pilot.pause(0.2)
        lines = screen_text(app).splitlines()
        (head,) = [text for text in lines if "company" in text and "title" in text]
        for column in ("applied", "days", "last contact", "due"):
            assert column in head
        (bolt,) = [text for text in lines if "Bolt" in text]
        assert "2025-12-20" in bolt
