"""`F` on the dashboard: fetch the boards now, one line of progress per board (and one
per job-alert sender when a mailbox is configured: docs/alerts.md).

The fetch is jobtracker/postings/fetch.py's `fetch_workspace` — the same as `jobtracker
fetch` — run in an app worker under the workspace's lease, so a run (here or
from a timer) and a fetch never write postings at the same time. This module
holds the app's one fetch (`Fetcher`: refused during a run or another fetch, its
worker's end said in one line), the lines it announces (one per board, the
closing line; on the app's news as `FetchLine`/`FetchEnded`) and the age of the
last fetch for the header.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from textual.app import App
from textual.message import Message
from textual.signal import Signal
from textual.worker import Worker, WorkerState

from jobtracker.clock import now
from jobtracker.config import Sources
from jobtracker.lease import Lease, LeaseHeld
from jobtracker.postings.alerts import AlertResult, AlertSettings
from jobtracker.postings.fetch import BoardResult, all_targets, fetch_workspace
from jobtracker.ranking import prerank
from jobtracker.run.setup import sources_of
from jobtracker.runner import Setup
from jobtracker.text import one_line
from jobtracker.yamlfile import ConfigError
from tui.data import FETCH_FAILED
from tui.messages import FetchEnded, FetchLine


class Fetcher:
    """The app's fetch: one at a time, never while a run holds the workspace. Its
    worker is the app's (`app`), its lines go out on the app's `news`."""

    def __init__(self, app: App[Any], setup: Setup, news: Signal[Message]) -> None:
        self.app = app
        self.setup = setup
        self.news = news
        self.worker: Worker[list[BoardResult]] | None = None
        # Where the boards are read from, when not their real addresses: the demo's
        # own copy on loopback (jobtracker.demo.load.DemoBoards.localize).
        self.localize: Callable[[Sources], Sources] | None = None

    @property
    def busy(self) -> bool:
        return self.worker is not None

    def start(self, run_going: bool) -> str | None:
        """Start fetching every board and feed; the reason, one line, when refused."""
        if self.busy:
            return "a fetch is already going; its boards show in the log as they finish"
        if run_going:
            return "not fetched: a run is going; fetch once it has ended (s stops it)"
        path = self.setup.ws.home / "sources.yaml"
        try:
            sources = sources_of(self.setup.ws)
        except ConfigError as exc:
            return f"not fetched: {one_line(str(exc))}"
        if self.localize is not None:
            sources = self.localize(sources)
        total = len(all_targets(sources))
        if not total and AlertSettings.of(self.setup.config) is None:
            return f"nothing to fetch: {path} names no board or feed yet; add some there"
        self.worker = self.app.run_worker(self._fetch(sources, total), group="fetch",
                                          exit_on_error=False, description="the fetch")
        return None

    async def _fetch(self, sources: Sources, total: int) -> list[BoardResult]:
        done = 0

        def board_done(result: BoardResult) -> None:
            nonlocal done
            said = getattr(result, "line", None)    # a sender's (or the board search's)
            if said is not None:                     # line, after the boards
                self.news.publish(FetchLine(f"fetch {said()}"))
                return
            done += 1
            self.news.publish(FetchLine(board_line(result, done, total)))

        setup = self.setup
        # Under the run's lease: a run started elsewhere (a timer) waits its turn, and
        # this fetch is refused while one holds the workspace.
        with Lease(setup.ws.lock):
            return await fetch_workspace(
                setup.ws.db, sources, on_board_done=board_done,
                deadline=setup.config.fetch_deadline, alert_mail=AlertSettings.of(setup.config),
                prerank_query=prerank.workspace_query(setup.ws.home, setup.profile))

    def worker_changed(self, event: Worker.StateChanged) -> None:
        """Handled by the app, where the worker was started: the end in one line."""
        if self.worker is None or event.worker is not self.worker:
            return
        if event.state is WorkerState.SUCCESS:
            text = summary_line(event.worker.result or [])
        elif event.state is WorkerState.ERROR:
            error = event.worker.error
            if isinstance(error, LeaseHeld):
                text = f"not fetched: {error}"
            else:
                what = one_line(str(error)) if error else ""
                text = f"the fetch stopped: {type(error).__name__}" + (f": {what}" if what
                                                                         else "")
        elif event.state is WorkerState.CANCELLED:
            text = "the fetch was cancelled; the boards written before it are kept"
        else:
            return
        self.worker = None
        self.news.publish(FetchEnded(text))


def board_line(result: BoardResult, done: int, total: int) -> str:
    """`fetch 2/5 greenhouse:acme  3 new, 1 closed (0.4s)`, or `… FAILED reason`."""
    head = f"fetch {done}/{total} {one_line(result.name)}"
    if not result.ok:
        return f"{head}  FAILED {one_line(result.error or 'an error')}"
    if result.not_modified:
        return f"{head}  not modified ({result.seconds:.1f}s)"
    return (f"{head}  {result.new} new, {result.updated} updated, {result.closed} closed "
            f"({result.seconds:.1f}s)")


def summary_line(results: list[BoardResult]) -> str:
    """The closing line: totals, and how many boards failed (alert senders' postings
    counted in the totals, their lines above)."""
    failed = sum(not r.ok for r in results)
    boards = sum(not isinstance(r, AlertResult) for r in results)
    line = (f"fetched {boards} board(s): {sum(r.new for r in results)} new, "
            f"{sum(r.closed for r in results)} closed")
    return line + (f"; {failed} failed (their reasons are above)" if failed else "")


def age(last: str | None, moment: datetime | None = None) -> str:
    """`fetched 5m ago` from a stored ISO time; `never fetched` without one."""
    if not last:
        return "never fetched"
    try:
        then = datetime.fromisoformat(last.replace("Z", "+00:00"))
    except ValueError:
        return "never fetched"
    seconds = max(((moment or now()) - then).total_seconds(), 0)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"fetched {int(seconds // size)}{unit} ago"
    return "fetched just now"


def fetched_label(last: str | None, moment: datetime | None = None) -> str:
    """What the header says of `data.last_fetched`'s answer."""
    return last if last == FETCH_FAILED else age(last, moment)
