"""The layout of a screen that is a table over a detail pane (matches, a packet).

A summary line, the table in a bordered pane, the selected row's detail in a
scrolling pane below, a status line and the footer. Each screen names its parts'
ids (its styles in `styles/` address them) and its columns; this module builds them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from rich.console import RenderableType
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import DataTable, Footer, Static


@dataclass(frozen=True)
class TableDetail:
    """The ids of one screen's parts."""

    summary: str
    pane: str
    table: str
    detail: str
    text: str
    status: str

    def compose(self, summary: RenderableType = "") -> Iterator[Widget]:
        yield Static(summary, id=self.summary)
        with Vertical(id=self.pane, classes="pane"):
            yield DataTable(id=self.table, cursor_type="row", zebra_stripes=False)
        with VerticalScroll(id=self.detail, classes="pane"):
            yield Static(id=self.text)
        yield Static(id=self.status, markup=False)
        yield Footer()

    def mount(self, screen: Screen, table_title: str, detail_title: str,
              columns: Iterable[tuple[str, str]]) -> DataTable:
        """Title the panes, give the table its (label, key) columns and the focus."""
        screen.query_one(f"#{self.pane}").border_title = table_title
        screen.query_one(f"#{self.detail}").border_title = detail_title
        table = screen.query_one(f"#{self.table}", DataTable)
        for label, key in columns:
            table.add_column(label, key=key)
        table.focus()
        return table
