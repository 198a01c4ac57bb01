"""A `Document` → PDF bytes, through the `typst` package in this process.

The theme is a Typst file; the document reaches it only as JSON in
`sys.inputs.data`, so no character of the user's text is ever read as Typst
markup or code (`#set`, `$x$`, `@label` print as themselves). The timestamp is
fixed and only the fonts the typst wheel embeds (and a user theme's own `fonts/`)
are used, so the same document, theme and paper give the same bytes anywhere.
The PDF is tagged (its headings, lists and paragraphs carry structure), which
screen readers and some ATS parsers read.

One `typst.Compiler` is kept per theme file (and its modification time): loading
the fonts is most of a first compile's cost, and a recompile reuses it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import typst

from jobtracker.render.document import Document
from jobtracker.render.themes import Theme

# The PDF's creation and modification date, fixed so its bytes never depend on when
# it was made (a reader shows this date as "created").
TIMESTAMP = datetime(2000, 1, 1, tzinfo=UTC)
_WHERE = re.compile(r"┌─ (.+?):(\d+):(\d+)")


class ThemeFailed(ValueError):
    """The theme's Typst raised an error; the message names its file and line."""


@dataclass(frozen=True)
class Typeset:
    pdf: bytes
    warnings: list[str] = field(default_factory=list)   # "FILE:LINE: message" each


_COMPILERS: dict[tuple[Path, int], typst.Compiler] = {}


def _compiler(theme: Theme) -> typst.Compiler:
    key = (theme.path, theme.path.stat().st_mtime_ns)
    compiler = _COMPILERS.get(key)
    if compiler is None:
        fonts = [str(theme.fonts)] if theme.fonts else []
        compiler = typst.Compiler(str(theme.path), root=str(theme.path.parent),
                                  font_paths=fonts, ignore_system_fonts=True)
        for stale in [k for k in _COMPILERS if k[0] == theme.path]:
            del _COMPILERS[stale]
        _COMPILERS[key] = compiler
    return compiler


def _located(theme: Theme, message: str, diagnostic: str) -> str:
    """`THEME.typ:LINE: message`, the line taken from Typst's own diagnostic."""
    found = _WHERE.search(diagnostic or "")
    if found is None:
        return f"{theme.path}: {message}"
    name, line = found.group(1), found.group(2)
    path = theme.path if Path(name).name == theme.path.name else theme.path.parent / name
    return f"{path}:{line}: {message}"


def typeset(document: Document, theme: Theme, paper: str) -> Typeset:
    """The PDF of `document` in `theme` on `paper`; ThemeFailed when the theme errs."""
    data = json.dumps(document.to_json(paper), ensure_ascii=False)
    try:
        compiler = _compiler(theme)
        pdf, warnings = compiler.compile_with_warnings(
            format="pdf", sys_inputs={"data": data}, timestamp=TIMESTAMP, pdf_tags=True)
    except typst.TypstError as exc:
        raise ThemeFailed(_located(theme, exc.message, exc.diagnostic)) from None
    except OSError as exc:
        raise ThemeFailed(f"{theme.path}: {exc.strerror or exc}") from None
    if not isinstance(pdf, bytes):
        raise ThemeFailed(f"{theme.path}: Typst returned no PDF")
    return Typeset(pdf, [_located(theme, w.message, w.diagnostic) for w in warnings])
