"""Untrusted text made into something a widget shows exactly as written.

Titles, descriptions, emails and model answers can hold Rich or Textual markup
(`[red]`, `[link=...]`, `[@click=...]`) and terminal control sequences. Every
such string reaches a widget through these helpers: control characters are
removed by `jobtracker.text` (ESC and C1 included — Rich's `Text` keeps ESC),
and the result is a `rich.text.Text`, which is never parsed as markup.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from jobtracker.text import clean_text, one_line


def line(value: object, limit: int = 0, style: str | Style = "") -> Text:
    """One line of untrusted text, literally: no markup, no control characters."""
    return Text(one_line("" if value is None else str(value), limit), style=style,
                no_wrap=True, overflow="ellipsis")


def block(value: object, style: str | Style = "") -> Text:
    """Untrusted multi-line text, literally (line breaks and tabs kept)."""
    return Text(clean_text("" if value is None else str(value)), style=style)


def plain(value: object) -> str:
    """One clean line as a plain string, for widgets that take `str` without markup
    (`Log`)."""
    return one_line("" if value is None else str(value))
