"""What a proposal's detail is made of: lines of plain data, each with a role.

A kind describes how one of its proposals reads as a list of `Line`s; the TUI's
review renders them with styles (`tui/proposal_view.py`), never as markup, and
knows no kind. A line's `role` says what it is, from a few generic ones (`ROLES`);
its text is a string, or `Span`s when some words stand out (`EMPHASES`).

Besides the data, the helpers most kinds need: `field` rows, a unified `diff` whose
changed words are marked, and a `quote_in` its paragraph. Everything here is text
in, text out: no Textual, no Rich, no database.
"""

from __future__ import annotations

import difflib
import re
from typing import NamedTuple

from jobtracker.text import clean_text, one_line
from jobtracker.worddiff import block_runs

# role -> what it is (docs/proposals.md has the same table, with how each is shown).
ROLES = {
    "text": "plain text; it wraps, line breaks kept",
    "heading": "a section's title; below the first line, a blank line sets it off",
    "note": "something to notice (the user edited it; it is not what it was)",
    "dim": "a remark that matters less (nothing here; the text is not stored)",
    "field": "`label  value` on one line; fields in a row share one column of labels",
    "removed": "a diff line taken out, after its `-` mark",
    "added": "a diff line put in, after its `+` mark",
    "context": "a diff line kept, after a blank mark",
    "hunk": "a diff's `@@ … @@` position line",
    "header": "a diff's `---` / `+++` line",
}
# Diff lines are laid out in two columns: the mark, then the text.
DIFF_ROLES = ("removed", "added", "context", "hunk", "header")

# emphasis -> what it marks within a line.
EMPHASES = {
    "": "as the line around it",
    "strong": "the part that matters (the status it moves to)",
    "changed": "the words that changed within a diff line",
    "quote": "the words quoted as evidence, set off by ▶ ◀",
    "note": "as a `note` line",
    "dim": "as a `dim` line",
}


class Span(NamedTuple):
    text: str
    emphasis: str = ""


class Line(NamedTuple):
    """One line of a proposal's detail. `label` is a field's (role `field`) only."""

    role: str
    text: str | tuple[Span, ...]
    label: str = ""

    @property
    def spans(self) -> tuple[Span, ...]:
        return (Span(self.text),) if isinstance(self.text, str) else self.text

    @property
    def plain(self) -> str:
        return "".join(span.text for span in self.spans)


def field(label: str, value: str | tuple[Span, ...] | None) -> Line:
    """`label  value`; a missing value shows as nothing."""
    return Line("field", value if isinstance(value, tuple) else one_line(value), label)


def blank() -> Line:
    return Line("text", "")


def text_field(payload: dict[str, object], name: str) -> str:
    """A payload's text field; '' when it is missing or not text."""
    value = payload.get(name)
    return value if isinstance(value, str) else ""


# --- a unified diff, the changed words marked --------------------------------------------

def diff(original: str, replacement: str, context: int = 2) -> list[Line]:
    """original → replacement as a unified diff: `header`, `hunk`, `context`,
    `removed` and `added` lines. A removed line paired with its new version has the
    words that changed as `changed` spans, on both sides; `(no change)` when equal."""
    lines = list(difflib.unified_diff(clean_text(original).splitlines(),
                                      clean_text(replacement).splitlines(),
                                      "original", "replacement", lineterm="", n=context))
    if not lines:
        return [Line("dim", "(no change)")]
    out: list[Line] = []
    at = 0
    while at < len(lines):
        diff_line = lines[at]
        if diff_line.startswith(("---", "+++")):
            out.append(Line("header", diff_line))
        elif diff_line.startswith("@"):
            out.append(Line("hunk", diff_line))
        elif diff_line.startswith("-"):
            removed = _run_of(lines, at, "-")
            added = _run_of(lines, at + len(removed), "+")
            for role, block in zip(("removed", "added"), block_runs(removed, added),
                                   strict=True):
                out += [Line(role, tuple(Span(run.text, "changed" if run.changed else ""
                                              ) for run in runs)) for runs in block]
            at += len(removed) + len(added)
            continue
        elif diff_line.startswith("+"):
            out.append(Line("added", diff_line[1:]))
        else:
            out.append(Line("context", diff_line[1:]))
        at += 1
    return out


def _run_of(lines: list[str], start: int, mark: str) -> list[str]:
    """The lines from `start` on that begin with `mark`, without it."""
    out = []
    for line in lines[start:]:
        if not line.startswith(mark) or line.startswith(("---", "+++")):
            break
        out.append(line[1:])
    return out


# --- a quote in its paragraph -----------------------------------------------------------

_SPACES = re.compile(r"\s+")


def quote_in(body: str | None, quote: str) -> list[Line]:
    """The paragraph of `body` that holds `quote`, the quote a `quote` span; the quote
    alone, and a word that the text is gone, when the body does not hold it."""
    quote = one_line(quote)
    if not quote:
        return [Line("dim", "(no quote)")]
    for paragraph in re.split(r"\n\s*\n", clean_text(body or "")):
        flat = _SPACES.sub(" ", paragraph).strip()
        # Found in `flat` itself, ignoring case: indexes into a lower-cased copy are not
        # indexes into the text ('İ'.lower() is two characters).
        found = re.search(re.escape(quote), flat, re.IGNORECASE)
        if found is not None:
            at, end = found.span()
            return [Line("text", (Span(flat[:at]), Span(flat[at:end], "quote"),
                                  Span(flat[end:])))]
    # The remark is dim and strong: it says why the evidence cannot be checked here.
    return [Line("text", (Span(quote, "quote"),)),
            Line("dim", (Span("(the message's text is not stored, or no longer holds the "
                              "quote)", "strong"),))]


__all__ = ["DIFF_ROLES", "EMPHASES", "ROLES", "Line", "Span", "blank", "diff", "field",
           "quote_in", "text_field"]
