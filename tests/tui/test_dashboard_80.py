"""The dashboard at 80×24, as a new user meets it: the log keeps following its end
when a notice takes a row, an event line keeps its verdict and duration, a stage's
closing line counts its own task, the demo's `F` reads the demo's own boards, and
the header never calls a fetch that reached no board a fresh one."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from textual.app import App

from jobtracker import store
from jobtracker.demo.session import demo_session
from jobtracker.postings.fetch import fetch_workspace
from jobtracker.run.setup import sources_of
from jobtracker.runner import load_setup
from jobtracker.workers.events import JobFinished, StageFinished
from jobtracker.workers.loop import JobLoop
from tests.tui.fixtures import make_workspace, screen_text, seed_review, wait_until
from tui.app import JobtrackerApp
from tui.data import FETCH_FAILED, last_fetched
from tui.fetching import fetched_label
from tui.live import LiveReporter
from tui.widgets.eventlog import EventLog
from tui.widgets.progress import Progress, ProgressLine

SIZE = (80, 24)
MOMENT = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


async def test_the_log_follows_its_end_after_a_notice_takes_a_row(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path)
    app = JobtrackerApp(load_setup(ws))
    async with app.run_test(size=SIZE) as pilot:
        log = app.screen.query_one(EventLog)
        for i in range(30):
            log.note(f"line {i}")
        # The log draws its lines in batches: wait for the last one, not a fixed time.
        await wait_until(pilot, lambda: "line 29" in screen_text(app))
        assert log.is_vertical_scroll_end
        # A run ended: its notice shows under the log, which loses rows to it.
        app.notice = "run ended: 47 finished, 0 failed, 0 skipped in 0:00:04\nsecond line"
        app.screen._show_notice()
        await wait_until(pilot, lambda: "second line" in screen_text(app))
        log.note("the newest line")
        await wait_until(pilot, lambda: "the newest line" in screen_text(app))
        assert log.is_vertical_scroll_end


@pytest.fixture
def short_base() -> Iterator[Path]:
    """A folder whose path has the same length however pytest runs (under pytest-xdist,
    tmp_path gains a `popen-gwN/` part, and the hint names the workspace's path)."""
    base = Path(tempfile.mkdtemp(prefix="jt-notice-", dir="/tmp"))
    try:
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


async def test_a_long_notice_is_shown_whole_not_cut_mid_sentence(short_base: Path) -> None:
    """No model and no postings at 80×24: the run's reason and the hint under it, both
    to their last word."""
    ws = make_workspace(short_base / "a-somewhat-longer-folder-name-for-the-workspace")
    app = JobtrackerApp(load_setup(ws))
    async with app.run_test(size=SIZE) as pilot:
        app.notice = ("no model: model server at http://127.0.0.1:9/v1 unreachable: "
                      "ConnectError. Nothing was changed.")
        app.screen._show_notice()
        await wait_until(pilot, lambda: "(it has examples)." in screen_text(app))
        assert "Nothing was changed." in screen_text(app)


def finished(label: str, verdict: str) -> JobFinished:
    return JobFinished(job=label, kind="judge", key=label, result=verdict, elapsed=3.0,
                       time=MOMENT)


class LogOnly(App[None]):
    def compose(self):
        yield EventLog(id="events")


async def test_an_event_line_at_80_columns_keeps_its_verdict_and_duration() -> None:
    live = LiveReporter()
    label = "Northwind Robotics — Senior Backend Engineer, Payments Platform (Remote, EU)"
    live.emit(finished(label, "strong"))
    app = LogOnly()
    async with app.run_test(size=SIZE) as pilot:
        log = app.query_one(EventLog)
        log.add(*live.take_lines())
        await pilot.pause(0.1)
        (shown,) = [line for line in log.lines if line]
        assert len(shown) <= log.scrollable_content_region.width
        assert shown.endswith("strong  0:00:03")
        assert "Northwind Robotics — Senior" in shown and "…" in shown
        assert log.max_scroll_x == 0
        await pilot.resize_terminal(160, 24)              # wider: the whole label again
        await pilot.pause(0.2)
        assert label in log.lines[0]


async def test_a_stages_closing_line_counts_its_own_task() -> None:
    class Done:
        async def done(self, job) -> bool:
            return False

        async def run(self, job) -> str:
            return "ok"

        async def follow_ups(self, job, result) -> list:
            return []

    class Unit:
        def __init__(self, kind: str, n: int) -> None:
            self.kind, self.key, self.label = kind, f"{kind}{n}", f"{kind} {n}"

    events: list = []

    class Collect:
        def emit(self, event) -> None:
            events.append(event)

    loop = JobLoop({"level": Done(), "judge": Done()}, concurrency=2, reporters=[Collect()],
                   stage="level")
    for n in range(6):
        loop.submit(Unit("level", n))
    await loop.run()
    loop.stage = "judge"
    for n in range(18):
        loop.submit(Unit("judge", n))
    await loop.run()
    ends = [(e.stage, e.finished) for e in events if isinstance(e, StageFinished)]
    assert ends == [("level", 6), ("judge", 18)]


async def test_follow_ups_in_a_stage_get_their_own_closing_line() -> None:
    """A tailor's cover letters run in the tailor stage: the log ends each task with its
    own `end` line and counts, tailor's before coverletter's."""
    class Unit:
        def __init__(self, kind: str, n: int) -> None:
            self.kind, self.key, self.label = kind, f"{kind}{n}", f"{kind} {n}"

    class Tailor:
        async def done(self, job) -> bool:
            return False

        async def run(self, job) -> str:
            return "ok"

        async def follow_ups(self, job, result) -> list:
            return [Unit("coverletter", int(job.key.removeprefix("tailor")))] \
                if job.kind == "tailor" else []

    live = LiveReporter()
    loop = JobLoop({"tailor": Tailor(), "coverletter": Tailor()}, concurrency=1,
                   reporters=[live], stage="tailor")
    for n in range(2):
        loop.submit(Unit("tailor", n))
    await loop.run()
    lines = [line.text for line in live.take_lines()[0]]
    ends = [text.split()[1:4] for text in lines if text.split()[1] == "end"]
    assert ends == [["end", "tailor", "2"], ["end", "coverletter", "2"]], lines


class ProgressOnly(App[None]):
    def compose(self):
        yield ProgressLine(id="progress")


async def test_the_progress_line_at_80_columns_cuts_no_task_name() -> None:
    items = [Progress("level", 8, 30), Progress("judge", 2, 2), Progress("tailor", 2, 2),
             Progress("coverletter", 1, 2), Progress("answer", 0, 3)]
    app = ProgressOnly()
    async with app.run_test(size=SIZE) as pilot:
        widget = app.query_one(ProgressLine)
        widget.show(items, 4, 2, "today 14:00 Acme")
        await pilot.pause(0.1)
        shown = widget.render().plain
        assert "…" not in shown, shown
        assert shown.rstrip().endswith("interview today 14:00 Acme · 2 due · 4 proposals "
                                       "waiting")
        assert shown.startswith("all ") and "13/39" in shown, "the total stands in for them"
        widget.show(items[:4], 4)                       # room again: every task, no cut
        await pilot.pause(0.1)
        shown = widget.render().plain
        assert "coverletter 1/2" in shown and "…" not in shown, shown


def test_the_demo_fetch_reads_the_demos_own_boards_on_loopback(tmp_path: Path) -> None:
    with demo_session(str(tmp_path / "demo")) as session:
        assert session.boards is not None
        local = session.boards.localize(sources_of(session.ws))
        urls = [b.url for b in local.boards] + [f.url for f in local.feeds]
        assert urls and all(url and url.startswith("http://127.0.0.1:") for url in urls)
        results = asyncio.run(fetch_workspace(session.ws.db, local))
        assert [r.ok for r in results] == [True] * len(urls)


def test_the_demo_app_is_given_the_loopback_boards(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """`jobtracker-tui --demo` hands the app's fetch (`F`) the demo's loopback boards."""
    from tui import cli

    seen: list[object] = []
    monkeypatch.setattr(JobtrackerApp, "run",
                        lambda self, **kwargs: seen.append(self.fetcher.localize))
    assert cli.main(["--demo", "--home", str(tmp_path / "demo")]) == 0
    (localize,) = seen
    assert callable(localize)


async def test_the_header_after_a_fetch_that_reached_no_board(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    async with store.connect(db):
        pass
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO boards (source, token, company, last_fetched, last_ok, "
                     "last_error) VALUES ('greenhouse', 'a', 'A', '2026-11-30T11:59:50Z', "
                     "'2026-11-27T12:00:00Z', 'HTTP 404')")
        conn.execute("INSERT INTO boards (source, token, company, last_fetched, last_error) "
                     "VALUES ('greenhouse', 'b', 'B', '2026-11-30T11:59:55Z', 'timeout')")
    assert await last_fetched(db) == FETCH_FAILED
    assert fetched_label(await last_fetched(db), MOMENT) == "last fetch failed"
    with sqlite3.connect(db) as conn:          # one board answers: its success counts
        conn.execute("UPDATE boards SET last_ok = '2026-11-30T11:59:58Z', last_error = NULL "
                     "WHERE token = 'b'")
    assert fetched_label(await last_fetched(db), MOMENT) == "fetched just now"
    with sqlite3.connect(db) as conn:          # the age is the last success's, not an attempt's
        conn.execute("UPDATE boards SET last_ok = '2026-11-29T12:00:00Z', "
                     "last_fetched = '2026-11-30T11:59:59Z' WHERE token = 'b'")
    assert fetched_label(await last_fetched(db), MOMENT) == "fetched 1d ago"


async def test_the_demos_queue_at_80x24_names_the_tasks_below_its_pane(tmp_path: Path) -> None:
    from tui.clock import FrozenClock

    ws = make_workspace(tmp_path, None, tasks="level: true, judge: true, inbox: true")
    seed_review(ws)      # postings: no notice under the log takes rows from the panes
    (ws.home / "plugins.yaml").write_text(
        "tasks: {level: true, judge: true, inbox: true, tailor: true, answer: true, "
        "coverletter: true}\n")
    app = JobtrackerApp(load_setup(ws), clock=FrozenClock())
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: "↓ 2 more: answer, coverletter" in screen_text(app))
        await pilot.resize_terminal(120, 40)              # room: every row, no hint
        # The rows and the hint change in separate redraws after a resize: waited for both.
        await wait_until(pilot, lambda: " coverletter " in screen_text(app)
                         and "more: " not in screen_text(app))
