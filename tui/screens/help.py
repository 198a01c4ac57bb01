"""Help: every key of the screen underneath, with what it does."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import App
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Static

GENERAL = [("↑ ↓ pgup pgdn", "Move", "move in lists and scroll text"),
           ("ctrl+p", "Commands", "every action of this screen by name, with its key")]


def key_table(screen: Screen, app: App) -> list[tuple[str, str, str]]:
    """(keys, name, what it does) for the screen's own bindings, then the app's.

    Bindings sharing a key (r: start, pause, resume) are one row, their names
    joined; keys sharing a binding (j and ↓) are one row too.
    """
    rows: dict[str, list[tuple[str, str]]] = {}
    for source in (type(screen), type(app)):
        for entry in getattr(source, "BINDINGS", []):
            if not isinstance(entry, Binding):
                continue
            for key in entry.key.split(","):
                shown = app.get_key_display(Binding(key.strip(), entry.action))
                found = rows.setdefault(shown, [])
                if (entry.description, entry.tooltip) not in found:
                    found.append((entry.description, entry.tooltip))
    merged: dict[tuple[str, str], list[str]] = {}
    for shown, found in rows.items():
        name = " / ".join(dict.fromkeys(d for d, _ in found))
        what = "; ".join(dict.fromkeys(t for _, t in found if t))
        merged.setdefault((name, what), []).append(shown)
    return [(" ".join(keys), name, what) for (name, what), keys in merged.items()] + GENERAL


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "close", "Close", id="help.close",
                tooltip="close the help"),
    ]

    def __init__(self, under: Screen) -> None:
        super().__init__()
        self.under = under

    def compose(self):
        title = getattr(self.under, "HELP_TITLE", type(self.under).__name__)
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold cyan", no_wrap=True)
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        for keys, label, what in key_table(self.under, self.app):
            grid.add_row(keys, label, what)
        with VerticalScroll(id="help-body"):
            yield Static(Text(f"Keys — {title}", style="bold"), id="help-title")
            yield Static(grid, id="help-text")
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)
