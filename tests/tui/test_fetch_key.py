"""`F` on the dashboard: fetch the boards now, a line per board, refused when it must be."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from jobtracker.lease import Lease
from jobtracker.runner import load_setup
from jobtracker.workspace import Workspace
from tests.servers.boards import BoardServer, greenhouse_board, greenhouse_job
from tests.servers.model import ModelServer
from tests.tui.fixtures import make_workspace, screen_text, settled, wait_until
from tui.app import JobtrackerApp
from tui.fetching import age
from tui.widgets.eventlog import EventLog
from tui.widgets.queue import QueueTable

SIZE = (80, 24)


@pytest.fixture
def boards() -> Iterator[BoardServer]:
    with BoardServer() as server:
        server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "Engineer"),
                                                 greenhouse_job(2, "Platform Engineer")]))
        server.set("/gh/bolt", "down for maintenance", status=503, content_type="text/plain")
        yield server


def with_sources(ws: Workspace, boards: BoardServer) -> None:
    (ws.home / "sources.yaml").write_text(
        "boards:\n"
        f"  - {{ats: greenhouse, token: acme, company: Acme, url: \"{boards.url('/gh/acme')}\"}}\n"
        f"  - {{ats: greenhouse, token: bolt, company: Bolt, url: \"{boards.url('/gh/bolt')}\"}}\n")


def postings(ws: Workspace) -> int:
    with sqlite3.connect(ws.db) as conn:
        return conn.execute("SELECT COUNT(*) FROM postings").fetchone()[0]


def log_text(app: JobtrackerApp) -> str:
    return "\n".join(entry.text for entry in app.screen.query_one(EventLog).lines_kept)


async def test_a_new_workspace_says_how_to_get_postings_and_F_fetches_them(
        tmp_path: Path, boards: BoardServer) -> None:
    ws = make_workspace(tmp_path)
    with_sources(ws, boards)
    app = JobtrackerApp(load_setup(ws))
    async with app.run_test(size=SIZE) as pilot:
        # Nothing fetched yet: the screen says how to get postings, naming the file.
        # The footer is drawn after the panes: wait for both before reading the screen.
        await wait_until(pilot, lambda: "No postings yet" in screen_text(app)
                         and "F Fetch" in screen_text(app))
        text = screen_text(app)
        assert "No postings yet: F fetches the boards in sources.yaml" in text
        assert str(ws.home / "sources.yaml") in "".join(text.split())   # wrapped, whole
        assert "never fetched" in text.splitlines()[0]
        assert "F Fetch" in text
        await pilot.press("F")
        await wait_until(pilot, lambda: "fetched 2 board(s)" in log_text(app))
        # The queue and the header line are redrawn each in its own time (a loaded
        # machine drew the queue first): wait for both.
        await wait_until(pilot, lambda: "pending" in screen_text(app)
                         and "fetched just now" in screen_text(app).splitlines()[0])
        log = log_text(app)
        # One line per board, in sources.yaml order, the failure with its reason.
        assert "fetch 1/2 greenhouse:acme  2 new, 0 updated, 0 closed" in log
        assert "fetch 2/2 greenhouse:bolt  FAILED" in log and "503" in log
        assert "fetched 2 board(s): 2 new, 0 closed; 1 failed" in log
        assert postings(ws) == 2
        text = screen_text(app)
        # Resurveyed: the level task now has the two titles; the hint is gone; the age shows.
        assert "2 pending" in text
        assert "No postings yet" not in text
        assert "fetched just now" in text.splitlines()[0]
        assert app.fetcher.worker is None


async def test_F_is_refused_while_a_run_holds_the_workspace(
        tmp_path: Path, boards: BoardServer) -> None:
    ws = make_workspace(tmp_path)
    with_sources(ws, boards)
    app = JobtrackerApp(load_setup(ws))
    async with app.run_test(size=SIZE) as pilot:
        with Lease(ws.lock):     # another process's run, as a timer would start it
            await pilot.press("F")
            await wait_until(pilot, lambda: "not fetched: another run holds the workspace"
                             in log_text(app))
        assert postings(ws) == 0
        assert boards.requests == []


async def test_F_is_refused_during_a_run_and_r_during_a_fetch(
        tmp_path: Path, boards: BoardServer) -> None:
    boards.set("/gh/acme", greenhouse_board([greenhouse_job(1, "Engineer")]), delay=1.0)
    # The run's one unit takes 3 s (it took 0.5 s, and a loaded machine's run had ended
    # before the test looked for it): long enough to press F while it goes.
    with ModelServer(answer=lambda body: {"level": "senior", "reason": "stated"},
                     latency=3.0) as model:
        ws = make_workspace(tmp_path, model.url)
        with_sources(ws, boards)
        app = JobtrackerApp(load_setup(ws))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("F")
            await wait_until(pilot, lambda: app.fetcher.busy)
            assert "fetching" in screen_text(app).splitlines()[0]
            await pilot.press("F")
            assert "a fetch is already going" in log_text(app)
            await pilot.press("r")               # no run while the fetch writes postings
            assert not app.running
            await wait_until(pilot, lambda: not app.fetcher.busy)
            await wait_until(pilot, lambda: app.query_one(QueueTable).row_count > 0
                             and "1 pending" in screen_text(app))
            await pilot.press("r")
            await wait_until(pilot, lambda: app.live_run is not None)
            await pilot.press("F")
            assert "not fetched: a run is going" in log_text(app)
            await wait_until(pilot, lambda: app.last_result is not None)
    assert len([r for r in boards.requests if r.path == "/gh/acme"]) == 1


async def test_an_empty_sources_file_is_said_with_its_path(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path)
    (ws.home / "sources.yaml").write_text("boards: []\n")
    app = JobtrackerApp(load_setup(ws))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("F")
        await settled(pilot)
        assert f"nothing to fetch: {ws.home / 'sources.yaml'} names no board" in log_text(app)
        assert app.fetcher.worker is None


def test_the_age_of_the_last_fetch() -> None:
    from datetime import UTC, datetime

    moment = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    assert age(None, moment) == "never fetched"
    assert age("2026-11-30T11:59:30Z", moment) == "fetched just now"
    assert age("2026-11-30T11:55:00Z", moment) == "fetched 5m ago"
    assert age("2026-11-30T09:00:00Z", moment) == "fetched 3h ago"
    assert age("2026-11-28T12:00:00Z", moment) == "fetched 2d ago"




async def test_F_shows_a_line_per_job_alert_sender_after_the_boards(
        tmp_path: Path, boards: BoardServer) -> None:
    from alerts_samples import SAMPLES

    from tests.unit.mail_samples import build_maildir

    ws = make_workspace(tmp_path)
    with_sources(ws, boards)
    box = build_maildir(tmp_path / "Mail", [SAMPLES["linkedin saved search"].raw])
    with open(ws.home / "config.yaml", "a") as config:
        config.write(f"maildir: {box}\nalerts: {{probe_companies: 0}}\n")   # no internet
    app = JobtrackerApp(load_setup(ws))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("F")
        await wait_until(pilot, lambda: "fetched 2 board(s)" in log_text(app))
        log = log_text(app)
        assert "fetch 2/2 greenhouse:bolt  FAILED" in log
        assert "fetch alerts:linkedin  3 new, 0 seen again, 0 closed (1 mail)" in log
        assert "fetched 2 board(s): 5 new, 0 closed; 1 failed" in log
    assert postings(ws) == 5
