"""Bindings are complete and documented; the live state keeps up with events."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from textual.app import App
from textual.binding import Binding

from jobtracker.runner import load_setup
from jobtracker.workers.events import Event, EventType, make_event
from tests.tui.fixtures import make_workspace, screen_text, seed_review, settled, wait_until
from tui.app import JobtrackerApp
from tui.clock import FrozenClock
from tui.live import LiveReporter, LogLine
from tui.screens.confirm import ConfirmQuit
from tui.screens.dashboard import DashboardScreen
from tui.screens.help import HelpScreen
from tui.screens.matches import MatchesScreen, PostingScreen
from tui.screens.review import ReviewScreen
from tui.screens.status_picker import StatusPicker
from tui.widgets.eventlog import MAX_LINES, EventLog

CLASSES = [JobtrackerApp, DashboardScreen, ReviewScreen, MatchesScreen, PostingScreen,
           StatusPicker, ConfirmQuit, HelpScreen]


@pytest.mark.parametrize("owner", CLASSES, ids=lambda c: c.__name__)
def test_every_binding_has_an_id_a_description_and_a_tooltip(owner: type) -> None:
    bindings = [b for b in owner.__dict__.get("BINDINGS", []) if isinstance(b, Binding)]
    assert bindings
    for binding in bindings:
        assert binding.id and binding.description and binding.tooltip, binding


async def test_help_lists_every_key_of_the_screen_under_it(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, None)
    seed_review(ws)
    app = JobtrackerApp(load_setup(ws))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = screen_text(app)
        for row in ("r ", "Start / Pause / Resume", "s ", "Stop", "p ", "Review", "m ",
                    "Matches", "f ", "Filter", "? ", "q ^q", "Quit"):
            assert row in text
        await pilot.press("escape", "p")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        await settled(pilot)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = screen_text(app)
        assert "Keys — Review" in text
        for row in ("j ↓", "k ↑", "a ", "Accept", "x ", "Reject", "A ", "X ", "u ", "Undo",
                    "e ", "Edit", "esc", "Back"):
            assert row in text, row


def event(type: EventType, job: str = "Acme — SRE", kind: str = "level", key: str = "p1:h",
          **data: object) -> Event:
    return make_event(type, job, kind, data, datetime(2026, 11, 29, 10, 0, tzinfo=UTC), key=key)


def test_live_state_follows_a_unit_from_start_to_end() -> None:
    clock = FrozenClock()
    live = LiveReporter(clock)
    live.emit(event(EventType.JOB_STARTED))
    (unit,) = live.units()
    assert unit.phase == "waiting"
    live.emit(event(EventType.JOB_PROGRESS, phase="asking"))
    live.emit(event(EventType.CALL_RETRYING, attempt=1, attempts=3, reason="429", delay=2))
    assert unit.phase == "retry 2/3 after 429"
    live.emit(event(EventType.CALL_FINISHED, input_tokens=10, output_tokens=3))
    live.emit(event(EventType.JOB_PROGRESS, phase="applying"))
    assert (unit.phase, unit.tokens) == ("applying", "10/3")
    live.emit(event(EventType.JOB_FINISHED, result="senior", elapsed=2.5))
    assert live.units() == []
    assert live.done("level").finished == 1
    lines, dropped = live.take_lines()
    # The detail is the event's own, the same as on a headless line.
    assert [line.text for line in lines] == [
        "10:00:00 retry level  Acme — SRE  429  attempt 1/3  in 2.0s",
        "10:00:00 done  level  Acme — SRE  senior  0:00:02"]
    assert dropped == 0


def test_a_skip_never_ends_another_unit_with_the_same_label() -> None:
    live = LiveReporter(FrozenClock())
    live.emit(event(EventType.JOB_STARTED, key="p1:a"))
    live.emit(event(EventType.JOB_SKIPPED, key="p2:a"))
    live.emit(make_event(EventType.JOB_FAILED, "Acme — SRE", "level", key="p3:a",
                         data={"error": "done(): OperationalError: locked", "phase": "done"}))
    assert [u.label for u in live.units()] == ["Acme — SRE"]
    assert live.done("level").skipped == 1 and live.done("level").failed == 1


def test_units_with_one_label_are_told_apart_by_key_whatever_order_they_end_in() -> None:
    live = LiveReporter(FrozenClock())
    live.emit(event(EventType.JOB_STARTED, key="p1:a"))
    live.emit(event(EventType.JOB_STARTED, key="p2:a"))
    live.emit(event(EventType.JOB_PROGRESS, key="p2:a", phase="applying"))
    live.emit(event(EventType.JOB_FINISHED, key="p1:a", result="senior"))
    (unit,) = live.units()
    assert unit.phase == "applying", "the unit still running is the one that was applying"
    live.emit(event(EventType.JOB_FAILED, key="p2:a", error="boom"))
    assert live.units() == []


def test_the_same_key_in_two_tasks_is_two_units() -> None:
    live = LiveReporter(FrozenClock())
    live.emit(event(EventType.JOB_STARTED, kind="level", key="p1:a"))
    live.emit(event(EventType.JOB_STARTED, kind="judge", key="p1:a"))
    live.emit(event(EventType.JOB_FINISHED, kind="level", key="p1:a"))
    assert [u.kind for u in live.units()] == ["judge"]


def test_the_log_buffer_is_bounded_and_counts_what_it_dropped() -> None:
    live = LiveReporter(FrozenClock(), buffer=10)
    for _ in range(25):
        live.emit(event(EventType.JOB_SKIPPED))
    lines, dropped = live.take_lines()
    assert len(lines) == 10 and dropped == 15
    assert live.done("level").skipped == 25, "counts are never dropped"


def test_control_characters_in_labels_never_reach_the_log() -> None:
    live = LiveReporter(FrozenClock())
    live.emit(event(EventType.JOB_SKIPPED, job="Acme\x1b[2J — [b]SRE[/b]\x07"))
    (line,), _ = live.take_lines()
    assert "\x1b" not in line.text and "\x07" not in line.text
    assert "Acme — [b]SRE[/b]" in line.text


class LogOnly(App[None]):
    def compose(self):
        yield EventLog(id="events")


async def test_a_full_event_log_keeps_showing_the_newest_lines() -> None:
    """Textual's own Log, once at max_lines, went on showing stale lines under batched
    writes; the event log drops its oldest lines in place and repaints."""
    app = LogOnly()
    async with app.run_test(size=(40, 6)) as pilot:
        log = app.query_one(EventLog)
        for batch in range(40):                       # 1,200 lines through a 500-line log
            log.add([LogLine("level", f"line {batch * 30 + i}") for i in range(30)])
            await pilot.pause()               # each batch drawn before the next
        await wait_until(pilot, lambda: "1199" in screen_text(app).split())
        shown = screen_text(app).split()
        assert "1199" in shown and "1000" not in shown
        assert len(log.lines) == MAX_LINES and log.lines[-1] == "line 1199"
        log.set_filter("judge")                       # a filter redraws from what is kept
        await wait_until(pilot, lambda: "1199" not in screen_text(app))
