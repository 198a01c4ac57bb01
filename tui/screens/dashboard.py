"""The dashboard: the queue, the units in flight, the event log and the progress.

Live state comes from the app's `LiveReporter`, read every `REFRESH` seconds and
written into the widgets inside one `batch_update()`, so a flood of events costs
the UI a few redraws a second, never one per event. The queue is re-surveyed
from the database when a stage ends, when a run starts or stops and after a fetch
(`F`, tui/fetching.py), whose boards are logged one line each as they finish.
The run's phase, surveys, decisions and the fetch's lines arrive as the app's
news (tui/messages.py).

The keys that open other screens come from their registry (tui/screens/__init__.py):
`dashboard_with(REGISTRY.entries)` is this screen with a key for each, which is what the app
shows. Textual reads a screen's keys, in order, from its class (`BINDINGS`: the
footer, `?` and ctrl+p all read them there), so the registry makes the class.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from functools import cache
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from jobtracker.interviews.store import said
from jobtracker.runner import TaskState
from tui import data
from tui.fetching import fetched_label
from tui.host import Host, Phase
from tui.literal import block, plain
from tui.live import InFlight
from tui.messages import DecisionsMade, FetchEnded, FetchLine, QueueSurveyed, RunChanged
from tui.screens import REGISTRY, Opened
from tui.widgets.eventlog import EventLog
from tui.widgets.header import HeaderLine
from tui.widgets.inflight import InFlightTable
from tui.widgets.progress import Progress, ProgressLine
from tui.widgets.queue import QueueTable

# Seconds between reads of the live state. Every refresh during a run repaints from
# the queue down to the progress line (Textual composes the box around all the
# changed widgets), so this rate is most of what the UI costs a run: at 0.25 s the
# app took 1.18x a headless run's CPU, at 0.5 s 1.10x (tests/perf/bench_tui.py).
# Twice a second still reads as live.
REFRESH = 0.5
# Refreshes between writes to the event log during a run: new lines scroll the
# whole log, the biggest repaint of all.
LOG_EVERY = 1
WAITING_EVERY = 10     # refreshes between recounts of the proposals waiting, during a run


def next_interview_today(found: data.Overview, now: datetime) -> str:
    """`today 14:00 Acme`: the first interview still to come today, `now` being the
    user's time (the app's clock in `timezone:`); "" when there is none."""
    return next((text for text in (said(item, now) for item in found.interviews)
                 if text.startswith("today ")), "")


# The run's keys come first in the footer, then the screens', then the log's.
RUN_KEYS: list[BindingType] = [
    Binding("r", "start", "Start", id="dashboard.start",
            tooltip="start the loop: every task in priority order"),
    Binding("r", "pause", "Pause", id="dashboard.pause",
            tooltip="admit no new units; the ones in flight finish"),
    Binding("r", "resume", "Resume", id="dashboard.resume",
            tooltip="admit units again"),
    Binding("s", "stop", "Stop", id="dashboard.stop",
            tooltip="stop after the units in flight; they are kept"),
]
LOG_KEYS: list[BindingType] = [
    # Not in the footer, which must fit 80 columns while a run adds `s Stop`:
    # `?` and ctrl+p list it.
    Binding("f", "filter", "Filter", id="dashboard.filter", show=False,
            tooltip="show one task's events in the log (again: the next task, then all)"),
    Binding("F", "fetch", "Fetch", id="dashboard.fetch",
            tooltip="fetch the boards in sources.yaml now, a line per board in the log"),
]


class Dashboard(Screen[None]):
    """The dashboard's workings; `dashboard_with` gives it its keys."""

    HELP_TITLE = "Dashboard"
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (120, "-wide")]
    OPENS: ClassVar[dict[str, Opened]] = {}    # the screens its keys open, by name
    app: Host

    def __init__(self) -> None:
        super().__init__()
        self._seen_version = -1
        self._seen_stages = 0
        self._reporter_errors_said = 0
        self._ticks = 0
        self._waiting = 0
        self._due = 0
        self._interview = ""
        # Per task: (done when last surveyed, pending then) — a bar's total is their sum.
        self._baseline: dict[str, tuple[int, int]] = {}
        self._states: list[TaskState] = []
        self._fetched: str | None = None       # the boards' newest last_fetched
        self._no_postings = False

    def compose(self):
        yield HeaderLine(id="header")
        with Horizontal(id="top"):
            with Vertical(id="queue-pane", classes="pane"):
                yield QueueTable(id="queue")
            with Vertical(id="in-flight-pane", classes="pane"):
                yield InFlightTable(id="in-flight")
        with Vertical(id="events-pane", classes="pane"):
            yield EventLog(id="events")
        yield Static(id="notice", markup=False)
        yield ProgressLine(id="progress")
        yield Footer()

    def on_mount(self) -> None:
        # The app's news arrives as this screen's own messages, even while it is covered.
        self.app.news.subscribe(self, self.post_message, immediate=True)
        self.query_one("#queue-pane").border_title = "Queue"
        self.query_one("#events-pane").border_title = "Events"
        self.query_one("#in-flight-pane").border_title = "In flight"
        self._show_header()
        self.refresh_queue()
        self.refresh_waiting()
        self.refresh_fetched()
        self.set_interval(REFRESH, self.tick)
        # The age of the last fetch moves on by itself.
        self.set_interval(60, self._show_header)
        self.tick()

    def on_screen_resume(self) -> None:
        # Back from the review or the matches: decisions may have changed the counts.
        self.refresh_waiting()

    # --- reading the database ----------------------------------------------------------

    @work(exclusive=True, group="survey", exit_on_error=False)
    async def refresh_queue(self) -> None:
        self._show_states(await data.survey(self.app.setup, self.app.model_reasons))

    @work(exclusive=True, group="waiting", exit_on_error=False)
    async def refresh_waiting(self) -> None:
        self._waiting = await data.waiting_count(self.app.db, self.app.home)
        zone = self.app.setup.config.timezone
        found = await data.overview(self.app.db, self.app.setup.config.followup,
                                    self.app.clock.today(zone), self.app.clock.now())
        self.app.applications_read = found
        self._due = found.summary["due"]
        self._interview = next_interview_today(found, self.app.clock.local_now(zone))
        if not self.app.running:   # during a run, the next refresh shows it: no extra frame
            self._show_progress()

    @work(exclusive=True, group="fetched", exit_on_error=False)
    async def refresh_fetched(self) -> None:
        """The last fetch's time and whether there are postings at all."""
        db = self.app.db
        self._fetched = await data.last_fetched(db)
        self._no_postings = not await data.has_postings(db)
        self._show_header()
        self._show_notice()

    @on(QueueSurveyed)
    def _surveyed(self, message: QueueSurveyed) -> None:
        self._show_states(message.states)

    @on(DecisionsMade)
    def _decided(self) -> None:
        self.refresh_waiting()

    def _show_states(self, states: list[TaskState]) -> None:
        live = self.app.live
        self._states = states
        # Unavailable tasks get no bar: nothing of theirs can be done in this run.
        self._baseline = {s.name: (live.done(s.name).done, s.pending) for s in states
                          if s.available}
        self._show_queue()
        self._show_progress()

    def _show_queue(self) -> None:
        """The last survey, less what the run has done since: the queue counts down
        between surveys instead of standing still until a stage ends."""
        live = self.app.live
        states = []
        for state in self._states:
            done_then, _ = self._baseline.get(state.name, (0, 0))
            since = live.done(state.name).done - done_then
            states.append(replace(state, pending=max(state.pending - since, 0)))
        self.query_one(QueueTable).show(states, live.counts)

    # --- the run -----------------------------------------------------------------------

    @on(RunChanged)
    def _run_changed(self, message: RunChanged) -> None:
        self._show_header()
        if message.phase in (Phase.RUNNING, Phase.IDLE):
            self.refresh_queue()
            self.refresh_waiting()
        if message.phase is Phase.STARTING:
            self._reporter_errors_said = 0   # a new run: its reporters have said nothing
        if message.phase is Phase.IDLE:
            self.tick()
            self._say_reporter_errors()
            if self.app.notice:
                self.query_one(EventLog).note(self.app.notice)
        self._show_notice()
        self.refresh_bindings()   # which run keys apply follows the phase

    def tick(self) -> None:
        """Bring the widgets up to date with the live state (a few times a second)."""
        app = self.app
        live = app.live
        units = live.units()
        self._ticks += 1
        if app.running and self._ticks % WAITING_EVERY == 0:
            self.refresh_waiting()
        log_due = not app.running or self._ticks % LOG_EVERY == 0
        if live.version == self._seen_version and not units and not (
                log_due and live.has_lines):
            return
        self._seen_version = live.version
        with app.batch_update():
            if log_due and live.has_lines:
                self.query_one(EventLog).add(*live.take_lines())
            self.query_one(InFlightTable).show(units, app.clock.monotonic())
            self._title_in_flight(units)
            self._show_queue()
            self._show_progress()
        if live.stages != self._seen_stages:
            self._seen_stages = live.stages
            self.refresh_queue()
        self._say_reporter_errors()

    def _say_reporter_errors(self) -> None:
        """A reporter that stopped mid-run (events.jsonl on a full disk) is said once, as a
        notification, when it happens — or when the run ends, for a run too short for a
        refresh to see it; the run's closing notice repeats it."""
        lines = self.app.reporter_errors()
        for line in lines[self._reporter_errors_said:]:
            self.notify(plain(line), title="Events", severity="warning", markup=False,
                        timeout=10)
        self._reporter_errors_said = len(lines)

    def _title_in_flight(self, units: list[InFlight]) -> None:
        # In flight: asking the model, at most `concurrency`; a unit with its answer that
        # waits its turn to write holds no slot and is counted apart.
        writing = sum(unit.writing for unit in units)
        waiting = self.app.units_waiting()
        title = f"In flight {len(units) - writing}/{self.app.concurrency}"
        if writing:
            title += f" · {writing} writing"
        if waiting:
            title += f" · {waiting:,} queued"
        pane = self.query_one("#in-flight-pane")
        if pane.border_title != title:   # setting it, even unchanged, repaints the pane
            pane.border_title = title

    def _show_header(self) -> None:
        app = self.app
        phase = "fetching" if app.fetching else str(app.phase)
        self.query_one(HeaderLine).show(app.home, app.model_label(), app.model.ok, phase,
                                        fetched_label(self._fetched))

    def no_postings_hint(self) -> str:
        path = self.app.home / "sources.yaml"
        return (f"No postings yet: F fetches the boards in sources.yaml; add yours to "
                f"{path} first (it has examples).")

    def _show_notice(self) -> None:
        notice = self.app.notice if not self.app.running else ""
        if self._no_postings and not self.app.running and not self.app.fetching:
            # Said instead of a bare "nothing to do": there is nothing because nothing came in.
            notice = self.no_postings_hint() if not notice or notice.startswith(
                "nothing to do") else f"{notice}\n{self.no_postings_hint()}"
        widget = self.query_one("#notice", Static)
        # Wrapped, not cut: a refused lease or a missing model must be readable at 80 columns.
        widget.update(block(notice, style="bold") if notice else Text(""))
        widget.display = bool(notice)

    def _show_progress(self) -> None:
        live = self.app.live
        items = []
        for name, (done_then, pending_then) in self._baseline.items():
            counts = live.done(name)
            total = done_then + pending_then
            if counts.done or (self.app.running and total):
                items.append(Progress(name, counts.done, max(total, counts.done),
                                      counts.failed))
        self.query_one(ProgressLine).show(items, self._waiting, self._due, self._interview)

    # --- keys --------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which of the run keys apply now: hidden (False) or dimmed (None) otherwise."""
        phase = self.app.phase
        busy = phase in (Phase.STARTING, Phase.STOPPING)
        if action == "start":
            return (None if self.app.fetching else True) if phase is Phase.IDLE else False
        # `F` is always live: while a run or another fetch goes, pressing it says why not.
        if action == "pause":
            return True if phase is Phase.RUNNING else (None if busy else False)
        if action == "resume":
            return phase is Phase.PAUSED
        if action == "stop":
            return True if phase in (Phase.RUNNING, Phase.PAUSED) else (None if busy else False)
        return True

    def action_start(self) -> None:
        self.app.start_run()

    def action_fetch(self) -> None:
        refused = self.app.start_fetch()
        log = self.query_one(EventLog)
        if refused is not None:
            log.note(refused)
            self.notify(refused, title="Fetch", severity="warning", markup=False)
            return
        log.note("fetching the boards in sources.yaml …")
        self._show_header()
        self._show_notice()
        self.refresh_bindings()

    @on(FetchLine)
    def _fetch_line(self, message: FetchLine) -> None:
        self.query_one(EventLog).note(message.text)

    @on(FetchEnded)
    def _fetch_ended(self, message: FetchEnded) -> None:
        self.query_one(EventLog).note(message.text)
        self.refresh_queue()
        self.refresh_fetched()
        self._show_header()
        self.refresh_bindings()

    def action_pause(self) -> None:
        self.app.pause_run()

    def action_resume(self) -> None:
        self.app.resume_run()

    def action_stop(self) -> None:
        self.app.stop_run()

    def action_open(self, name: str) -> None:
        """Open the registry's screen `name` (its key's action)."""
        self.app.push_screen(self.OPENS[name].screen())

    def action_filter(self) -> None:
        log = self.query_one(EventLog)
        names = [t.name for t in self.app.setup.tasks]
        choices: list[str | None] = [None, *names]
        following = choices[(choices.index(log.only) + 1) % len(choices)] \
            if log.only in choices else None
        log.set_filter(following)
        title = "Events" if following is None else f"Events — {following} only (f: next)"
        self.query_one("#events-pane").border_title = title


@cache
def dashboard_with(screens: tuple[Opened, ...]) -> type[Dashboard]:
    """The dashboard with a key for each of `screens`, between the run's keys and the
    log's; one class per registry, so the app's dashboard is always `DashboardScreen`
    unless a test adds a screen."""
    keys = [*RUN_KEYS, *(opened.binding for opened in screens), *LOG_KEYS]
    return type("DashboardScreen", (Dashboard,), {
        "__module__": __name__, "__doc__": Dashboard.__doc__, "BINDINGS": keys,
        "OPENS": {opened.name: opened for opened in screens}})


DashboardScreen = dashboard_with(REGISTRY.entries)
