"""App-wide news: small classes carrying the data they announce.

The app publishes them on its `news` signal (`Host.news`, a Textual `Signal`); a
screen that shows what one changes subscribes in `on_mount` and gets each as a
message of its own (`@on(RunChanged)`), whether or not it is the screen on top.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.message import Message

from jobtracker.runner import TaskState
from tui.host import Phase


class RunChanged(Message):
    """The run started, paused, resumed, is stopping, or ended (`phase` says which)."""

    def __init__(self, phase: Phase) -> None:
        super().__init__()
        self.phase = phase


class QueueSurveyed(Message):
    """A fresh survey of the task queue (a run's own, e.g. with the model's reasons)."""

    def __init__(self, states: Sequence[TaskState]) -> None:
        super().__init__()
        self.states = list(states)


class DecisionsMade(Message):
    """Proposals were decided (or a decision undone): counts shown elsewhere change."""


class FetchLine(Message):
    """A board was fetched (or failed): its line for the log."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class FetchEnded(Message):
    """The fetch ended; `text` says how (totals, or why it stopped)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text
