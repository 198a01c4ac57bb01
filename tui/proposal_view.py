"""How one proposal reads in the review: plain `rich.text.Text`, built from data.

No Textual here, so it is tested as text. Everything that came from outside (the
posting's title, the email, the model's reason and replacement) goes through
`tui.literal`, so markup in it is shown, never applied. Diff lines carry their
`-`/`+` marks as characters; colour only repeats what the mark already says.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from jobtracker.proposals import Proposal
from jobtracker.text import clean_text, one_line
from jobtracker.worddiff import Run, block_runs
from tui.data import ReviewItem

MARKS = {"pending": "●", "stale": "!", "accepted": "✓", "rejected": "✗"}
MARK_STYLES = {"pending": "bold cyan", "stale": "bold yellow", "accepted": "bold green",
               "rejected": "bold red"}
KIND_NAMES = {"status": "status", "resume_edit": "edit", "letter": "letter"}


def _field(payload: dict[str, Any], name: str) -> str:
    """A payload's text field; '' when it is missing or not text."""
    value = payload.get(name)
    return value if isinstance(value, str) else ""


def brief(p: Proposal) -> str:
    """A few words for the list: what changes."""
    if p.kind == "status":
        before = p.payload.get("from_status") or "none"
        return f"{before} → {p.payload.get('to_status', '?')}"
    if p.kind == "resume_edit":
        return _field(p.payload, "reason") or p.summary
    return p.summary


def list_entry(item: ReviewItem) -> Text:
    """`● status  applied → interviewing`: the mark, the kind and the change."""
    p = item.proposal
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f" {MARKS[p.state]} ", style=MARK_STYLES[p.state])
    text.append(f"{KIND_NAMES.get(p.kind, p.kind):<6} ", style="bold")
    text.append(one_line(brief(p)))
    return text


def group_heading(item: ReviewItem) -> Text:
    text = Text(one_line(item.heading), style="bold underline", no_wrap=True,
                overflow="ellipsis")
    if item.score is not None:
        text.append(f"  {item.score:.2f}", style="bold")
    return text


# --- the detail pane --------------------------------------------------------------------
#
# Built from grids rather than one Text, so that a wrapped line keeps its column: a field's
# value wraps under the value, and a diff line's continuation under its text, never under
# the -/+ mark column.

def detail(item: ReviewItem) -> RenderableType:
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
    if p.kind == "status":
        parts += status_detail(item)
    elif p.kind == "resume_edit":
        parts += edit_detail(p)
    else:
        parts += letter_detail(p)
    return Group(*parts)


def fields(rows: list[tuple[str, Text | str | None]]) -> Table:
    """`label  value` rows; untrusted values arrive as str and are made literal here."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True, min_width=8)
    grid.add_column()
    for label, value in rows:
        grid.add_row(label, value if isinstance(value, Text) else Text(one_line(value)))
    return grid


def status_detail(item: ReviewItem) -> list[RenderableType]:
    payload = item.proposal.payload
    change = Text(one_line(payload.get("from_status") or "no application"))
    change.append(" → ")
    change.append(one_line(payload.get("to_status") or "?"), style="bold")
    if item.status_now != payload.get("from_status"):
        change.append(f"   (now {one_line(item.status_now or 'no application')})",
                      style="yellow")
    message = payload.get("message") if isinstance(payload.get("message"), dict) else {}
    rows: list[tuple[str, Text | str | None]] = [("Status", change)]
    if payload.get("state"):
        rows.append(("Reading", f"{payload['state']}: {payload.get('reading') or ''}"))
    rows += [("From", message.get("sender")), ("Subject", message.get("subject")),
             ("Date", message.get("date"))]
    return [fields(rows), Text("\nEvidence", style="bold"),
            evidence_in_context(item.message_body, payload.get("evidence") or "")]


_SPACES = re.compile(r"\s+")


def evidence_in_context(body: str | None, quote: str) -> Text:
    """The paragraph of `body` that holds `quote`, the quote highlighted (reverse video,
    which survives NO_COLOR) and set off by ▶ ◀ marks; the quote alone when the
    body is gone or does not hold it."""
    quote = one_line(quote)
    if not quote:
        return Text("(no quote)", style="dim")
    for paragraph in re.split(r"\n\s*\n", clean_text(body or "")):
        flat = _SPACES.sub(" ", paragraph).strip()
        at = flat.lower().find(quote.lower())
        if at < 0:
            continue
        text = Text(flat[:at])
        text.append("▶", style="bold")
        text.append(flat[at:at + len(quote)], style="reverse bold")
        text.append("◀", style="bold")
        text.append(flat[at + len(quote):])
        return text
    text = Text("▶", style="bold")
    text.append(quote, style="reverse bold")
    text.append("◀\n", style="bold")
    text.append("(the message's text is not stored, or no longer holds the quote)",
                style="dim")
    return text


DIFF_STYLES = {"+": "green", "-": "red", "@": "cyan"}


def unified_diff(original: str, replacement: str) -> RenderableType:
    """original → replacement as a unified diff. Each line's -/+ mark is a character in a
    column of its own; colour only repeats it. Within a changed line the words that
    changed are marked in reverse video (which survives NO_COLOR), so a two-word
    addition to a long bullet shows at once."""
    lines = list(difflib.unified_diff(clean_text(original).splitlines(),
                                      clean_text(replacement).splitlines(),
                                      "original", "replacement", lineterm="", n=2))
    if not lines:
        return Text("(no change)", style="dim")
    grid = Table.grid(padding=(0, 0))
    grid.add_column(no_wrap=True, width=1)
    grid.add_column()
    at = 0
    while at < len(lines):
        diff_line = lines[at]
        if diff_line.startswith(("---", "+++")):
            grid.add_row(Text(diff_line[:1], style="bold"), Text(diff_line[1:], style="bold"))
        elif diff_line.startswith("-"):
            removed = _run_of(lines, at, "-")
            added = _run_of(lines, at + len(removed), "+")
            for mark, block in zip("-+", block_runs(removed, added), strict=True):
                for runs in block:
                    grid.add_row(Text(mark, style=f"bold {DIFF_STYLES[mark]}"),
                                 _marked(runs, DIFF_STYLES[mark]))
            at += len(removed) + len(added)
            continue
        else:
            mark = diff_line[:1] if diff_line[:1] in "+@" else " "
            style = DIFF_STYLES.get(mark, "")
            grid.add_row(Text(mark, style=f"bold {style}".strip()),
                         Text(diff_line[1:], style=style))
        at += 1
    return grid


def _run_of(lines: list[str], start: int, mark: str) -> list[str]:
    """The lines from `start` on that begin with `mark`, without it."""
    out = []
    for line in lines[start:]:
        if not line.startswith(mark) or line.startswith(("---", "+++")):
            break
        out.append(line[1:])
    return out


def _marked(runs: list[Run], style: str) -> Text:
    text = Text(style=style)
    for run in runs:
        text.append(run.text, style=f"reverse {style}" if run.changed else "")
    return text


def edit_detail(p: Proposal) -> list[RenderableType]:
    payload = p.payload
    rows: list[tuple[str, Text | str | None]] = [
        ("Reason", _field(payload, "reason") or p.summary)]
    parts: list[RenderableType] = [fields(rows)]
    if payload.get("edited"):
        parts.append(Text("(replacement edited by you)", style="yellow"))
    parts.append(Text(""))
    parts.append(unified_diff(_field(payload, "original"), _field(payload, "replacement")))
    return parts


def letter_detail(p: Proposal) -> list[RenderableType]:
    return [Text(one_line(p.summary), style="bold"), Text(""),
            Text(clean_text(_field(p.payload, "text")))]
