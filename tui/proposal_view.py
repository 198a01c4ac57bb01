"""How one proposal reads in the review: plain `rich.text.Text`, built from data.

No Textual here, so it is tested as text. What a proposal says is its kind's
business (`jobtracker.proposals`: a word, a brief and the detail as `Line`s); this
module only styles those lines, by role, and knows no kind. Every string is
cleaned on the way in (`jobtracker.text`) and becomes a `Text`, so markup in it
is shown, never applied. Diff lines carry their `-`/`+` marks as characters in a
column of their own; colour only repeats what the mark already says.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from jobtracker.proposals import Line
from jobtracker.proposals.lines import DIFF_ROLES
from jobtracker.text import clean_text, one_line
from tui.data import ReviewItem

MARKS = {"pending": "●", "stale": "!", "accepted": "✓", "rejected": "✗"}
MARK_STYLES = {"pending": "bold cyan", "stale": "bold yellow", "accepted": "bold green",
               "rejected": "bold red"}

# How each role of jobtracker/proposals/lines.py is styled, and a diff line's mark.
ROLE_STYLES = {"text": "", "heading": "bold", "note": "yellow", "dim": "dim", "field": "",
               "removed": "red", "added": "green", "context": "", "hunk": "cyan",
               "header": "bold"}
# A diff line's mark and its style; `@@ … @@` and `---`/`+++` lines bring their own mark
# (their first character).
DIFF_MARKS = {"removed": ("-", "bold red"), "added": ("+", "bold green"),
              "context": (" ", "bold"), "hunk": ("", "bold cyan"), "header": ("", "bold")}
EMPHASIS_STYLES = {"": "", "strong": "bold", "note": "yellow", "dim": "dim"}


@dataclass(frozen=True)
class KeptEnd:
    """One line that gives way in its middle when it is too wide: `lead` and `tail`
    keep their cells, `middle` is cut with an ellipsis (the whole line is cut at its
    end only when even the lead and tail do not fit). Measured at render time, so it
    fits whatever width its pane has."""

    lead: Text
    middle: Text
    tail: Text

    @property
    def plain(self) -> str:
        return self.lead.plain + self.middle.plain + self.tail.plain

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        whole = self.lead.cell_len + self.middle.cell_len + self.tail.cell_len
        return Measurement(min(whole, self.lead.cell_len + self.tail.cell_len + 1), whole)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        middle = self.middle.copy()
        room = width - self.lead.cell_len - self.tail.cell_len
        if middle.cell_len > room:
            middle.truncate(max(room, 1), overflow="ellipsis")
        shown = Text.assemble(self.lead, middle, self.tail, no_wrap=True, overflow="ellipsis")
        shown.truncate(width, overflow="ellipsis")
        yield shown


def list_entry(item: ReviewItem) -> KeptEnd:
    """`● status  applied → interviewing`: the mark, the kind's word and the change.
    Narrow, the change's target stays whole, the thing being decided (`● status no
    appl… → interviewing`): what it changes from gives way."""
    p = item.proposal
    lead = Text()
    lead.append(f" {MARKS[p.state]} ", style=MARK_STYLES[p.state])
    lead.append(f"{item.word:<6} ", style="bold")
    brief = one_line(item.brief)
    before, arrow, target = brief.rpartition(" → ")
    if not arrow:
        return KeptEnd(lead, Text(brief), Text())
    return KeptEnd(lead, Text(before), Text(arrow + target))


def group_heading(item: ReviewItem) -> Text:
    text = Text(one_line(item.heading), style="bold underline", no_wrap=True,
                overflow="ellipsis")
    if item.score is not None:
        text.append(f"  {item.score:.2f}", style="bold")
    return text


# --- the detail pane --------------------------------------------------------------------

def detail(item: ReviewItem) -> RenderableType:
    """Whose proposal, what state, then the kind's own lines."""
    p = item.proposal
    head = Text()
    head.append(f"{MARKS[p.state]} {p.state}", style=MARK_STYLES[p.state])
    head.append(f"   #{p.id} {p.kind} from {p.task}", style="dim")
    if p.model:   # which model answered (not recorded before provenance: left out)
        head.append(f" · {one_line(p.model, 40)}", style="dim")
    head.append("\n")
    head.append(one_line(item.heading), style="bold")
    if item.score is not None:
        head.append(f"   score {item.score:.2f}")
    head.append("\n")
    parts: list[RenderableType] = [head]
    if p.state == "stale":
        stale = Text("STALE: ", style="bold yellow")
        stale.append(one_line(p.stale_reason))
        stale.append("\nIt cannot be accepted as it is: reject it (x), or let the task "
                     "propose again.\n", style="yellow")
        parts.append(stale)
    parts += rendered(item.lines)
    return Group(*parts)


def rendered(lines: Iterable[Line]) -> list[RenderableType]:
    """The lines as renderables. Fields in a row make one grid and so do diff lines, so
    a wrapped line keeps its column: a field's value wraps under the value, a diff
    line's continuation under its text, never under the -/+ mark column."""
    out: list[RenderableType] = []
    for family, run in groupby(lines, key=_family):
        members = list(run)
        if family == "field":
            out.append(_fields(members))
        elif family == "diff":
            out.append(_diff(members))
        else:
            for member in members:
                text = line_text(member)
                if member.role == "heading" and out:   # a new section: a blank line above
                    text = Text("\n", style=text.style) + text
                out.append(text)
    return out


def _family(line: Line) -> str:
    if line.role == "field":
        return "field"
    return "diff" if line.role in DIFF_ROLES else "text"


def line_text(line: Line) -> Text:
    """One line's spans, styled by its role and their emphasis; the quoted words in
    reverse video set off by ▶ ◀ (both survive NO_COLOR), changed words in reverse."""
    style = ROLE_STYLES.get(line.role, "")
    text = Text(style=style)
    for span in line.spans:
        words = clean_text(span.text)
        if span.emphasis == "quote":
            text.append("▶", style="bold")
            text.append(words, style="reverse bold")
            text.append("◀", style="bold")
        elif span.emphasis == "changed":
            text.append(words, style=f"reverse {style}".strip())
        else:
            text.append(words, style=EMPHASIS_STYLES.get(span.emphasis, ""))
    return text


def _fields(rows: Sequence[Line]) -> Table:
    """`label  value` rows; a value given as one string is one line."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True, min_width=8)
    grid.add_column()
    for row in rows:
        value = Text(one_line(row.text)) if isinstance(row.text, str) else line_text(row)
        grid.add_row(one_line(row.label), value)
    return grid


def _diff(rows: Sequence[Line]) -> Table:
    grid = Table.grid(padding=(0, 0))
    grid.add_column(no_wrap=True, width=1)
    grid.add_column()
    for row in rows:
        mark, mark_style = DIFF_MARKS[row.role]
        if mark:
            grid.add_row(Text(mark, style=mark_style), line_text(row))
        else:
            whole = clean_text(row.plain)
            grid.add_row(Text(whole[:1], style=mark_style),
                         Text(whole[1:], style=ROLE_STYLES[row.role]))
    return grid
