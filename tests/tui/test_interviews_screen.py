"""`i` on the dashboard: the interviews to come, soonest first, in the user's zone (the
application's id first), each in full below; past and cancelled ones are not listed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from jobtracker import store
from jobtracker.interviews import store as interviews
from jobtracker.runner import load_setup
from tests.tui.fixtures import HOSTILE_TITLE, make_workspace, screen_text, seed_review, wait_until
from tui.app import JobtrackerApp
from tui.clock import FrozenClock
from tui.screens.help import HelpScreen
from tui.screens.interviews import InterviewsScreen

QUOTE = "Would Monday 4 March at 14:00 CET work for a call?"


async def _book(db: Path, uid: str, start: str, end: str, zone: str | None,
                where: str = "https://meet.example/x", application: int = 1) -> int:
    async with store.connect(db) as conn, store.write(conn):
        return await interviews.insert(
            conn, application_id=application, uid=uid, start=start, end=end, timezone=zone,
            where=where, quote=QUOTE, proposal_id=None, message_key=None,
            now="2026-11-20T10:00:00Z")


@pytest.fixture
def app(tmp_path: Path) -> JobtrackerApp:
    ws = make_workspace(tmp_path, None)
    seed_review(ws)
    with (ws.home / "config.yaml").open("a", encoding="utf-8") as out:
        out.write("timezone: America/Los_Angeles\n")

    async def book() -> None:
        await _book(ws.db, "soon@test", "2030-03-04T14:00:00+01:00",
                    "2030-03-04T15:00:00+01:00", "Europe/Berlin", where=HOSTILE_TITLE)
        await _book(ws.db, "later@test", "2030-03-05T09:30:00-08:00",
                    "2030-03-05T10:15:00-08:00", None)
        await _book(ws.db, "past@test", "2020-01-06T10:00:00+00:00",
                    "2020-01-06T11:00:00+00:00", None)
    asyncio.run(book())
    return JobtrackerApp(load_setup(ws), clock=FrozenClock())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_i_lists_the_interviews_to_come_in_the_users_zone(
        app: JobtrackerApp, size: tuple[int, int]) -> None:
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: "q Quit" in screen_text(app))
        await pilot.press("i")
        await wait_until(pilot, lambda: isinstance(app.screen, InterviewsScreen)
                         and len(app.screen.interviews) == 2)
        await wait_until(pilot, lambda: "(the mail's zone)" in screen_text(app))
        text = screen_text(app)
        assert "Interviews ─ 2 to come, times in America/Los_Angeles" in text
        rows = [row for row in text.splitlines() if "–" in row and "│" in row]
        # 14:00 in Berlin is 05:00 in Los Angeles; the application's id comes first.
        assert rows[0].split()[1:6] == ["1", "Mon", "4", "Mar", "2030"], rows
        assert "05:00–06:00" in rows[0] and "09:30–10:15" in rows[1]
        assert "Mon 4 Mar 14:00 Europe/Berlin (the mail's zone)" in text
        assert "[red]x[/red]" in text, "the place is shown literally"
        assert "2020" not in text, "a past interview is not to come"
        await pilot.press("j")
        await wait_until(pilot, lambda: "(the mail's zone)" not in screen_text(app))
        assert "Tue 5 Mar 2030 09:30–10:15 America/Los_Angeles" in screen_text(app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, InterviewsScreen))


async def test_the_help_names_the_key(app: JobtrackerApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert "the interviews to come" in screen_text(app)


async def test_none_to_come_says_how_one_comes(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, None)
    app = JobtrackerApp(load_setup(ws), clock=FrozenClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("i")
        await wait_until(pilot, lambda: "none to come" in screen_text(app))
