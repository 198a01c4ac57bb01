"""Asking before quitting while units are in flight."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static


class ConfirmQuit(ModalScreen[bool]):
    """Dismisses with True to quit (cancelling the units in flight), False to stay."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Quit", id="confirm.yes",
                tooltip="cancel the units in flight and quit"),
        Binding("n", "answer(False)", "Stay", id="confirm.no", tooltip="keep the run going"),
        Binding("escape", "answer(False)", "Stay", id="confirm.escape", show=False,
                tooltip="keep the run going"),
    ]

    def __init__(self, in_flight: int) -> None:
        super().__init__()
        self.in_flight = in_flight

    def compose(self):
        units = f"{self.in_flight} unit{'s' if self.in_flight != 1 else ''}"
        with Vertical(id="dialog"):
            yield Static(f"{units} in flight. Quit now?", id="question", markup=False)
            yield Static("They are cancelled and rolled back; every unit committed so far "
                         "is kept, and the next run asks the cancelled ones again.",
                         id="explain", markup=False)
            yield Static("y quit   n stay", id="choices", markup=False)
        yield Footer()

    def action_answer(self, quit_now: bool) -> None:
        self.dismiss(quit_now)
