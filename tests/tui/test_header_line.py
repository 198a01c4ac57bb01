"""The header keeps the workspace's path while a run goes, and shows the last fetch's age.

It lost the path during a run (`jobtracker ─  ─ model …`): the path had the room
left after the model's name and the phase, and `running` is three cells longer
than `idle`, which left a long name's path none at 80 columns.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App

from jobtracker.runner import load_setup
from tests.servers.model import ModelServer
from tests.tui.fixtures import make_workspace, screen_text, seed_postings, wait_until
from tui.app import JobtrackerApp
from tui.widgets.header import PHASE_STYLES, HeaderLine

HOME = Path("/srv/data/people/sam/job-search-workspace")
LONG_MODEL = "qwen2.5-coder-32b-instruct-q4_k_m @ gpu-box.lan:8000"


class HeaderApp(App[None]):
    def compose(self):
        yield HeaderLine(id="header")


@pytest.mark.parametrize("fetched", ["", "fetched 3h ago"])
async def test_every_phase_keeps_the_same_end_of_the_path(fetched: str) -> None:
    app = HeaderApp()
    lines = {}
    async with app.run_test(size=(80, 3)) as pilot:
        header = app.query_one(HeaderLine)
        for phase in PHASE_STYLES:
            header.show(HOME, LONG_MODEL, True, phase, fetched)
            await pilot.pause()
            lines[phase] = screen_text(app).splitlines()[0]
    for phase, line in lines.items():
        assert len(line.rstrip()) <= 80
        assert line.rstrip().endswith(phase)
        assert "─ …h-workspace ─" in line, line      # the path's end, in every phase
        assert "✓" in line
        assert (fetched in line) is True
    # Nothing moves but the phase word: the path and the name are cut the same way.
    assert len({line.split(" ✓")[0] for line in lines.values()}) == 1


async def test_short_names_show_whole_with_the_word_model() -> None:
    app = HeaderApp()
    async with app.run_test(size=(80, 3)) as pilot:
        app.query_one(HeaderLine).show(Path("/w"), "qwen3:8b @ gpu:8000", None, "idle",
                                       "never fetched")
        await pilot.pause()
        line = screen_text(app).splitlines()[0]
    assert line.startswith(" jobtracker ─ /w ─ model qwen3:8b @ gpu:8000 ?")
    assert "never fetched" in line


@pytest.mark.parametrize("width", [80, 120, 160])
async def test_the_fetch_age_follows_the_model_and_only_the_state_stands_apart(
        width: int) -> None:
    app = HeaderApp()
    async with app.run_test(size=(width, 3)) as pilot:
        app.query_one(HeaderLine).show(Path("/w"), "qwen3:8b @ gpu:8000", True, "idle",
                                       "fetched 3h ago")
        await pilot.pause()
        line = screen_text(app).splitlines()[0]
    assert " ✓ · fetched 3h ago " in line, line       # no gap inside what belongs together
    assert line.rstrip().endswith("idle") and len(line.rstrip()) == width - 1


async def test_the_path_shows_during_a_run(tmp_path: Path) -> None:
    with ModelServer(answer=lambda body: {"level": "senior", "reason": "stated"},
                     latency=0.3) as server:
        ws = make_workspace(tmp_path, server.url)
        seed_postings(ws.db, 8)
        app = JobtrackerApp(load_setup(ws), demo_model=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("r")
            await wait_until(pilot, lambda: app.live_run is not None)
            await wait_until(pilot, lambda: screen_text(app).splitlines()[0].rstrip()
                             .endswith("running"))
            line = screen_text(app).splitlines()[0]
            assert "/home ─ " in line, line
            assert line.rstrip().endswith("running")
            app.stop_run()
            await wait_until(pilot, lambda: not app.running)
