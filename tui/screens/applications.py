"""Applications: the pipeline grouped by status (counts in the group titles), each
row with company, title, days since applied, last contact and a due marker; the
funnel in text bars beside or below it; `enter` one application's timeline, `s` its
status, `n` a note.

Everything is read through `jobtracker.tracker` — the same rows `jobtracker
applications` prints — and every change goes through `jobtracker.applications`,
both by way of tui/data.py.
"""

from __future__ import annotations

from datetime import date
from functools import partial
from typing import Any, ClassVar

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Input, Static

from jobtracker.applications import NO_APPLICATION
from jobtracker.config import STATUSES
from jobtracker.interviews.store import said
from jobtracker.tracker.funnel import bars, counted
from jobtracker.tracker.overview import Row, day
from jobtracker.tracker.timeline import Timeline
from tui import data
from tui.host import Host
from tui.literal import line
from tui.screens.status_picker import StatusPicker
from tui.widgets.pipeline import Line, PipelineList

# Pipeline order: what is moving first, then what has stopped.
ORDER = ("offer", "interviewing", "screening", "applied", "saved", "ghosted", "rejected",
         "withdrawn")
assert set(ORDER) == set(STATUSES)


# Column widths of a row, and the header line that names them: dates carry their
# year (a list that spans New Year must not read `05-08` of which year).
COMPANY_CELLS, TITLE_CELLS = 16, 24
HEADER = (f"{'company':<{COMPANY_CELLS}} {'title':<{TITLE_CELLS}} {'applied':<10} "
          f"{'days':>4} {'last contact':<12} due")


def header_text() -> Text:
    return Text(HEADER, style="bold dim", no_wrap=True, overflow="ellipsis")


def row_text(row: Row, today: date) -> Text:
    """`Acme  Staff Engineer  2026-11-20  10d  2026-11-28  due`: fixed columns under
    HEADER (days: since applied)."""
    applied = day(row.applied_at)
    since = f"{(today - applied).days}d" if applied else "-"
    contact = row.last_contact_at[:10] if row.last_contact_at else "-"
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append_text(line(row.company, COMPANY_CELLS))
    text.pad_right(COMPANY_CELLS + 1 - text.cell_len)
    title = line(row.title, TITLE_CELLS)
    text.append_text(title)
    text.append(" " * (TITLE_CELLS + 1 - title.cell_len))
    text.append(f"{applied.isoformat() if applied else '-':<10} {since:>4} {contact:<12} ")
    text.append("due" if row.due else "   ", style="bold yellow" if row.due else "")
    return text


# The funnel's bars: its label (11), a bar and a count of up to four digits fit the
# wide screen's side pane (36 cells inside), so no count wraps under its bar.
FUNNEL_BAR_CELLS = 20


def funnel_text(summary: dict[str, Any], width: int = FUNNEL_BAR_CELLS) -> Text:
    text = Text(no_wrap=True)
    for label, bar, count in bars(summary, width):
        text.append(f"{label:<11}", style="bold")
        text.append(bar, style="green")
        text.append(f" {count}\n")
    text.append(f"replied {counted(summary['responded'], summary['applications'])}",
                style="dim")
    entries = [e for e in summary.get("calibration", []) if e["applications"] or e["dismissed"]]
    if entries:
        text.append(f"\n\n{'verdict':<8} {'sent':>4} {'interviews':>10} {'dismissed':>9}",
                    style="bold")
        for entry in entries:
            text.append(f"\n{entry['verdict']:<8}", style="bold")
            text.append(calibration_cells(entry))
    return text


def calibration_cells(entry: dict[str, Any]) -> str:
    """`    7   2 (29%)         1`: sent, interviews (the rate only from five sent up),
    dismissed, each number right-aligned under its header's last letter."""
    rate = entry["interview_rate"]
    interviews = f"{entry['interviews']}" + (f" ({round(100 * rate)}%)" if rate is not None
                                             else "")
    return f" {entry['applications']:>4} {interviews:>10} {entry['dismissed']:>9}"


class ApplicationsScreen(Screen[None]):
    HELP_TITLE = "Applications"
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (120, "-wide")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "move(1)", "Next", id="applications.next", show=False,
                tooltip="the next application"),
        Binding("k", "move(-1)", "Previous", id="applications.previous", show=False,
                tooltip="the previous application"),
        Binding("o,enter", "open", "Timeline", id="applications.open",
                tooltip="history, mail and notes of this application"),
        Binding("s", "status", "Status", id="applications.status",
                tooltip="set this application's status by hand"),
        Binding("n", "note", "Note", id="applications.note", tooltip="add a note"),
        Binding("escape", "back", "Back", id="applications.back",
                tooltip="back to the dashboard"),
    ]

    app: Host

    def __init__(self, today: date | None = None) -> None:
        super().__init__()
        self.given_today = today
        self.rows: dict[str, Row] = {}
        # Open, Status and Note are offered until a read finds no application: the
        # footer is redrawn only when that changes (a redraw restyles every key).
        self._offered = True

    def compose(self):
        yield Static(id="apps-summary")
        with Horizontal(id="apps-body"):
            with Vertical(id="apps-pane", classes="pane"):
                yield Static(header_text(), id="apps-header")
                yield PipelineList(id="apps-list")
            with Vertical(id="funnel-pane", classes="pane"):
                yield Static(id="funnel")
        yield Static(id="apps-status", markup=False)
        yield Footer()

    @property
    def today(self) -> date:
        return self.given_today or self.app.clock.today(self.app.setup.config.timezone)

    def on_mount(self) -> None:
        self.query_one("#apps-pane").border_title = "Pipeline"
        self.query_one("#funnel-pane").border_title = "Funnel"
        self.query_one(PipelineList).focus()
        # What the dashboard read last shows at once (5,000 applications take a fresh
        # read longer than opening should); the fresh read replaces it, on the same row.
        if self.app.applications_read is not None:
            self.show(self.app.applications_read)
        self.reload()

    @work(exclusive=True, group="applications-load", exit_on_error=False)
    async def reload(self, keep: int | None = None) -> None:
        found = await data.overview(self.app.db, self.app.setup.config.followup, self.today,
                                    self.app.clock.now())
        self.app.applications_read = found
        if keep is None and self.current is not None:
            keep = self.current.id
        self.show(found, keep)

    def show(self, found: data.Overview, keep: int | None = None) -> None:
        today = self.today
        groups: dict[str, list[Row]] = {status: [] for status in ORDER}
        for row in found.rows:
            groups[row.status].append(row)
        lines: list[Line] = []
        self.rows = {}
        for status in ORDER:
            members = groups[status]
            if not members:
                continue
            due = sum(r.due for r in members)
            title = Text(f"{status} ({len(members)})", style="bold")
            if due:
                title.append(f" · {due} due", style="yellow")
            lines.append(Line(title))
            for row in members:
                self.rows[str(row.id)] = row
                lines.append(Line(None, str(row.id), partial(row_text, row, today)))
        self.query_one(PipelineList).set_lines(lines, None if keep is None else str(keep))
        summary = Text(" Applications ─ ", style="bold")
        due = found.summary["due"]
        summary.append(f"{len(found.rows)} · {due} due" if found.rows else
                       "none yet: `s` on a match, or `jobtracker status POSTING applied`")
        now = self.app.clock.local_now(self.app.setup.config.timezone)
        if found.interviews:
            summary.append(f" · next interview {said(found.interviews[0], now)}")
        self.query_one("#apps-summary", Static).update(summary)
        side = funnel_text(found.summary)
        if found.interviews:   # upcoming interviews under the funnel (company: literal)
            side.append("\n\nUpcoming interviews", style="bold")
            for item in found.interviews[:5]:
                side.append("\n")
                side.append_text(line(f"{said(item, now)} — {item.title}", style="magenta"))
        self.query_one("#funnel", Static).update(side)
        if self._offered != bool(self.rows):
            self._offered = bool(self.rows)
            self.refresh_bindings()

    @property
    def current(self) -> Row | None:
        return self.rows.get(self.query_one(PipelineList).current or "")

    def say(self, message: str) -> None:
        self.query_one("#apps-status", Static).update(line(message))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("open", "status", "note"):
            return True if self._offered else None
        return True

    def action_move(self, step: int) -> None:
        self.query_one(PipelineList).action_move(step)

    def action_back(self) -> None:
        self.app.pop_screen()

    @on(PipelineList.Selected)
    def _selected(self) -> None:
        self.action_open()

    @work(exclusive=True, group="applications-open", exit_on_error=False)
    async def action_open(self) -> None:
        row = self.current
        if row is None:
            return
        found = await data.timeline(self.app.db, row.id, self.app.setup.config.followup,
                                    self.today)
        if found is not None:
            await self.app.push_screen(TimelineScreen(found))

    def action_status(self) -> None:
        row = self.current
        if row is not None:
            self.app.push_screen(StatusPicker(row.status),
                                 lambda status: self._set_status(row, status))

    @work(exclusive=True, group="applications-status", exit_on_error=False)
    async def _set_status(self, row: Row, status: str | None) -> None:
        if status is None or status == row.status:
            return
        await data.set_application_status(self.app.db, row.id, status)
        self.say(f"{row.company}: {status} (was {row.status})")
        await self.reload(keep=row.id)

    def action_note(self) -> None:
        row = self.current
        if row is not None:
            self.app.push_screen(NoteInput(row.company),
                                 lambda text: self._add_note(row, text))

    @work(exclusive=True, group="applications-note", exit_on_error=False)
    async def _add_note(self, row: Row, text: str | None) -> None:
        if not text:
            return
        await data.add_note(self.app.db, row.id, text)
        self.say(f"note added to {row.company}")
        await self.reload(keep=row.id)


class NoteInput(ModalScreen[str | None]):
    """One line of note; enter keeps it exactly as typed, escape drops it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="note.cancel", tooltip="add nothing"),
    ]

    def __init__(self, company: str) -> None:
        super().__init__()
        self.company = company

    def compose(self):
        with Vertical(id="dialog"):
            yield Static(line(f"A note on {self.company}"), id="question")
            yield Input(id="note-text", placeholder="the note; enter keeps it")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TimelineScreen(Screen[None]):
    """One application's history, mail and notes, oldest first, shown literally."""

    app: Host

    HELP_TITLE = "Timeline"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="timeline.back", tooltip="back to the list"),
        Binding("j", "scroll(1)", "Down", id="timeline.down", show=False, tooltip="scroll down"),
        Binding("k", "scroll(-1)", "Up", id="timeline.up", show=False, tooltip="scroll up"),
    ]

    def __init__(self, found: Timeline) -> None:
        super().__init__()
        self.found = found

    def compose(self):
        r = self.found.row
        yield Static(line(f" {r.company} — {r.title}", style="bold"), id="timeline-title")
        with VerticalScroll(id="timeline-body", classes="pane"):
            yield Static(timeline_text(self.found), id="timeline-text")
        yield Footer()

    def on_mount(self) -> None:
        r = self.found.row
        body = self.query_one("#timeline-body", VerticalScroll)
        body.border_title = line(f"{r.status} · follow-up {r.followup_due or '-'}"
                                 + (" (due)" if r.due else ""))
        body.focus()

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_scroll(self, step: int) -> None:
        self.query_one("#timeline-body", VerticalScroll).scroll_relative(y=step, animate=False)


STYLES = {"status": "bold", "message": "cyan", "note": "green", "closed": "yellow",
          "interview": "magenta"}


def timeline_text(found: Timeline) -> RenderableType:
    """Each entry in two columns: date and kind, then what (outside text literal). The
    second is a column of its own, so a long note or quote wraps under its own start,
    not under the date."""
    if not found.entries:
        return Text("nothing recorded yet", style="dim")
    grid = Table.grid(padding=(0, 0))
    grid.add_column(no_wrap=True, width=22)     # the date, two spaces, the longest kind
    grid.add_column(ratio=1)
    for entry in found.entries:
        d = entry.data
        when = Text(f"{entry.time[:10]}  ", style="dim")
        when.append(f"{entry.kind:<10}", style=STYLES[entry.kind])
        what = Text()
        if entry.kind == "status":
            source = d["source"] + (f" {d['proposal']}" if d["proposal"] else "")
            what.append(f"{d['from'] or NO_APPLICATION} → {d['to']}  ({source})")
            if d["evidence"]:
                what.append("\n")
                what.append_text(line(f"“{d['evidence']}”", style="italic"))
        elif entry.kind == "message":
            what.append_text(line(d["subject"] or "(no subject)"))
            what.append("\n")
            what.append_text(line(f"from {d['from']}" + (f" · {d['state']}" if d["state"]
                                                          else ""), style="dim"))
        else:
            what.append_text(line(d["text"]))
        grid.add_row(when, what)
    return grid
