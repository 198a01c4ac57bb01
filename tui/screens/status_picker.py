"""The status picker: a short list of the application statuses, as a dialog.

The matches and the applications screens both open it (`s`); it only answers
with the status picked (or None), and the screen that asked writes it.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from jobtracker.config import STATUSES
from tui.widgets.cursor import move_cursor


class StatusPicker(ModalScreen[str | None]):
    """A short list of the application statuses; enter picks, escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="status.cancel", tooltip="change nothing"),
        Binding("j", "move(1)", "Next", id="status.next", show=False, tooltip="the next status"),
        Binding("k", "move(-1)", "Previous", id="status.previous", show=False,
                tooltip="the previous status"),
    ]

    def __init__(self, current: str | None) -> None:
        super().__init__()
        self.current = current

    def compose(self):
        with Vertical(id="dialog"):
            yield Static("Set the application's status", id="question", markup=False)
            yield OptionList(*(Option(Text(s + ("  (now)" if s == self.current else "")),
                                      id=s) for s in STATUSES), id="statuses")
            yield Static("enter pick   escape cancel", id="choices", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        if self.current in STATUSES:
            options.highlighted = STATUSES.index(self.current)
        options.focus()

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_move(self, step: int) -> None:
        move_cursor(self.query_one(OptionList), step)
