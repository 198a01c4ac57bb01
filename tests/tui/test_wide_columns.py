"""The dashboard's tables gain columns from 160 columns, both panes together, as
docs/tui.md says (the panes themselves widen from 120)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.runner import load_setup
from tests.servers.model import ModelServer
from tests.tui.fixtures import make_workspace, seed_postings, wait_until
from tui.app import JobtrackerApp
from tui.screens.dashboard import DashboardScreen
from tui.widgets.inflight import InFlightTable
from tui.widgets.queue import QueueTable


@pytest.mark.parametrize(("width", "columns"), [(80, False), (110, False), (119, False),
                                                 (120, False), (140, False), (159, False),
                                                 (160, True), (200, True)])
async def test_columns_come_at_160(tmp_path: Path, width: int, columns: bool) -> None:
    with ModelServer(answer=lambda body: {"level": "senior", "reason": "stated"},
                     latency=2.0) as server:
        ws = make_workspace(tmp_path, server.url, concurrency=1)
        seed_postings(ws.db, 2)
        app = JobtrackerApp(load_setup(ws))
        async with app.run_test(size=(width, 30)) as pilot:
            await pilot.press("r")
            await wait_until(pilot, lambda: app.screen.query_one(InFlightTable).row_count)
            await wait_until(pilot, lambda: "asking" in app.screen.query_one(InFlightTable)
                             .render().plain)
            queue = app.screen.query_one(QueueTable).render().plain.splitlines()[0]
            assert ("aside" in queue and "failed" in queue) is columns, queue
            # After the phase: 15 cells when narrow; 25 and the token column when wide.
            unit = app.screen.query_one(InFlightTable).render().plain.splitlines()[0]
            assert (len(unit.split("asking", 1)[1]) > 20) is columns, unit
            assert app.screen.has_class("-wide") is (width >= 120)
            assert isinstance(app.screen, DashboardScreen)
            app.stop_run()
