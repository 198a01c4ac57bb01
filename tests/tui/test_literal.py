"""Text from outside is shown literally: no markup, link or control sequence takes effect."""

from __future__ import annotations

from pathlib import Path

from jobtracker.runner import load_setup
from tests.tui.fixtures import (
    make_workspace,
    screen_links,
    screen_text,
    seed_review,
    settled,
)
from tui.app import JobtrackerApp

SHOWN = "[red]x[/red] [link=http://e.x]y[/link] red"   # the title, its ESC sequence removed


async def assert_literal(app: JobtrackerApp) -> None:
    text = screen_text(app)
    assert SHOWN in text, "the brackets must show as typed"
    assert "\x1b" not in text, "no ESC may reach the terminal as text"
    assert not any("e.x" in link for link in screen_links(app)), "no link may be made"


async def test_a_hostile_title_is_shown_literally_everywhere(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, None)
    seed_review(ws)
    app = JobtrackerApp(load_setup(ws))
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("m")                 # the matches table and the why pane
        await settled(pilot)
        await pilot.press("j", "j")
        await settled(pilot)
        await assert_literal(app)
        assert f"reasons: {SHOWN}" in screen_text(app)
        await pilot.press("o")                 # the posting's own text
        await settled(pilot)
        await assert_literal(app)
        await pilot.press("escape", "escape", "p")   # the review: heading, email fields
        await settled(pilot)
        await pilot.press("j", "j", "j")
        await settled(pilot)
        await assert_literal(app)
        assert f"Subject  {SHOWN}" in screen_text(app)
