"""The README's tour screen has the shape the app renders now: its width and height,
the header's parts, the pane titles, the progress line and the footer's keys while
running. A change to any of them (a new key on the dashboard, a renamed pane)
fails here until the README's capture is taken again (`jobtracker-tui --demo` in
an 80×24 tmux session, `r`, `tmux capture-pane -p` a few seconds later)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.tui.fixtures import screen_text, settled
from tests.tui.test_snapshots import app, live_run  # noqa: F401  (the fixture)
from tui.app import JobtrackerApp

README = Path(__file__).resolve().parents[2] / "README.md"


def tour() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## A 30-second tour"):]
    block = section[section.index("```\n") + 4:]
    return block[:block.index("```")].rstrip("\n").split("\n")


def titles(lines: list[str]) -> list[str]:
    """Pane titles in reading order, without their live counts."""
    found = re.findall(r"╭─ ([A-Za-z ]+?)(?: \d.*?)? ─", "\n".join(lines))
    return [title.strip() for title in found]


def shape(lines: list[str]) -> dict[str, Any]:
    header, footer = lines[0], lines[-1]
    return {
        "height": len(lines),
        "width": max(len(line) for line in lines),
        "header": (header.startswith(" jobtracker ─ "), header.rstrip().endswith("running"),
                   "✓" in header),
        "titles": titles(lines),
        "progress": lines[-2].rstrip().endswith("waiting"),
        "footer": footer.split(),
    }


async def test_the_readme_tour_has_the_shape_of_the_running_dashboard(
        app: JobtrackerApp) -> None:  # noqa: F811
    async with app.run_test(size=(80, 24)) as pilot:
        await live_run(pilot)
        app.model = type(app.model)(True)      # the model answered, as in a real run
        app.screen._show_header()
        await settled(pilot)
        rendered = screen_text(app).rstrip("\n").split("\n")
    readme = tour()
    assert shape(readme) == shape(rendered)
    assert shape(readme)["width"] == 80 and shape(readme)["height"] == 24
    assert shape(readme)["titles"] == ["Queue", "In flight", "Events"]
