"""The reason picker behind `d` on the matches screen: why this match is not for you.

The reasons are `jobtracker matches dismiss`'s own (jobtracker/learning/dismissals.py),
so the screen and the command record the same decision. An optional note goes with
it; enter on a reason dismisses, escape changes nothing.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from jobtracker.learning.dismissals import NOTE_CHARS, REASONS
from tui.widgets.cursor import move_cursor

# What each reason says, for the picker.
MEANING = {"level": "the seniority is wrong", "location": "the place does not work",
           "salary": "the pay is too low", "company": "not this employer",
           "role": "not the kind of work", "stack": "not the tools", "other": "something else"}


class DismissPicker(ModalScreen[tuple[str, str] | None]):
    """(reason, note) on enter, None on escape."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="dismiss.cancel", tooltip="dismiss nothing"),
        Binding("j", "move(1)", "Next", id="dismiss.next", show=False, tooltip="the next reason"),
        Binding("k", "move(-1)", "Previous", id="dismiss.previous", show=False,
                tooltip="the previous reason"),
    ]

    def __init__(self, label: str) -> None:
        super().__init__()
        self.label = label

    def compose(self):
        with Vertical(id="dialog"):
            question = Text("Not for me: ", style="bold")
            question.append(self.label)
            yield Static(question, id="question")
            yield OptionList(*(Option(Text(f"{r:<9} {MEANING[r]}"), id=r) for r in REASONS),
                             id="reasons")
            yield Input(placeholder="a note (optional; tab here, tab back)", id="note",
                        max_length=NOTE_CHARS)
            yield Static("enter dismiss   escape cancel", id="choices", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss((str(event.option.id), self.query_one(Input).value))

    @on(Input.Submitted)
    def _noted(self) -> None:
        options = self.query_one(OptionList)
        options.focus()
        if options.highlighted is not None:
            self.dismiss((REASONS[options.highlighted], self.query_one(Input).value))

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_move(self, step: int) -> None:
        move_cursor(self.query_one(OptionList), step)
