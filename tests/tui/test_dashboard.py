"""The dashboard driven with keys, against a real model server and a real workspace."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot

from jobtracker.lease import Lease
from jobtracker.runner import load_setup
from jobtracker.workspace import Workspace
from tests.servers.model import Fault, ModelServer, schema_answer
from tests.tui.fixtures import (
    make_workspace,
    screen_text,
    seed_postings,
    settled,
    shown,
    wait_until,
)
from tui.app import JobtrackerApp
from tui.host import Phase
from tui.screens.confirm import ConfirmQuit
from tui.screens.dashboard import DashboardScreen
from tui.widgets.eventlog import EventLog
from tui.widgets.inflight import InFlightTable
from tui.widgets.queue import QueueTable

SIZE = (80, 24)


def senior(body: dict) -> dict:
    return {"level": "senior", "reason": "stated"}


@pytest.fixture
def server() -> Iterator[ModelServer]:
    with ModelServer(answer=senior, latency=0.05) as srv:
        yield srv


def readings(ws: Workspace) -> int:
    with sqlite3.connect(ws.db) as conn:
        return conn.execute("SELECT COUNT(*) FROM level_readings").fetchone()[0]


async def wait_for(pilot: Pilot, condition: Callable[[], bool], timeout: float = 15) -> None:
    """`condition`, then the widgets showing the state it speaks of: the dashboard's
    refresh (twice a second) has caught up and its reads of the database are done."""
    await wait_until(pilot, condition, timeout)
    if pilot.app.is_running:
        await shown(pilot)


def app_for(ws: Workspace) -> JobtrackerApp:
    return JobtrackerApp(load_setup(ws))


async def test_r_starts_the_loop_and_the_queue_drains(tmp_path: Path, server: ModelServer) -> None:
    ws = make_workspace(tmp_path, server.url)
    seed_postings(ws.db, 12)
    app = app_for(ws)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.query_one(QueueTable).row_count == 1)
        assert "12 pending" in screen_text(app)
        assert "r Start" in screen_text(app)
        await pilot.press("r")
        await wait_for(pilot, lambda: app.last_result is not None)
        text = screen_text(app)
        assert readings(ws) == 12
        assert "nothing to do" in text
        assert "12/12" in text
        assert "run ended: 12 finished, 0 failed, 0 skipped" in text
        assert "done  level  Acme — Engineer" in text
        logged = [entry.text for entry in app.screen.query_one(EventLog).lines_kept]
        assert sum(" done  level  Acme — Engineer " in t and "senior" in t for t in logged) == 12
        assert app.model.ok is True and "✓" in text.splitlines()[0]


async def test_r_pauses_and_resumes_in_flight_units_finish(tmp_path: Path) -> None:
    with ModelServer(answer=senior, latency=1.0) as srv:     # four stay in flight a while
        ws = make_workspace(tmp_path, srv.url)
        seed_postings(ws.db, 16)
        app = app_for(ws)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("r")
            # The table follows the live state at its own pace (a loaded machine showed 3
            # rows for 4 units): wait for the units, then for the table to show them.
            await wait_for(pilot, lambda: len(app.live.in_flight) == 4)
            await wait_for(pilot, lambda: app.query_one(InFlightTable).row_count == 4)
            assert app.query_one(InFlightTable).row_count == 4
            assert "r Pause" in screen_text(app)
            await pilot.press("r")
            assert app.phase is Phase.PAUSED
            await wait_for(pilot, lambda: not app.live.in_flight)
            asked = srv.chat_count
            # Proving that nothing is admitted takes time: a fixed wait, on purpose.
            await pilot.pause(0.8)
            assert srv.chat_count == asked, "a paused loop admitted a unit"
            assert readings(ws) == asked, "units in flight at the pause were not kept"
            text = screen_text(app)
            assert "paused" in text.splitlines()[0] and "r Resume" in text
            await pilot.press("r")
            assert app.phase is Phase.RUNNING
            await wait_for(pilot, lambda: app.phase is Phase.IDLE)
    assert readings(ws) == 16


async def test_s_stops_after_the_units_in_flight(tmp_path: Path) -> None:
    # 3 s answers (under the 5 s timeout): at 1 s a loaded machine's four units in flight
    # had all finished before `s` was seen, so the run was idle, not stopping.
    with ModelServer(answer=senior, latency=3.0) as srv:
        ws = make_workspace(tmp_path, srv.url)
        seed_postings(ws.db, 30)
        app = app_for(ws)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("r")
            await wait_for(pilot, lambda: len(app.live.in_flight) == 4)
            await pilot.press("s")
            assert app.phase is Phase.STOPPING
            assert "stopping" in screen_text(app).splitlines()[0]
            await wait_for(pilot, lambda: app.phase is Phase.IDLE)
            done = readings(ws)
            assert done == srv.chat_count, "a unit in flight at the stop was lost"
            assert 4 <= done < 30
            text = screen_text(app)
            assert f"run ended: {done} finished" in text
            assert f"{30 - done} pending" in text


async def test_quit_with_units_in_flight_asks_then_cancels_cleanly(tmp_path: Path) -> None:
    # Answers that take longer than the whole dialog can, on any machine (at 3 s a loaded
    # one answered two units between `r` and `y`; attempts time out at 5 s and are retried,
    # none is answered): the units are cancelled, never finished.
    with ModelServer(answer=senior, latency=60.0) as srv:
        ws = make_workspace(tmp_path, srv.url)
        seed_postings(ws.db, 10)
        app = app_for(ws)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("r")
            await wait_for(pilot, lambda: len(app.live.in_flight) == 4)
            await pilot.press("q")
            await wait_until(pilot, lambda: isinstance(app.screen, ConfirmQuit))
            assert "4 units in flight. Quit now?" in screen_text(app)
            await pilot.press("n")
            await wait_until(pilot, lambda: isinstance(app.screen, DashboardScreen))
            assert app.phase is Phase.RUNNING
            await pilot.press("q")
            await wait_until(pilot, lambda: isinstance(app.screen, ConfirmQuit))
            await pilot.press("y")
            await wait_for(pilot, lambda: not app.is_running, timeout=10)
        assert app.return_value == 0
        finished = app.live.totals()["finished"]
    # Cancelled units were rolled back, not half-applied; the lease is free again.
    with sqlite3.connect(ws.db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT COUNT(*) FROM level_readings").fetchone()[0] == finished
    assert finished == 0, "the units were cancelled long before their answers came"
    with Lease(ws.lock):
        pass


async def test_quit_when_idle_does_not_ask(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, None)
    app = app_for(ws)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("q")
        await wait_for(pilot, lambda: not app.is_running, timeout=5)
    assert app.return_value == 0


async def test_no_model_is_shown_plainly_and_nothing_changes(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, "http://127.0.0.1:9")
    seed_postings(ws.db, 3)
    app = app_for(ws)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await wait_for(pilot, lambda: app.last_result is not None)
        text = screen_text(app)
        assert "no model: model server at http://127.0.0.1:9/v1 unreachable" in text
        assert "Nothing was changed" in text
        assert "✗" in text.splitlines()[0]
        assert "unavailable —" in text
        (state,) = app.screen.query_one(QueueTable).states
        assert state.reason is not None and "unreachable" in state.reason
        assert "Traceback" not in text
    assert readings(ws) == 0


async def test_empty_queue_says_nothing_to_do(tmp_path: Path, server: ModelServer) -> None:
    ws = make_workspace(tmp_path, server.url)
    app = app_for(ws)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await wait_for(pilot, lambda: app.last_result is not None)
        assert "nothing to do: every task's queue is empty" in screen_text(app)
    assert server.chat_count == 0


async def test_a_held_lease_is_reported_not_raised(tmp_path: Path, server: ModelServer) -> None:
    ws = make_workspace(tmp_path, server.url)
    seed_postings(ws.db, 2)
    app = app_for(ws)
    with Lease(ws.lock):
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("r")
            await wait_for(pilot, lambda: app.phase is Phase.IDLE and bool(app.notice))
            text = screen_text(app)
            assert "not started: another run holds the workspace: process" in text
            assert "Traceback" not in text
            assert app.is_running
    assert readings(ws) == 0 and server.chat_count == 0


async def test_retries_show_in_flight_and_in_the_log(tmp_path: Path) -> None:
    with ModelServer(answer=senior, latency=0.2) as srv:
        srv.queue(Fault.status(429, retry_after=1))
        ws = make_workspace(tmp_path, srv.url)
        seed_postings(ws.db, 1)
        app = app_for(ws)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("r")
            # The pane shows it at its next refresh (twice a second).
            await wait_for(pilot, lambda: "retry 2/2 429" in screen_text(app))
            await wait_for(pilot, lambda: app.phase is Phase.IDLE)
            assert "retry level  Acme — Engineer 1  429  attempt 1/2  in 1.0s" in screen_text(app)
    assert readings(ws) == 1


def level_then_schema(body: dict) -> dict:
    """`senior` for the level task; any valid answer for the others (the judge)."""
    if body["response_format"]["json_schema"]["name"] == "level":
        return senior(body)
    return schema_answer(body)


async def test_f_filters_the_log_by_task(tmp_path: Path) -> None:
    with ModelServer(answer=level_then_schema) as srv:
        ws = make_workspace(tmp_path, srv.url, tasks="level: true, judge: true, inbox: false")
        seed_postings(ws.db, 2)
        app = app_for(ws)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("r")
            await wait_for(pilot, lambda: app.last_result is not None)
            text = screen_text(app)
            assert "done  level" in text and "done  judge" in text
            await pilot.press("f")          # level only
            await settled(pilot)
            text = screen_text(app)
            assert "Events — level only" in text
            assert "done  level" in text and "done  judge" not in text
            assert "run ended" in text      # the app's own notes are never filtered out
            await pilot.press("f")          # judge only
            await settled(pilot)
            text = screen_text(app)
            assert "done  judge" in text and "done  level" not in text
            await pilot.press("f")          # all again
            await settled(pilot)
            text = screen_text(app)
            assert "done  level" in text and "done  judge" in text


async def test_a_full_disk_under_events_jsonl_is_a_notice_said_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import jobtracker.run.run

    with ModelServer(answer=senior, latency=0.1) as srv:
        ws = make_workspace(tmp_path, srv.url)
        seed_postings(ws.db, 12)
        monkeypatch.setattr(jobtracker.run.run, "run_id", lambda now=None: "full")
        (ws.runs / "full").mkdir(parents=True)
        (ws.runs / "full" / "events.jsonl").symlink_to("/dev/full")   # writes fail: ENOSPC
        app = app_for(ws)
        told: list[str] = []
        monkeypatch.setattr(app, "notify", lambda message, **kw: told.append(message))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("r")
            await wait_for(pilot, lambda: app.last_result is not None)
            assert readings(ws) == 12, "the run went on"
            problem = "events.jsonl stopped (OSError: [Errno 28] No space left on device)"
            assert len(told) == 1 and told[0].endswith(problem)
            assert app.notice.endswith(problem)
            assert "No space left on device" in screen_text(app)
