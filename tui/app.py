"""The Textual app: one run of the loop in a worker, and the screens over the database.

The app owns the run: `start_run()` starts `runner.work` — the same runner as
`jobtracker work`, continuous — in an exclusive async worker, with a
`LiveReporter` among its reporters. The worker's state changes are handled here,
where it was started: a refused lease, a missing model or a crash becomes a plain
line on the dashboard, never a traceback. The app is the screens' `Host`
(tui/host.py): they read the live state through it, hear its news on `news`, and
read everything else from the database through tui/data.py. The screens it opens
by a key are listed in tui/screens/__init__.py.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.signal import Signal
from textual.worker import Worker, WorkerCancelled, WorkerFailed, WorkerState

from jobtracker import runner
from jobtracker.lease import LeaseHeld
from jobtracker.llm import tiny as tiny_model
from jobtracker.llm.local import (
    EmbeddedServer,
    LocalModelUnavailable,
    embedded_config,
    model_alias,
    start_server,
)
from jobtracker.runner import Run, RunOptions, RunResult, Setup
from jobtracker.text import one_line
from jobtracker.tracker.store import Overview
from jobtracker.workers.events import hms
from tui import screens
from tui.clock import AppClock
from tui.commands import screen_commands
from tui.fetching import Fetcher
from tui.host import ModelState, Phase
from tui.live import LiveReporter
from tui.messages import QueueSurveyed, RunChanged
from tui.screens.confirm import ConfirmQuit
from tui.screens.dashboard import dashboard_with
from tui.screens.help import HelpScreen

# How long quitting waits for cancelled workers to let go of their databases.
UNMOUNT_WAIT = 5.0


def styles_dir() -> Path:
    """The .tcss files: inside the package in a wheel, else the repository's styles/."""
    packaged = Path(__file__).resolve().parent / "styles"
    return packaged if packaged.is_dir() else Path(__file__).resolve().parent.parent / "styles"


class JobtrackerApp(App[int]):
    """`jobtracker-tui`: the dashboard, the review and the matches over one workspace."""

    CSS_PATH: ClassVar = [styles_dir() / name for name in
                          ("app.tcss", "dashboard.tcss", "review.tcss", "matches.tcss",
                           "applications.tcss", "interviews.tcss")]
    TITLE = "jobtracker"
    # ctrl+p: every action of the screen with its key (tui/commands.py), nothing else.
    ENABLE_COMMAND_PALETTE = True
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help", id="app.help",
                tooltip="every key of this screen"),
        Binding("q", "quit", "Quit", id="app.quit",
                tooltip="quit; asks first while units are in flight"),
        Binding("ctrl+q", "quit", "Quit", id="app.quit_ctrl", show=False,
                tooltip="quit; asks first while units are in flight"),
    ]

    def __init__(self, setup: Setup, options: RunOptions | None = None,
                 clock: AppClock | None = None, *, demo_model: bool = False) -> None:
        super().__init__()
        self.setup = setup
        self.demo_model = demo_model          # the bundled demo model answers (--demo)
        # With llm.gguf: the embedded server, started by the first run and kept until
        # quit, so `r` does not load the model again each time.
        self.embedded: EmbeddedServer | None = None
        # App-wide news for the screens (tui/messages.py); each subscribes to what it shows.
        self.news: Signal[Message] = Signal(self, "news")
        self.fetcher = Fetcher(self, setup, self.news)
        self.options = replace(options or RunOptions(), continuous=True)
        self.clock = clock or AppClock()
        self.clock.zone = setup.config.timezone     # times shown in the user's zone
        self.live = LiveReporter(self.clock)
        self.phase = Phase.IDLE
        self.model = ModelState(None)
        self.notice = ""                       # one plain line about the last run
        self.live_run: Run | None = None       # the live run, while its worker runs
        self.last_result: RunResult | None = None   # the last run's result
        self.model_reasons: dict[str, str | None] | None = None
        # The applications and funnel as last read (by the dashboard's recount or the
        # Applications screen): that screen shows them at once, then reads afresh.
        self.applications_read: Overview | None = None
        self._worker: Worker[RunResult] | None = None

    # --- set-up ------------------------------------------------------------------------

    def get_default_screen(self) -> Screen[Any]:
        # The dashboard, with a key for every screen the registry lists.
        return dashboard_with(screens.REGISTRY.entries)()

    def on_mount(self) -> None:
        # A fixed theme: the look does not depend on a user's saved preference.
        self.theme = "textual-dark"

    async def on_unmount(self) -> None:
        """Cancel the workers and wait for them, a few seconds at most. Textual only
        cancels them; a worker cut off mid-query leaves its connection's thread
        answering an event loop that has closed, which prints "Event loop is closed"
        tracebacks as the app exits. A screen may still start one while the others
        end (news handled meanwhile: a decision's recount), so this goes on until none
        is left."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + UNMOUNT_WAIT

        async def ended(worker: Worker[Any]) -> None:
            with contextlib.suppress(Exception):     # cancelled, failed: it has ended
                await worker.wait()

        while (left := deadline - loop.time()) > 0 and (
                going := [w for w in self.workers if not w.is_finished]):
            for worker in going:
                worker.cancel()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*map(ended, going)), timeout=left)

    @property
    def db(self) -> Path:
        return self.setup.ws.db

    @property
    def home(self) -> Path:
        return self.setup.ws.home

    def model_label(self) -> str:
        """`qwen3:8b @ gpu:8000`: the model and the server's host, for the header."""
        llm = self.setup.config.llm
        if self.demo_model:
            # Said only when the demo model really answers, whatever config.yaml calls it.
            return "DEMO MODEL (canned answers)"
        if llm.gguf is not None:
            # An embedded llama.cpp server: say so, and say when it is the tiny demo model.
            if llm.gguf.name == Path(tiny_model.MEMBER).name:
                return f"{tiny_model.NAME} (135M, demonstration only) embedded"
            return one_line(f"{model_alias(llm.gguf)} embedded")
        if not llm.url:
            return "no model server configured"
        parts = urlsplit(llm.url)
        where = parts.netloc or llm.url
        return one_line(f"{llm.model or '?'} @ {where}")

    @property
    def concurrency(self) -> int:
        return self.setup.config.concurrency

    # --- the run -----------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.phase is not Phase.IDLE

    def units_in_flight(self) -> int:
        return self.live_run.loop.counts["running"] if self.live_run is not None else 0

    def units_waiting(self) -> int:
        return self.live_run.loop.counts["waiting"] if self.live_run is not None else 0

    def reporter_errors(self) -> list[str]:
        if self.live_run is not None:
            return list(self.live_run.loop.reporter_error_lines)
        return list(self.last_result.reporter_errors) if self.last_result is not None else []

    @property
    def fetching(self) -> bool:
        return self.fetcher.busy

    def start_fetch(self) -> str | None:
        return self.fetcher.start(run_going=self.running)

    def start_run(self) -> None:
        """Start the loop (continuous: every task in priority order, re-surveying)."""
        if self.running or self.fetcher.busy:
            return
        self.live.reset()
        self.notice = ""
        self.last_result = None
        self._set_phase(Phase.STARTING)
        self._worker = self._work()

    @work(exclusive=True, group="run", exit_on_error=False, description="the run")
    async def _work(self) -> RunResult:
        setup = await self._run_setup()
        return await runner.work(setup, self.options, reporters=[self.live],
                                 on_start=self._on_run_start)

    async def _run_setup(self) -> Setup:
        """The setup a run uses: with llm.gguf, pointed at the embedded server, which
        the first run starts and later runs reuse. When it cannot start, the setup as
        it is: the run's own probe then says why, and nothing is changed."""
        llm = self.setup.config.llm
        if llm.gguf is None:
            return self.setup
        if self.embedded is None:
            try:
                self.embedded = await start_server(llm.gguf,
                                                   n_parallel=self.setup.config.concurrency)
            except LocalModelUnavailable:
                return self.setup
        local = replace(embedded_config(llm, self.embedded.base_url), gguf=None)
        return replace(self.setup, config=replace(self.setup.config, llm=local))

    async def stop_embedded(self) -> None:
        """Stop the embedded model server, if one was started (in a thread: it blocks)."""
        embedded, self.embedded = self.embedded, None
        if embedded is not None:
            await asyncio.to_thread(embedded.stop)

    def _on_run_start(self, run: Run) -> None:
        """Called by the runner once the lease is held and the model answered."""
        self.live_run = run
        self.model = ModelState(True)
        self.model_reasons = dict(run.model_reasons)
        self._set_phase(Phase.RUNNING)

    def pause_run(self) -> None:
        if self.live_run is not None and self.phase is Phase.RUNNING:
            self.live_run.pause()
            self._set_phase(Phase.PAUSED)

    def resume_run(self) -> None:
        if self.live_run is not None and self.phase is Phase.PAUSED:
            self.live_run.resume()
            self._set_phase(Phase.RUNNING)

    def stop_run(self) -> None:
        """Start nothing more; the units in flight finish and are kept."""
        if self.live_run is not None and self.phase in (Phase.RUNNING, Phase.PAUSED):
            self.live_run.stop()
            self._set_phase(Phase.STOPPING)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self._worker:
            self.fetcher.worker_changed(event)
            return
        state = event.state
        if state is WorkerState.SUCCESS:
            self._finished(event.worker.result)
        elif state is WorkerState.ERROR:
            self._failed(event.worker.error)
        elif state is WorkerState.CANCELLED:
            self.notice = "the run was cancelled; every unit committed before it is kept"
        else:
            return
        self.live_run = None
        self._worker = None
        self._set_phase(Phase.IDLE)

    def _finished(self, result: RunResult | None) -> None:
        self.last_result = result
        if result is None:
            return
        if result.model_reason is not None:
            self.model = ModelState(False, result.model_reason)
            self.model_reasons = {s.name: s.reason for s in result.states}
            self.notice = (f"no model: {result.model_reason}. " + (
                "Nothing was changed." if not result.brought_in else
                f"No unit was worked; {result.brought_in:,} row(s) of new mail stored."))
            self.news.publish(QueueSurveyed(result.states))
            return
        counts = result.counts
        if not result.worked:
            self.notice = "nothing to do: every task's queue is empty"
        else:
            self.notice = (f"run ended: {counts['finished']} finished, {counts['failed']} "
                           f"failed, {counts['skipped']} skipped in {hms(result.elapsed)}")
        if result.reporter_errors:
            self.notice += "; " + "; ".join(result.reporter_errors)

    def _failed(self, error: BaseException | None) -> None:
        if isinstance(error, LeaseHeld):
            self.notice = f"not started: {error}"
        else:
            # Shown as one plain line; the details are the runner's business, not a traceback.
            what = one_line(str(error)) if error else ""
            self.notice = f"the run stopped: {type(error).__name__}" + (f": {what}" if what else "")

    def _set_phase(self, phase: Phase) -> None:
        self.phase = phase
        self.news.publish(RunChanged(phase))

    # --- quitting ----------------------------------------------------------------------

    async def action_quit(self) -> None:
        in_flight = self.units_in_flight()
        if in_flight:
            self.push_screen(ConfirmQuit(in_flight), self._quit_confirmed)
            return
        await self.shut_down()

    async def _quit_confirmed(self, confirmed: bool | None) -> None:
        if confirmed:
            await self.shut_down()

    async def shut_down(self) -> None:
        """Cancel the run (units in flight roll back; committed ones stay), then exit."""
        for worker in (self._worker, self.fetcher.worker):
            if worker is not None and not worker.is_finished:
                worker.cancel()
                with contextlib.suppress(WorkerCancelled, WorkerFailed):
                    await worker.wait()
        await self.stop_embedded()
        self.exit(0)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette (ctrl+p): every action of this screen that applies now,
        with its key; Textual's own entries (themes, screenshots) are left out."""
        yield from screen_commands(screen, self)

    async def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        await self.push_screen(HelpScreen(self.screen))
