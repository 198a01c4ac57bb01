"""The Applications screen: `t` from the dashboard, groups with counts, due marks, the
funnel, the timeline on enter (outside text literal), `s` and `n` through the one
writer, escape back; and its look at 80×24 and 160×48."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from jobtracker import store
from jobtracker.runner import load_setup
from jobtracker.tracker import store as tracked
from tests.tracker_seed import message, seeded, set_status
from tests.tui.fixtures import (
    HOSTILE_TITLE,
    application_status,
    make_workspace,
    screen_output,
    screen_text,
    seed_review,
    settled,
    wait_until,
)
from tui.app import JobtrackerApp
from tui.clock import FrozenClock
from tui.screens.applications import ApplicationsScreen, NoteInput, TimelineScreen
from tui.screens.matches import StatusPicker
from tui.widgets.pipeline import PipelineList

SIZE = (80, 24)


def _seed(db: Path) -> None:
    """Beside seed_review's Acme (applied, mail on Nov 28): Bolt applied Nov 1 and silent
    (due), Crane (a hostile title) interviewing since Nov 25 with scheduling mail."""
    async def go() -> None:
        async with store.connect(db) as conn, store.write(conn):
            await set_status(conn, 2, "applied", "2026-11-01T09:00:00Z")
            await set_status(conn, 3, "applied", "2026-11-10T09:00:00Z")
            await set_status(conn, 3, "interviewing", "2026-11-25T09:00:00Z")
            await message(conn, "crane-1", "2026-11-26T09:00:00Z", posting=3,
                          state="scheduling", subject=f"Slots: {HOSTILE_TITLE}")
    asyncio.run(go())


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> JobtrackerApp:
    monkeypatch.setenv("HOME", str(tmp_path))
    ws = make_workspace(tmp_path, None)
    seed_review(ws)
    _seed(ws.db)
    return JobtrackerApp(load_setup(ws), clock=FrozenClock())


async def _open(pilot: Any) -> ApplicationsScreen:
    await settled(pilot)
    await pilot.press("t")
    # The list is read by a worker: wait for it, not for a fixed time.
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ApplicationsScreen)
                     and bool(pilot.app.screen.rows))
    screen = pilot.app.screen
    assert isinstance(screen, ApplicationsScreen)
    return screen


async def test_t_groups_by_status_with_counts_due_marks_and_the_funnel(
        app: JobtrackerApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: "1 due · " in screen_text(app))   # Bolt: 28 days
        screen = await _open(pilot)
        ids = [line.key for line in screen.query_one(PipelineList).lines]
        assert ids == [None, "3", None, "1", "2"]
        text = screen_text(app)
        assert "interviewing (1)" in text and "applied (2) · 1 due" in text
        assert "Applications ─ 3 · 1 due" in text
        assert "applied    ████████████████████ 2" in text   # Acme has no history
        assert screen.current is not None and screen.current.id == 3   # groups are skipped
        assert "\x1b[31m" not in screen_output(app)
        await pilot.press("escape")
        assert not isinstance(app.screen, ApplicationsScreen)


async def test_enter_shows_the_timeline_literally(app: JobtrackerApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await _open(pilot)
        await pilot.press("enter")
        await settled(pilot)
        assert isinstance(app.screen, TimelineScreen)
        text = screen_text(app)
        assert "no application → applied  (hand)" in text
        assert "applied → interviewing  (hand)" in text
        assert "Slots: [red]x[/red] [link=http://e.x]y[/link]" in text
        assert "from Rita <rita@acme.test> · scheduling" in text
        assert "\x1b[31mred" not in screen_output(app)
        await pilot.press("escape")
        assert isinstance(app.screen, ApplicationsScreen)


async def test_a_wrapped_timeline_line_keeps_its_column(app: JobtrackerApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await _open(pilot)
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, NoteInput))
        app.screen.query_one("Input").value = "word " * 30 + "END"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ApplicationsScreen))
        await settled(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TimelineScreen))
        await settled(pilot)
        rows = [row for row in screen_text(app).splitlines() if "word" in row]
        assert len(rows) >= 3, rows               # the note wraps at 80 columns
        start = rows[0].index("word")
        assert all(row.index("word") == start for row in rows), rows   # under its start
        assert "END" in screen_text(app)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_funnel_counts_stay_beside_their_bars_and_the_verdict_table_aligns(
        app: JobtrackerApp, size: tuple[int, int]) -> None:
    async with app.run_test(size=size) as pilot:
        await _open(pilot)
        await wait_until(pilot, lambda: "verdict" in screen_text(app))
        text = screen_text(app).splitlines()
        # The funnel's pane: beside the list (two panes on a row) or under it.
        funnel = [row[row.rindex("│", 0, len(row) - 1) + 1:] if row.count("│") > 2
                  else row[1:] for row in text]
        for label in ("applied", "responded", "interviews", "offers"):
            (shown,) = [row for row in funnel if re.match(rf"\s*{label} +[█\d]", row)]
            assert shown.rstrip(" │").split()[-1].isdigit(), shown   # no count wrapped away
        (header,) = [row for row in funnel if "verdict" in row and "dismissed" in row]
        entries = [row for row in funnel
                   if row.strip().split(" ")[0] in ("strong", "good", "partial", "poor")]
        assert entries
        for word in ("sent", "interviews", "dismissed"):
            end = header.index(word) + len(word) - 1
            assert all(row[end] != " " for row in entries), (word, header, entries)


async def test_s_and_n_change_the_application_through_the_one_writer(
        app: JobtrackerApp) -> None:
    ws = app.setup.ws
    async with app.run_test(size=SIZE) as pilot:
        await _open(pilot)
        await pilot.press("s")
        await settled(pilot)
        assert isinstance(app.screen, StatusPicker)
        await pilot.press("j", "enter")          # interviewing -> offer
        await settled(pilot)
        assert application_status(ws, 3) == "offer"
        await pilot.press("n")
        await settled(pilot)
        assert isinstance(app.screen, NoteInput)
        await pilot.press(*"ask [b]salary[/b]", "enter")
        await settled(pilot)
        await pilot.press("n", "escape")         # escape adds nothing
        await settled(pilot)
        await pilot.press("enter")
        await settled(pilot)
        text = screen_text(app)
        assert "interviewing → offer  (hand)" in text
        assert text.count("ask [b]salary[/b]") == 1


async def test_the_screen_shows_the_last_read_at_once_then_its_own_on_the_same_row(
        app: JobtrackerApp, monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening shows what the dashboard read last, without waiting for the database;
    the screen's own read then replaces it, and the cursor stays on its application."""
    gate = asyncio.Event()
    fresh_read = tracked.overview

    async def held(*args: Any) -> tracked.Overview:
        found = await fresh_read(*args)
        await gate.wait()
        return found

    def keys() -> list[str | None]:
        return [line.key for line in pilot.app.screen.query_one(PipelineList).lines]

    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.applications_read is not None)
        monkeypatch.setattr(tracked, "overview", held)
        # After the dashboard's read, Bolt hears back.
        await seeded(app.db, lambda conn: set_status(conn, 2, "screening",
                                                     "2026-11-29T09:00:00Z"))
        await pilot.press("t")
        assert isinstance(app.screen, ApplicationsScreen)
        assert keys() == [None, "3", None, "1", "2"]       # as the dashboard read it
        await pilot.press("j")
        assert app.screen.current is not None and app.screen.current.id == 1
        gate.set()
        await wait_until(pilot, lambda: keys() == [None, "3", None, "2", None, "1"])
        assert app.screen.current is not None and app.screen.current.id == 1
        assert "screening (1)" in screen_text(app)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_applications_look(snap_compare: Any, app: JobtrackerApp,
                           size: tuple[int, int]) -> None:
    async def tracker_open(pilot: Any) -> None:
        await settled(pilot)
        await pilot.press("t")
        await settled(pilot)

    assert snap_compare(app, terminal_size=size, run_before=tracker_open)
