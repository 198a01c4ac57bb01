"""Matches: scored postings best first, why each scores what it does, and its status.

`P` opens the selected match's application packet (tui/screens/packet.py), `u`
copies its URL, `s` sets its status (tui/screens/status_picker.py);
`f` and `n` list the filtered postings and the matches not judged yet
(tui/screens/listed.py); `S` saves a posting found anywhere, from its address or its
text (tui/screens/save_prompt.py, as `jobtracker save` does).

The list is `jobtracker matches`' own query (`jobtracker.ranking.matches.load_matches`),
and a status is set through `jobtracker.applications`, as `jobtracker status`
sets it, so the screen and the command can never disagree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from jobtracker.applications import NO_APPLICATION
from jobtracker.ranking.matches import Match
from jobtracker.ranking.signals import Signals
from jobtracker.text import one_line
from tui import data
from tui.host import Host
from tui.literal import block, line
from tui.screens.dismiss import DismissPicker
from tui.screens.listed import ListedScreen
from tui.screens.packet import PacketScreen
from tui.screens.save_prompt import SaveEntry, SavePrompt
from tui.screens.status_picker import StatusPicker
from tui.screens.table_detail import TableDetail
from tui.widgets.cursor import move_cursor

VERDICT_STYLES = {"strong": "bold green", "good": "green", "partial": "yellow", "poor": "red"}


BAR_CELLS = 10    # the largest weight's bar


def bar(points: float, weight: float, scale: float) -> Text:
    """`███████░░░`: one part on the scale every posting shares (`scale`, the largest
    weight, is BAR_CELLS cells): the filled cells are its points, the light ones what
    its weight leaves unearned, so the bar's length is the part's weight. A negative
    part is red."""
    def cells(amount: float) -> int:
        # Half a cell up (round() would draw 2.5 cells as 2 and 3.5 as 4).
        return min(BAR_CELLS, int(BAR_CELLS * abs(amount) / scale + 0.5)) if scale > 0 else 0

    filled = max(cells(points), 1) if points else 0
    reach = max(cells(weight), filled)
    text = Text("█" * filled, style="red" if points < 0 else "green")
    text.append("░" * (reach - filled), style="green")
    text.append(" " * (BAR_CELLS - reach))
    return text


def bar_scale(matches: list[Match]) -> float:
    """The one scale of every bar on the screen: the largest weight any listed part
    has (a part's points are its value in [0, 1] times its weight), so a good 0.66 fit
    draws shorter than a strong 1.00 one on every posting alike."""
    return max((abs(float(part.get("weight", 0))) for m in matches for part in m.parts.values()),
               default=0.0)


def parts_table(parts: dict[str, dict[str, Any]], score: float, scale: float) -> Table:
    """`fit  ███████░░░  0.66 × 1.0 = 0.66  verdict good`: each part with a bar of its
    points against its weight, on the screen's one scale, and the sum they make, so
    "why is this above that" reads at a glance."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(no_wrap=True)
    for _ in range(3):
        grid.add_column(justify="right", no_wrap=True)
    grid.add_column()
    for name, part in parts.items():
        points, weight = float(part.get("points", 0)), float(part.get("weight", 0))
        grid.add_row(name, bar(points, weight, scale), f"{float(part.get('value', 0)):.2f} ×",
                     f"{weight:.1f} =", f"{points:.2f}", line(part.get("basis")))
    grid.add_row("score", "", "", "", Text(f"{score:.2f}", style="bold"), "")
    return grid


def match_detail(match: Match, ranking: data.Ranking | None,
                 scale: float = 1.0) -> RenderableType:
    head = line(f"{match.company} — {match.title}", style="bold")
    where = line(f"{match.location or 'no location'} · {match.url or 'no url'}",
                 style="dim")
    items: list[RenderableType] = [head, where]
    if match.saved:
        items.append(Text("saved by you (jobtracker save): listed whatever profile.yaml's "
                          "rules say, never closed by a fetch", style="cyan"))
    if match.dismissed:     # the decision shown back: its reason, and the note as one line
        said = Text("dismissed: ", style="bold yellow")
        said.append(match.dismissed, style="yellow")
        if match.dismissed_note:
            said.append(" — ")
            said.append_text(line(match.dismissed_note))
        items.append(said)
    if match.reposted:
        items.append(Text(f"reposted {match.reposted}: the job closed and came back under "
                          "a new id; its verdict and application carried over", style="yellow"))
    for url in match.also_on:
        items.append(line(f"also on {url}", style="dim"))
    if match.contacts_line:          # who the user knows there (docs/contacts.md)
        items.append(block(match.contacts_line, style="green"))
    facts = Signals(**match.signals).line(age=True) if match.signals else ""
    if facts:                        # the posting's signals (docs/ranking.md)
        items.append(block(f"signals: {facts}", style="yellow"))
    verdict = Text("verdict ", style="bold")
    verdict.append(match.verdict, style=VERDICT_STYLES.get(match.verdict, ""))
    if match.stale:
        verdict.append("  (judged against older inputs; `jobtracker rank` asks again)",
                       style="yellow")
    items += [verdict, parts_table(match.parts, match.score, scale)]
    if ranking is not None:
        for label, values, style in (("reasons", ranking.reasons, ""),
                                     ("meets", ranking.meets, "green"),
                                     ("misses", ranking.misses, "red")):
            if values:
                text = Text(f"{label}: ", style="bold")
                text.append("; ".join(line(v).plain for v in values), style=style)
                items.append(text)
    return Group(*items)


# The title column's width: what the others leave of the screen, within these bounds.
TITLE_MIN, TITLE_MAX = 12, 80
_NARROW_COLUMNS = 24      # company and location are cut at this many cells at most
_COMPANY_MIN, _LOCATION_MIN = 8, 6
# Words a cut title spells short first, so the part that tells two jobs apart
# (`…, Python` / `… (Energy Markets)`) survives at 80 columns.
_SHORT_WORDS = {"senior": "Sr", "junior": "Jr", "principal": "Princ", "engineer": "Eng",
                "engineering": "Eng", "developer": "Dev", "software": "SW",
                "manager": "Mgr", "management": "Mgmt", "infrastructure": "Infra",
                "operations": "Ops", "distributed": "Dist", "development": "Dev"}
_WORD = re.compile(r"[A-Za-z]+")


@dataclass(frozen=True)
class Widths:
    """Cells for the columns that give way: company, title, location."""

    company: int
    title: int
    location: int


def column_widths(matches: list[Match], screen_width: int) -> Widths:
    """What the screen leaves the company, title and location once the fixed columns
    (id, score, verdict, status) have theirs, so the table never scrolls sideways:
    each column pads one cell each side; the pane's border and the vertical scroll
    bar take 3. The title gets what company and location (each at most as wide as
    its widest value, and given way first down to a floor) leave it."""
    def widest(name: str, label: int, limit: int = TITLE_MAX) -> int:
        return min(limit, max([label, *(cell_len(one_line(str(getattr(m, name) or "")))
                                        for m in matches)]))

    fixed = [widest("id", 2), 5, widest("verdict", 7) + 1, widest("status", 6)]
    free = screen_width - sum(fixed) - 2 * (len(fixed) + 3) - 3
    company = min(widest("company", 7, _NARROW_COLUMNS), max(_COMPANY_MIN, free * 28 // 100))
    location = min(widest("location", 8, _NARROW_COLUMNS), max(_LOCATION_MIN, free * 22 // 100))
    title = min(TITLE_MAX, widest("title", 5), free - company - location)
    if title < TITLE_MIN:       # very narrow: company and location give way first
        short = TITLE_MIN - title
        give = min(short, company - _COMPANY_MIN)
        company -= give
        location -= min(short - give, location - _LOCATION_MIN)
        title = max(1, free - company - location)
    # Room left over (short titles on a wide screen) goes back to company and location.
    spare = free - company - location - title
    if spare > 0:
        grow = min(spare, widest("company", 7, _NARROW_COLUMNS) - company)
        company += grow
        location += max(0, min(spare - grow, widest("location", 8, _NARROW_COLUMNS) - location))
    return Widths(company, max(1, title), location)


def short_title(title: str, width: int) -> str:
    """`title` in at most `width` cells: whole when it fits, else with common words
    spelled short (Senior → Sr, Engineer → Eng), then cut with an ellipsis."""
    title = one_line(title)
    if cell_len(title) <= width:
        return title
    title = _abbreviated(title)
    return title if cell_len(title) <= width else _cut(title, width)


def _abbreviated(title: str) -> str:
    return _WORD.sub(lambda m: _SHORT_WORDS.get(m.group(0).lower(), m.group(0)), title)


def _cut(text: str, width: int) -> str:
    """`text` in `width` cells, its end an ellipsis (wide characters count two)."""
    shown = Text(text)
    shown.truncate(width, overflow="ellipsis")
    return shown.plain


def distinct_titles(titles: list[str], width: int) -> list[str]:
    """Each title cut to `width` cells so that titles that differ still read
    differently: where two cuts of different titles come out the same, those keep
    their beginning and their end (`Sr Backend…Markets)`)."""
    cut = [short_title(title, width) for title in titles]
    by_cut: dict[str, set[str]] = {}
    for title, shown in zip(titles, cut, strict=True):
        by_cut.setdefault(shown, set()).add(one_line(title))
    for i, title in enumerate(titles):
        if len(by_cut[cut[i]]) > 1 and width >= 7:
            cut[i] = _head_and_tail(_abbreviated(one_line(title)), width)
    return cut


def _head_and_tail(title: str, width: int) -> str:
    """A third of `width` from the beginning, an ellipsis, and the end in the rest,
    starting at a word where that leaves a few letters."""
    head = _cut(title, max(3, width // 3) + 1).rstrip("…").rstrip()
    room = width - cell_len(head) - 1
    tail = title[-room:] if room > 0 else ""
    while cell_len(tail) > room:
        tail = tail[1:]
    start = len(title) - len(tail)
    if start > 0 and title[start - 1].isalnum() and " " in tail:
        word = tail[tail.index(" ") + 1:]
        if len(word) >= 4:
            tail = word
    return f"{head}…{tail.lstrip()}"


def title_cell(match: Match, width: int, shown: str | None = None) -> Text:
    """The title (`shown`: already cut to tell it apart), and `(reposted DATE)` after it
    when the job came back under a new id (`(reposted)` under 30 cells): the note is
    never cut, the title gives way to it; a job the user saved ends `(saved)`."""
    if not match.reposted and not match.saved:
        return line(shown if shown is not None else short_title(match.title or "", width))
    # Narrow, the date is left to the detail pane.
    note = "" if not match.reposted else (
        f" (reposted {match.reposted})" if width >= 30 else " (reposted)")
    mark = " (saved)" if match.saved else ""
    text = line(short_title(match.title or "", max(width - len(note) - len(mark), 8)))
    text.append(note, style="yellow")
    text.append(mark, style="cyan")
    return text


LAYOUT = TableDetail(summary="matches-summary", pane="matches-pane", table="matches-table",
                     detail="match-detail", text="match-text", status="matches-status")


class MatchesScreen(Screen[None]):
    HELP_TITLE = "Matches"
    # Which keys are live follows the list: Open, Status and Packet once it holds a match.
    matches: reactive[list[Match]] = reactive(list, bindings=True, always_update=True)
    # `D`: the dismissed matches instead of the list (`d` then brings one back).
    showing_dismissed: reactive[bool] = reactive(False, bindings=True)
    _opened = False              # the first ScreenResume (the opening) has been seen
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-short"), (40, "-tall")]
    _widths: Widths | None = None   # the column widths the rows were laid out for
    _scale = 1.0                 # every bar's scale (bar_scale of the list)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "move(1)", "Next", id="matches.next", show=False, tooltip="the next match"),
        Binding("k", "move(-1)", "Previous", id="matches.previous", show=False,
                tooltip="the previous match"),
        Binding("o,enter", "open", "Open", id="matches.open",
                tooltip="read the posting's text"),
        Binding("s", "status", "Status", id="matches.status",
                tooltip="set the application's status for this posting"),
        Binding("P", "packet", "Packet", id="matches.packet",
                tooltip="the application packet: the form's fields and answers"),
        Binding("u", "copy_url", "Copy URL", id="matches.url", show=False,
                tooltip="copy the posting's URL to the clipboard (OSC 52)"),
        Binding("d", "dismiss", "Dismiss", id="matches.dismiss",
                tooltip="not for me: dismiss this match with a reason"),
        Binding("d", "undismiss", "Bring back", id="matches.undismiss",
                tooltip="in the dismissed list: bring this match back into the matches"),
        Binding("D", "toggle_dismissed", "Dismissed", id="matches.dismissed", show=False,
                tooltip="show the dismissed matches instead (again: the matches)"),
        Binding("f", "listed('filtered')", "Filtered", id="matches.filtered", show=False,
                tooltip="the postings profile.yaml's filters keep from the model, with the "
                        "rule that catches each"),
        Binding("n", "listed('unjudged')", "Not judged", id="matches.unjudged", show=False,
                tooltip="the matches not judged yet, best pre-rank first"),
        Binding("S", "save", "Save job", id="matches.save",
                tooltip="save a posting found anywhere: its page's address, or its text"),
        Binding("escape", "back", "Back", id="matches.back", tooltip="back to the dashboard"),
    ]

    app: Host

    def compose(self):
        yield from LAYOUT.compose()

    def on_mount(self) -> None:
        LAYOUT.mount(self, "Matches, best first", "Why", (
            ("id", "id"), ("score", "score"), ("verdict", "verdict"), ("status", "status"),
            ("company", "company"), ("title", "title"), ("location", "location")))
        self.reload()

    @work(exclusive=True, group="matches-load", exit_on_error=False)
    async def reload(self, keep: int | None = None) -> None:
        self.matches = await data.matches(self.app.db, self.app.setup.profile,
                                          dismissed=self.showing_dismissed)
        self._scale = bar_scale(self.matches)
        self._fill(keep)
        self.query_one(f"#{LAYOUT.pane}").border_title = (
            "Dismissed, best first" if self.showing_dismissed else "Matches, best first")
        if self.showing_dismissed:
            summary = Text(" Dismissed ─ ", style="bold")
            summary.append(f"{len(self.matches)} dismissed; d brings one back, D the matches"
                           if self.matches else "nothing dismissed; D shows the matches")
        else:
            summary = Text(" Matches ─ ", style="bold")
            summary.append(f"{len(self.matches)} scored" if self.matches else
                           "nothing scored yet: the judge task judges and scores open matches")
        self.query_one("#matches-summary", Static).update(summary)
        await self._show_detail()

    def _fill(self, keep: int | None) -> None:
        """The table's rows, the title as wide as the screen leaves it; the cursor on
        match `keep` if it is still listed."""
        table = self.query_one(DataTable)
        widths = column_widths(self.matches, self.app.size.width)
        self._widths = widths
        table.clear()
        for column in table.columns.values():     # widths follow the new rows, narrower too
            column.content_width = column.label.cell_len
        titles = distinct_titles([m.title or "" for m in self.matches], widths.title)
        for match, shown in zip(self.matches, titles, strict=True):
            cells = (
                Text(str(match.id), justify="right"),
                Text(f"{match.score:.2f}", justify="right"),
                Text(match.verdict + ("*" if match.stale else ""),
                     style=VERDICT_STYLES.get(match.verdict, "")),
                line(match.status or "—"), line(match.company, widths.company),
                title_cell(match, widths.title, shown), line(match.location, widths.location))
            table.add_row(*cells, key=str(match.id))
            # The widths now, not when the table next measures itself: a frame drawn in
            # between would show every cell cut to its label's width.
            for column, cell in zip(table.columns.values(), cells, strict=True):
                column.content_width = max(column.content_width, cell.cell_len)
        if keep is not None:
            rows = [m.id for m in self.matches]
            if keep in rows:
                table.move_cursor(row=rows.index(keep), animate=False)

    def on_resize(self) -> None:
        if self.matches and column_widths(self.matches, self.app.size.width) != self._widths:
            current = self.current
            self._fill(current.id if current is not None else None)

    @property
    def current(self) -> Match | None:
        table = self.query_one(DataTable)
        if not self.matches or table.cursor_row >= len(self.matches):
            return None
        return self.matches[table.cursor_row]

    @on(DataTable.RowHighlighted)
    async def _highlighted(self) -> None:
        await self._show_detail()

    @on(DataTable.RowSelected)
    def _selected(self) -> None:
        # The focused table takes `enter` for itself (select the row): selecting is opening.
        self.action_open()

    def on_screen_resume(self) -> None:
        """Back from the packet (its `A`), a posting or a picker: the statuses may have
        changed under the list, so it is read again, the cursor on the same match. The
        first resume is the screen opening, which `on_mount`'s read already covers (a
        second read racing it redrew the table mid-measure)."""
        if not self._opened:
            self._opened = True
            return
        if self.matches:
            current = self.current
            self.reload(keep=current.id if current is not None else None)

    async def _show_detail(self) -> None:
        match = self.current
        widget = self.query_one("#match-text", Static)
        if match is None:
            widget.update(Text(""))
            return
        ranking = await data.load_ranking(self.app.db, match.id)
        if self.current is match:   # the cursor may have moved on while reading
            widget.update(match_detail(match, ranking, self._scale))

    def say(self, message: str) -> None:
        self.query_one("#matches-status", Static).update(line(message))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("dismiss", "undismiss"):      # one `d` for each list
            if self.showing_dismissed != (action == "undismiss"):
                return False
            return True if self.matches else None
        if action in ("open", "status", "packet", "copy_url"):
            return True if self.matches else None
        return True

    def action_move(self, step: int) -> None:
        move_cursor(self.query_one(DataTable), step)

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_listed(self, which: str) -> None:
        self.app.push_screen(ListedScreen(which))

    @work(exclusive=True, group="matches-open", exit_on_error=False)
    async def action_open(self) -> None:
        match = self.current
        if match is None:
            return
        posting = await data.load_posting(self.app.db, match.id)
        if posting is not None:
            await self.app.push_screen(PostingScreen(posting))

    def action_packet(self) -> None:
        match = self.current
        if match is not None:
            self.app.push_screen(PacketScreen(match.id, match.label))

    def action_copy_url(self) -> None:
        match = self.current
        if match is None or not match.url:
            self.say("this posting has no URL")
            return
        self.app.copy_to_clipboard(match.url)
        self.say(f"copied the URL of {match.label}")

    def action_toggle_dismissed(self) -> None:
        self.showing_dismissed = not self.showing_dismissed
        self.reload()

    def action_dismiss(self) -> None:
        match = self.current
        if match is not None:
            self.app.push_screen(DismissPicker(match.label),
                                 lambda picked: self._dismiss(match, picked))

    def action_undismiss(self) -> None:
        match = self.current
        if match is not None:
            self._undismiss(match)

    @work(exclusive=True, group="matches-dismiss", exit_on_error=False)
    async def _dismiss(self, match: Match, picked: tuple[str, str] | None) -> None:
        if picked is None:
            return
        reason, note = picked
        await data.dismiss(self.app.db, match.id, reason, note)
        self.say(f"dismissed {match.label} ({reason}); D lists the dismissed")
        await self.reload(keep=self._neighbour(match))

    @work(exclusive=True, group="matches-dismiss", exit_on_error=False)
    async def _undismiss(self, match: Match) -> None:
        await data.undismiss(self.app.db, match.id)
        self.say(f"{match.label} is back in the matches")
        await self.reload(keep=self._neighbour(match))

    def _neighbour(self, match: Match) -> int | None:
        """The match after `match` (else before it): where the cursor goes once it leaves."""
        ids = [m.id for m in self.matches]
        at = ids.index(match.id) if match.id in ids else -1
        rest = ids[at + 1:] + ids[:at][::-1] if at >= 0 else ids
        return rest[0] if rest else None

    def action_save(self) -> None:
        self.app.push_screen(SavePrompt(), self._save)

    @work(exclusive=True, group="matches-save", exit_on_error=False)
    async def _save(self, entry: SaveEntry | None) -> None:
        if entry is None:
            return
        self.say("saving…")
        saved = await data.save_posting(self.app.setup, entry.text, entry.company,
                                        entry.title)
        if saved.posting_id is None:
            self.say(f"nothing saved: {saved.label}")
            return
        again = "" if saved.new else " (saved before: the same posting)"
        judged = any(m.id == saved.leader for m in self.matches)
        self.say(f"saved posting {saved.posting_id}, {saved.label}{again}; "
                 + ("listed here" if judged else "n lists it until it is judged"))
        await self.reload(keep=saved.leader)

    def action_status(self) -> None:
        match = self.current
        if match is not None:
            self.app.push_screen(StatusPicker(match.status),
                                 lambda status: self._set_status(match, status))

    @work(exclusive=True, group="matches-status", exit_on_error=False)
    async def _set_status(self, match: Match, status: str | None) -> None:
        if status is None:
            return
        change = await data.set_status(self.app.db, match.id, status)
        was = f"was {change.before or NO_APPLICATION}"
        self.say(f"{match.label}: {status} ({was})")
        await self.reload(keep=match.id)


class PostingScreen(Screen[None]):
    """One posting's text, scrollable, shown literally."""

    app: Host

    HELP_TITLE = "Posting"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,o", "back", "Back", id="posting.back", tooltip="back to the matches"),
        Binding("j", "scroll(1)", "Down", id="posting.down", show=False, tooltip="scroll down"),
        Binding("k", "scroll(-1)", "Up", id="posting.up", show=False, tooltip="scroll up"),
    ]

    def __init__(self, posting: data.PostingText) -> None:
        super().__init__()
        self.posting = posting

    def compose(self):
        p = self.posting
        yield Static(line(f" {p.company} — {p.title}", style="bold"), id="posting-title")
        with VerticalScroll(id="posting-body", classes="pane"):
            yield Static(block(p.description or "(no description stored)"), id="posting-text")
        yield Footer()

    def on_mount(self) -> None:
        p = self.posting
        body = self.query_one("#posting-body", VerticalScroll)
        body.border_title = line(f"{p.location or 'no location'} · {p.url or 'no url'}")
        body.focus()

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_scroll(self, step: int) -> None:
        body = self.query_one("#posting-body", VerticalScroll)
        body.scroll_relative(y=step, animate=False)
