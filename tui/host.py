"""What a screen may ask of the app: the `Host` protocol, the run's `Phase`, the model's state.

Screens declare `app: Host`, so what they lean on is written down here and nowhere
deeper: a screen reads the run through these few names (never the runner's loop),
asks the app to start, pause or stop it, and hears app-wide news on `news` (a
Textual `Signal`). Everything a screen reads from or writes to the database goes
through `tui.data`. The app (`tui.app.JobtrackerApp`) is the one Host; this module
imports neither it nor any screen, so nothing in the TUI imports in a circle.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from textual.geometry import Size
from textual.message import Message
from textual.screen import Screen
from textual.signal import Signal

from jobtracker.runner import Setup
from jobtracker.tracker.store import Overview
from tui.clock import AppClock
from tui.live import LiveReporter


class Phase(StrEnum):
    """Where the app's run is: its value is the word the header shows."""

    IDLE = "idle"
    STARTING = "starting"
    RUNNING = "running"
    PAUSED = "paused"
    STOPPING = "stopping"


@dataclass(frozen=True)
class ModelState:
    """What the header says about the model server."""

    ok: bool | None        # None: not asked yet
    detail: str = ""       # why not, when not ok


class Host(Protocol):
    """The app as its screens see it."""

    # --- the workspace ----------------------------------------------------------------
    setup: Setup
    clock: AppClock

    @property
    def db(self) -> Path: ...

    @property
    def home(self) -> Path: ...

    # --- the run, as it goes ----------------------------------------------------------
    live: LiveReporter                 # what the run did, read a few times a second
    phase: Phase
    model: ModelState
    notice: str                        # one plain line about the last run
    # Each task's reason to be unavailable, as the last run found (None: not asked yet).
    model_reasons: dict[str, str | None] | None
    # The applications and the funnel as last read, to show at once while read afresh.
    applications_read: Overview | None
    # App-wide news (tui/messages.py): a run's phase, a survey, decisions, a fetch.
    news: Signal[Message]

    @property
    def running(self) -> bool: ...

    @property
    def concurrency(self) -> int: ...

    @property
    def fetching(self) -> bool: ...

    def model_label(self) -> str: ...

    def units_in_flight(self) -> int: ...

    def units_waiting(self) -> int:
        """Units admitted to the run's queue but not started yet."""
        ...

    def reporter_errors(self) -> list[str]:
        """Why a reporter of the run in progress (else the last run) stopped."""
        ...

    def start_run(self) -> None: ...

    def pause_run(self) -> None: ...

    def resume_run(self) -> None: ...

    def stop_run(self) -> None: ...

    def start_fetch(self) -> str | None:
        """Fetch the boards now; the reason, one line, when refused."""
        ...

    # --- Textual's own, as screens use it ---------------------------------------------
    @property
    def size(self) -> Size: ...

    def push_screen(self, screen: Screen[Any], callback: Callable[[Any], Any] | None = None,
                    ) -> Any: ...

    def pop_screen(self) -> Any: ...

    def copy_to_clipboard(self, text: str) -> None: ...

    def batch_update(self) -> AbstractContextManager[None]: ...

    def suspend(self) -> AbstractContextManager[None]: ...
