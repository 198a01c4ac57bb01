"""Interviews (`i` on the dashboard): the ones to come, soonest first, in the user's zone.

The list is `jobtracker interviews`' own read (`jobtracker.interviews.store.upcoming`
from now, through `tui.data`), so the screen and the command list the same
interviews. Times are shown in config.yaml's `timezone:` (else this machine's
zone), the interview's own zone beside them when it is another; the first column
is the application's id, the one `jobtracker applications show ID` takes.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import ClassVar
from zoneinfo import ZoneInfo

from rich.console import Group, RenderableType
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import DataTable, Static

from jobtracker.interviews.store import Interview
from jobtracker.text import one_line
from tui import data
from tui.host import Host
from tui.literal import line
from tui.screens.table_detail import TableDetail
from tui.widgets.cursor import move_cursor

LAYOUT = TableDetail(summary="interviews-summary", pane="interviews-pane",
                     table="interviews-table", detail="interviews-detail",
                     text="interviews-text", status="interviews-status")


def zone_label(zone: tzinfo, moment: datetime) -> str:
    """`Europe/Berlin` for a named zone, else its name at that moment (`CET`)."""
    return getattr(zone, "key", None) or moment.strftime("%Z") or moment.strftime("UTC%z")


def when(item: Interview, now: datetime) -> str:
    """`today 14:00–15:00`, `tomorrow 09:30–10:15`, `Thu 3 Dec 14:00–15:00`: the
    interview in `now`'s zone (the user's)."""
    start = datetime.fromisoformat(item.start).astimezone(now.tzinfo)
    end = datetime.fromisoformat(item.end).astimezone(now.tzinfo)
    days = (start.date() - now.date()).days
    day = "today" if days == 0 else "tomorrow" if days == 1 else \
        f"{start:%a} {start.day} {start:%b}" + (f" {start.year}" if start.year != now.year
                                                 else "")
    return f"{day} {start:%H:%M}–{end:%H:%M}"


def interview_detail(item: Interview, now: datetime) -> RenderableType:
    """The whole interview: the job, the time in the user's zone (and in the mail's own
    when that is another), where, and the sentence it was read from."""
    zone = now.tzinfo
    assert zone is not None
    start = datetime.fromisoformat(item.start)
    items: list[RenderableType] = [
        line(f"{item.company} — {item.title}", style="bold"),
        Text(f"{when(item, now)} {zone_label(zone, start.astimezone(zone))}"),
    ]
    own = ZoneInfo(item.timezone) if item.timezone else start.tzinfo
    if own is not None and start.astimezone(own).utcoffset() != start.astimezone(zone) \
            .utcoffset():
        there = start.astimezone(own)
        items.append(Text(f"{there:%a} {there.day} {there:%b %H:%M} "
                          f"{item.timezone or there.strftime('UTC%z')} (the mail's zone)",
                          style="dim"))
    items.append(line(f"where: {item.where}" if item.where else "where: not said"))
    if item.quote:
        quote = Text("from the mail: ", style="bold")
        quote.append_text(line(item.quote))
        items.append(quote)
    items.append(Text(f"application {item.application_id}: `jobtracker applications show "
                      f"{item.application_id}`" + (f" · {item.file}" if item.file else ""),
                      style="dim"))
    return Group(*items)


class InterviewsScreen(Screen[None]):
    HELP_TITLE = "Interviews"
    interviews: reactive[list[Interview]] = reactive(list, bindings=True, always_update=True)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "move(1)", "Next", id="interviews.next", show=False,
                tooltip="the next interview"),
        Binding("k", "move(-1)", "Previous", id="interviews.previous", show=False,
                tooltip="the previous interview"),
        Binding("escape", "back", "Back", id="interviews.back", tooltip="back to the dashboard"),
    ]

    app: Host  # type: ignore[assignment]  # the running app is a Host (tui/host.py)

    def compose(self) -> ComposeResult:
        yield from LAYOUT.compose()

    def on_mount(self) -> None:
        LAYOUT.mount(self, "Interviews, soonest first", "Interview", (
            ("app", "app"), ("when", "when"), ("company", "company"), ("title", "title"),
            ("where", "where")))
        self.reload()

    def now(self) -> datetime:
        """Now in the user's zone, by the app's one clock (jobtracker.clock: `timezone:`,
        else this machine's), as the dashboard and the tracker read it."""
        return self.app.clock.local_now(self.app.setup.config.timezone)

    @work(exclusive=True, group="interviews-load", exit_on_error=False)
    async def reload(self) -> None:
        self.interviews = await data.interviews(self.app.db)
        now = self.now()
        table = self.query_one(DataTable)
        table.clear()
        shown = [(str(item.application_id), when(item, now)) for item in self.interviews]
        # The place gets what the other columns leave (each cell pads 1 each side; the
        # pane's border and scroll bar take 3), so no row runs past the pane at 80.
        fixed = sum(max([3, *(len(row[i]) for row in shown)]) for i in (0, 1))
        company = min(16, max([7, *(len(one_line(i.company)) for i in self.interviews)]))
        title = min(24, max([5, *(len(one_line(i.title)) for i in self.interviews)]))
        where = max(10, self.app.size.width - 3 - 2 * 5 - fixed - company - title)
        for item, (app_id, at) in zip(self.interviews, shown, strict=True):
            table.add_row(Text(app_id, justify="right"), Text(at), line(item.company, company),
                          line(item.title, title), line(item.where, where), key=str(item.id))
        summary = Text(" Interviews ─ ", style="bold")
        zone = zone_label(now.tzinfo, now) if now.tzinfo else ""
        summary.append(f"{len(self.interviews)} to come, times in {zone}" if self.interviews
                       else "none to come: an accepted `interview` proposal adds one")
        self.query_one(f"#{LAYOUT.summary}", Static).update(summary)
        self._show_detail()

    @property
    def current(self) -> Interview | None:
        table = self.query_one(DataTable)
        if not self.interviews or table.cursor_row >= len(self.interviews):
            return None
        return self.interviews[table.cursor_row]

    @on(DataTable.RowHighlighted)
    def _highlighted(self) -> None:
        self._show_detail()

    def _show_detail(self) -> None:
        item = self.current
        self.query_one(f"#{LAYOUT.text}", Static).update(
            interview_detail(item, self.now()) if item is not None else Text(""))

    def action_move(self, step: int) -> None:
        move_cursor(self.query_one(DataTable), step)

    def action_back(self) -> None:
        self.app.pop_screen()
