"""The prompt behind `S` on the matches screen: a job's page, or its text, to save.

What it takes is what `jobtracker save` takes: one line that is an http(s) address is
read as that page (its ATS's API, or the page's own schema.org JobPosting); anything
else is pasted text, lines and all. Company and title are optional, and needed for
pasted text only when no model reads it. ctrl+s saves, escape changes nothing; the
saving itself is tui/data.py's `save_posting`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static, TextArea

ENTRY_CHARS = 200_000           # what the prompt keeps of a paste


@dataclass(frozen=True)
class SaveEntry:
    """What was typed: the page or text, and the optional company and title."""

    text: str
    company: str = ""
    title: str = ""


class SavePrompt(ModalScreen[SaveEntry | None]):
    """A SaveEntry on ctrl+s, None on escape (or when nothing was typed)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", id="save.save", priority=True,
                tooltip="save the page or the text as a posting"),
        Binding("escape", "cancel", "Cancel", id="save.cancel", tooltip="save nothing"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static("Save a posting: its page's address, or its text", id="question",
                         markup=False)
            yield TextArea(id="save-text", soft_wrap=True, show_line_numbers=False,
                           tab_behavior="focus")
            yield Input(id="save-company", placeholder="company (optional)", max_length=300)
            yield Input(id="save-title", placeholder="title (optional)", max_length=500)
            yield Static("ctrl+s save   tab next field   escape cancel", id="choices",
                         markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_save()

    def action_save(self) -> None:
        text = self.query_one(TextArea).text[:ENTRY_CHARS]
        if not text.strip():
            self.dismiss(None)
            return
        self.dismiss(SaveEntry(text, self.query_one("#save-company", Input).value.strip(),
                               self.query_one("#save-title", Input).value.strip()))

    def action_cancel(self) -> None:
        self.dismiss(None)


__all__ = ["SaveEntry", "SavePrompt"]
