"""The postings that are not scored matches, from the matches screen: `f` the filtered
ones, each with the rule of profile.yaml's `filters` that catches it and why; `n` the
matches the judge has not answered yet, best pre-rank first (the order it asks in).

The lists are `jobtracker matches --filtered`'s own queries
(`jobtracker.ranking.matches.load_filtered`, `load_unjudged`, through `tui.data`), so
the screen and the command can never disagree.
"""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import on, work
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import DataTable, Static

from jobtracker.ranking.matches import Listed
from tui import data
from tui.host import Host
from tui.literal import line
from tui.screens.table_detail import TableDetail
from tui.widgets.cursor import move_cursor

FILTERED, UNJUDGED = "filtered", "unjudged"
TITLES = {FILTERED: "Filtered: kept from the model by profile.yaml's filters",
          UNJUDGED: "Not judged yet, best pre-rank first"}

LAYOUT = TableDetail(summary="listed-summary", pane="listed-pane", table="listed-table",
                     detail="listed-detail", text="listed-text", status="listed-status")


def listed_detail(posting: Listed) -> RenderableType:
    items: list[RenderableType] = [
        line(f"{posting.company} — {posting.title}", style="bold"),
        line(f"{posting.location or 'no location'} · {posting.url or 'no url'}", style="dim"),
        Text("pre-rank " + ("not read yet" if posting.prerank is None
                            else f"{posting.prerank:.2f}")),
    ]
    if posting.verdict:
        items.append(Text(f"verdict {posting.verdict} (kept from before the filter)"))
    for caught in posting.filtered_by:
        text = Text(f"{caught.rule}: ", style="bold yellow")
        text.append_text(line(caught.reason))
        items.append(text)
    return Group(*items)


class ListedScreen(Screen[None]):
    HELP_TITLE = "Filtered and not judged"
    postings: reactive[list[Listed]] = reactive(list, bindings=True, always_update=True)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "move(1)", "Next", id="listed.next", show=False,
                tooltip="the next posting"),
        Binding("k", "move(-1)", "Previous", id="listed.previous", show=False,
                tooltip="the previous posting"),
        Binding("escape", "back", "Back", id="listed.back", tooltip="back to the matches"),
    ]

    app: Host

    def __init__(self, which: str) -> None:
        super().__init__()
        self.which = which

    def compose(self):
        yield from LAYOUT.compose()

    def on_mount(self) -> None:
        LAYOUT.mount(self, TITLES[self.which], "Why", (
            ("id", "id"), ("pre-rank", "prerank"), ("verdict", "verdict"), ("company", "company"),
            ("title", "title"), ("filtered by" if self.which == FILTERED else "first seen",
                                 "why")))
        self.reload()

    @work(exclusive=True, group="listed-load", exit_on_error=False)
    async def reload(self) -> None:
        profile = self.app.setup.profile
        if self.which == FILTERED:
            self.postings = await data.filtered(self.app.db, profile)
        else:
            self.postings = await data.unjudged(self.app.db, profile)
        table = self.query_one(DataTable)
        table.clear()
        for posting in self.postings:
            why = (", ".join(c.rule for c in posting.filtered_by) if self.which == FILTERED
                   else str(posting.first_seen or "")[:10])
            table.add_row(
                Text(str(posting.id), justify="right"),
                Text("—" if posting.prerank is None else f"{posting.prerank:.2f}",
                     justify="right"),
                line(posting.verdict or "—"), line(posting.company, 24),
                line(posting.title, 44), line(why, 30), key=str(posting.id))
        summary = Text(f" {len(self.postings)} ", style="bold")
        if self.which == FILTERED:
            summary.append("filtered" if profile.filters.active
                           else "filtered: profile.yaml sets no filters")
        else:
            summary.append("not judged yet: the judge asks in this order")
        self.query_one("#listed-summary", Static).update(summary)
        self._show_detail()

    @property
    def current(self) -> Listed | None:
        table = self.query_one(DataTable)
        if not self.postings or table.cursor_row >= len(self.postings):
            return None
        return self.postings[table.cursor_row]

    @on(DataTable.RowHighlighted)
    def _highlighted(self) -> None:
        self._show_detail()

    def _show_detail(self) -> None:
        posting = self.current
        self.query_one("#listed-text", Static).update(
            listed_detail(posting) if posting is not None else Text(""))

    def action_move(self, step: int) -> None:
        move_cursor(self.query_one(DataTable), step)

    def action_back(self) -> None:
        self.app.pop_screen()
