"""How each screen looks, at 80×24 (over SSH) and 160×48, held still for comparison.

Still means: a frozen clock for elapsed times and event lines, a fixed theme, no
animation (TEXTUAL_ANIMATIONS=none in tests/conftest.py), no blinking cursor (no
input widgets), the workspace under a fixed-looking `~/home`, and a model server
address that is never contacted. Update with `pytest --snapshot-update` after
looking at the report.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from jobtracker.runner import load_setup
from jobtracker.workers.events import Event, EventType
from tests.tui.fixtures import (
    make_workspace,
    screen_text,
    seed_postings,
    seed_review,
    shown,
    wait_until,
)
from tui.app import JobtrackerApp
from tui.clock import FrozenClock
from tui.host import Phase

SIZES = [(80, 24), (160, 48)]
T0 = datetime(2026, 11, 29, 10, 41, 0, tzinfo=UTC)


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> JobtrackerApp:
    monkeypatch.setenv("HOME", str(tmp_path))        # the header shows ~/home
    ws = make_workspace(tmp_path, "http://gpu.local:8000",
                        tasks="level: true, judge: true, inbox: true")
    seed_review(ws)
    seed_postings(ws.db, 40, start=100)
    return JobtrackerApp(load_setup(ws), clock=FrozenClock())


async def settle(pilot: Any) -> None:
    """Every read the screen started is done and shown; the dashboard has drawn the
    live state as it is."""
    await shown(pilot)


def emit(app: JobtrackerApp, kind: str, label: str, type: EventType, seconds: float,
         **data: Any) -> None:
    app.live.emit(Event(type, label, kind, data, T0 + timedelta(seconds=seconds)))


async def live_run(pilot: Any) -> None:
    """A run in progress, told through events: three in flight, a retry, a failure."""
    await settle(pilot)             # the queue's first survey lands before the run's events
    app: JobtrackerApp = pilot.app
    clock = app.clock
    assert isinstance(clock, FrozenClock)
    emit(app, "level", "Acme — Backend Engineer", EventType.JOB_STARTED, 0)
    emit(app, "level", "Crane — Engineer", EventType.JOB_STARTED, 0)
    clock.advance(5)
    emit(app, "judge", "Acme — Staff Engineer", EventType.JOB_STARTED, 1)
    emit(app, "judge", "Acme — Staff Engineer", EventType.JOB_PROGRESS, 1, phase="asking")
    clock.advance(2)
    emit(app, "judge", "Bolt — Platform Engineer", EventType.JOB_STARTED, 2)
    emit(app, "judge", "Bolt — Platform Engineer", EventType.JOB_PROGRESS, 2, phase="applying")
    emit(app, "judge", "Bolt — Platform Engineer", EventType.CALL_FINISHED, 2,
         model="test-model", input_tokens=812, output_tokens=64)
    emit(app, "level", "Acme — Backend Engineer", EventType.JOB_FINISHED, 3,
         result="staff", elapsed=3.2)
    emit(app, "level", "Crane — Engineer", EventType.CALL_RETRYING, 3, attempt=1, attempts=3,
         reason="429", delay=2.0)
    emit(app, "judge", "Dove — SRE", EventType.JOB_STARTED, 4)
    emit(app, "judge", "Dove — SRE", EventType.JOB_FAILED, 5,
         error="LLMError: answer off schema after 3 attempts")
    clock.advance(2)
    app._set_phase(Phase.RUNNING)   # the phase a live run would set; no worker here
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_dashboard_idle(snap_compare: Any, app: JobtrackerApp, size: tuple[int, int]) -> None:
    assert snap_compare(app, terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_dashboard_running(snap_compare: Any, app: JobtrackerApp,
                           size: tuple[int, int]) -> None:
    assert snap_compare(app, terminal_size=size, run_before=live_run)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_review_status(snap_compare: Any, app: JobtrackerApp, size: tuple[int, int]) -> None:
    async def review_open(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=review_open)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_review_resume_edit(snap_compare: Any, app: JobtrackerApp,
                            size: tuple[int, int]) -> None:
    async def resume_edit(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        await pilot.press("j")
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=resume_edit)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_matches(snap_compare: Any, app: JobtrackerApp, size: tuple[int, int]) -> None:
    async def matches_loaded(pilot: Any) -> None:
        await pilot.press("m")
        # The list is read by a worker; the footer's keys light up once it holds rows.
        await wait_until(pilot, lambda: bool(getattr(app.screen, "matches", None)))
        # The detail pane is read by a second worker once a row is highlighted.
        await wait_until(pilot, lambda: "verdict strong" in screen_text(app))
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=matches_loaded)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_help(snap_compare: Any, app: JobtrackerApp, size: tuple[int, int]) -> None:
    async def help_open(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=help_open)
