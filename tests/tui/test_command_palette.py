"""ctrl+p: the command palette lists every action of the current screen with its key."""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandPalette

from jobtracker.runner import load_setup
from tests.servers.model import ModelServer
from tests.tui.fixtures import (
    make_workspace,
    screen_text,
    seed_postings,
    seed_review,
    settled,
    wait_until,
)
from tui.app import JobtrackerApp
from tui.commands import screen_commands
from tui.screens.review import ReviewScreen


def titles(app: JobtrackerApp) -> set[str]:
    return {command.title for command in screen_commands(app.screen, app)}


async def test_the_palette_lists_what_applies_now_with_its_key(tmp_path: Path) -> None:
    with ModelServer(answer=lambda body: {"level": "senior", "reason": "stated"},
                     latency=0.5) as server:
        ws = make_workspace(tmp_path, server.url, concurrency=1)
        seed_postings(ws.db, 4)
        app = JobtrackerApp(load_setup(ws))
        async with app.run_test(size=(80, 24)) as pilot:
            await settled(pilot)
            idle = titles(app)
            assert {"Start  r", "Fetch  F", "Review  p", "Matches  m", "Filter  f",
                    "Help  ?"} <= idle
            assert any(t.startswith("Quit  ") and " q" in f" {t}" for t in idle)
            # Nothing that does not apply now, nothing Textual brings of its own.
            assert not any(t.split()[0] in ("Pause", "Resume", "Stop") for t in idle)
            assert not any("Focus" in t or "Copy" in t or "palette" in t.lower()
                           for t in idle)
            await pilot.press("r")
            await wait_until(pilot, lambda: app.live_run is not None)
            running = titles(app)
            assert {"Pause  r", "Stop  s"} <= running and "Start  r" not in running
            app.stop_run()
            await wait_until(pilot, lambda: not app.running)


async def test_choosing_an_entry_runs_its_action(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path)
    seed_review(ws)
    app = JobtrackerApp(load_setup(ws))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: CommandPalette.is_open(app))
        await pilot.press(*"review")
        # The palette searches in a worker of its own: wait for the entry to be listed.
        await wait_until(pilot, lambda: "Review  p" in screen_text(app))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        # The review's own keys are listed there.
        await settled(pilot)
        assert any(t.startswith("Accept") for t in titles(app))
