"""config.yaml's `render:` section (docs/render.md): the theme, the paper, the formats,
and `render.dates`, how `resume import` writes a resume's dates.

    render:
      dates:
        months: short       # short (Dec 2013) | long (December 2013) | numeric (12/2013)
                            # | a list of the twelve month names in your language
        present: present    # the word for an entry that has not ended ("Jun 2011 – present")

English by default. `load` checks the section like the rest of config.yaml (the error
names the file, line and key); `DateStyle` is the dates' part, and `words` turns a JSON
Resume date ("2013-12-01", "2013-12", "2013") into the resume's own words ("Dec 2013",
"2013"); a date that is not one of those shapes is kept as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jobtracker.render import themes
from jobtracker.yamlfile import Document, checks

MONTH_STYLES = ("short", "long", "numeric")
LONG = ("January", "February", "March", "April", "May", "June", "July", "August",
        "September", "October", "November", "December")
SHORT = tuple(name[:3] for name in LONG)
_ISO = re.compile(r"^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:T[\d:.+\-Z]*)?$")


@dataclass(frozen=True)
class DateStyle:
    months: tuple[str, ...] = SHORT          # twelve names; () for numeric (12/2013)
    present: str = "present"

    def words(self, date: str) -> str:
        """A JSON Resume date in the resume's words; anything else as written."""
        found = _ISO.match(date.strip())
        if found is None:
            return date.strip()
        year, month = found.group(1), found.group(2)
        if month is None or not 1 <= int(month) <= 12:
            return year if month is None else date.strip()
        if not self.months:
            return f"{int(month):02d}/{year}"
        return f"{self.months[int(month) - 1]} {year}"

    def span(self, start: str, end: str) -> str:
        """`start` to `end` in words: "Dec 2013 – Dec 2014", "Jun 2011 – present", one
        date when both are the same, the end alone when there is no start."""
        begin, until = self.words(start) if start else "", self.words(end) if end else ""
        if begin and until:
            return begin if begin == until else f"{begin} – {until}"
        if begin:
            return f"{begin} – {self.present}"
        return until


def load_dates(doc: Document, value: Any, *at: str) -> DateStyle:
    """`render.dates` from config.yaml (`value` its parsed mapping, `at` its path)."""
    if value is None:
        return DateStyle()
    if not isinstance(value, dict):
        raise doc.error(f"must be a mapping, got {type(value).__name__}", *at)
    for key in value:
        if key not in ("months", "present"):
            raise doc.error("unknown key (expected one of: months, present)", *at, key)
    months = value.get("months", "short")
    if isinstance(months, list):
        if len(months) != 12 or not all(isinstance(m, str) and m.strip() for m in months):
            raise doc.error("must be short, long, numeric or a list of twelve month names",
                            *at, "months")
        names = tuple(m.strip() for m in months)
    elif months in MONTH_STYLES:
        names = {"short": SHORT, "long": LONG, "numeric": ()}[months]
    else:
        raise doc.error(f"unknown month style {months!r} (expected one of: "
                        f"{', '.join(MONTH_STYLES)}, or a list of twelve month names)",
                        *at, "months")
    present = value.get("present", "present")
    if not isinstance(present, str) or not present.strip():
        raise doc.error("must be a non-empty string", *at, "present")
    return DateStyle(names, present.strip())


@dataclass(frozen=True)
class RenderConfig:
    """How documents are rendered (docs/render.md): the theme (a built-in name, or a
    .typ file; a relative path is from the workspace), the paper, and which formats
    a packet carries."""

    theme: str = themes.DEFAULT_THEME
    paper: str = themes.DEFAULT_PAPER
    formats: tuple[str, ...] = ("pdf",)
    home: Path | None = None          # where a relative theme path starts
    dates: DateStyle = field(default_factory=lambda: DateStyle())

    def find_theme(self) -> themes.Theme:
        return themes.find_theme(self.theme, self.home)


RENDER_FORMATS = ("pdf", "docx")


def load(doc: Document, value: Any) -> RenderConfig:
    raw = checks.mapping(doc, value, "render", allowed=("theme", "paper", "formats", "dates"))
    home = doc.path.parent
    theme = checks.string(doc, raw.get("theme", themes.DEFAULT_THEME), "render", "theme").strip()
    try:
        themes.find_theme(theme, home)
    except themes.ThemeError as exc:
        raise doc.error(str(exc), "render", "theme") from None
    paper = checks.string(doc, raw.get("paper", themes.DEFAULT_PAPER), "render",
                          "paper").strip().lower()
    if paper not in themes.PAPERS:
        raise doc.error(f"unknown paper {paper!r} (expected one of: {', '.join(themes.PAPERS)})",
                        "render", "paper")
    formats = checks.str_list(doc, raw.get("formats", ["pdf"]), "render", "formats",
                        check=lambda v: v in RENDER_FORMATS, expected=", ".join(RENDER_FORMATS))
    return RenderConfig(theme, paper, tuple(dict.fromkeys(formats)), home,
                        load_dates(doc, raw.get("dates"), "render", "dates"))
