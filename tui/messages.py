"""App-level messages: small classes carrying the data they announce."""

from __future__ import annotations

from collections.abc import Sequence

from textual.message import Message

from jobtracker.runner import TaskState


class RunChanged(Message):
    """The run started, paused, resumed, is stopping, or ended (`phase` says which)."""

    def __init__(self, phase: str) -> None:
        super().__init__()
        self.phase = phase


class QueueSurveyed(Message):
    """A fresh survey of the task queue (a run's own, e.g. with the model's reasons)."""

    def __init__(self, states: Sequence[TaskState]) -> None:
        super().__init__()
        self.states = list(states)


class DecisionsMade(Message):
    """Proposals were decided (or a decision undone): counts shown elsewhere change."""
