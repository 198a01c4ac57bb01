"""Rendering one Markdown text: read it, draw it, read the PDF back. No file written.

`build` is what `jobtracker render` and the packets share. Bad input — not UTF-8,
empty, nested past what the reader takes, a character no font of the theme can
draw, a theme that errs, more than a resume's or a letter's amount of work — is a
`BadInput` whose message names the file and line; a PDF whose text layer misses
something is a result whose check is not ok (the caller still writes it, and says
what is missing).

The limits are of work, not of bytes: the writers' time grows with the number of
blocks (headings, paragraphs, list items, code lines) and of styled spans, and with
the pages typeset, so each is bounded (`MAX_BLOCKS`, `MAX_SPANS`, `MAX_PAGES`), and a
render that still runs past `DEADLINE` seconds is stopped at its next step.
"""

from __future__ import annotations

import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from jobtracker.render.document import (
    Block,
    Code,
    Document,
    Heading,
    ListBlock,
    Paragraph,
    Span,
    characters,
)
from jobtracker.render.themes import Theme

if TYPE_CHECKING:
    from jobtracker.render import check

FORMATS = ("pdf", "docx")
MAX_BYTES = 2_000_000      # a resume is kilobytes; past this a file is not one
MAX_BLOCKS = 3_000         # headings, paragraphs, list items and code lines
MAX_SPANS = 12_000         # runs of text with their own style or link
MAX_PAGES = 40             # typeset pages: an academic CV is long, this is longer
DEADLINE = 30.0            # seconds one document may take, checked between its steps


class BadInput(ValueError):
    """Input that cannot be rendered faithfully; the message says where and why."""


@dataclass(frozen=True)
class Built:
    data: bytes
    format: str
    pages: int = 0
    check: check.Check | None = None          # PDF only
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.check is None or self.check.ok


def decode(raw: bytes, name: str) -> str:
    if len(raw) > MAX_BYTES:
        raise BadInput(f"{name}: {len(raw):,} bytes is too large for a resume or letter "
                       f"(at most {MAX_BYTES:,})")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise BadInput(f"{name}:{line}: not UTF-8 text (byte {raw[exc.start]:#04x} at "
                       f"offset {exc.start}); save the file as UTF-8") from None


def read_document(text: str, name: str) -> Document:
    from jobtracker.render import markdown  # markdown-it: only when a text is read

    try:
        document = markdown.read(text)
    except markdown.MarkdownError as exc:
        raise BadInput(f"{name}:{exc.line}: {exc}") from None
    if document.is_empty:
        raise BadInput(f"{name}: nothing to render: the file holds no text")
    _bounded(document, name)
    return document


def _bounded(document: Document, name: str) -> None:
    """BadInput naming the line where the document passes MAX_BLOCKS or MAX_SPANS."""
    blocks, spans = 0, len(document.name) + len(document.contact)

    def walk(items: tuple[Block, ...]) -> None:
        nonlocal blocks, spans
        for block in items:
            line = getattr(block, "line", 0)
            if isinstance(block, ListBlock):
                for item in block.items:
                    blocks, spans = blocks + 1, spans + len(item.spans)
                    count(item.line or line)
                    walk(item.blocks)
                continue
            if isinstance(block, Code):
                blocks += block.text.count("\n") + 1
            else:
                blocks += 1
                spans += len(block.spans) if isinstance(block, Heading | Paragraph) else 0
            count(line)

    def count(line: int) -> None:
        if blocks > MAX_BLOCKS:
            raise BadInput(f"{name}:{line}: more than {MAX_BLOCKS:,} headings, paragraphs, "
                           "list items and code lines is not a resume or a letter; "
                           "split the file")
        if spans > MAX_SPANS:
            raise BadInput(f"{name}:{line}: more than {MAX_SPANS:,} runs of bold, italic, "
                           "code or linked text is not a resume or a letter; split the file "
                           "or use less emphasis")

    walk(document.blocks)


def _glyphless(document: Document, theme: Theme, paper: str) -> list[str]:
    """The characters of the document's text (the model's, not the source's: a mark
    the reading removed is no longer there) the theme's fonts have no glyph for: a
    probe document holding each non-ASCII character once, read back."""
    chars = list(dict.fromkeys(ch for ch in characters(document)     # in reading order
                               if ord(ch) > 127 and not ch.isspace() and ch != "\ufffd"))
    probe = Document(blocks=(Paragraph(tuple(Span(f"{ch} ") for ch in chars), 1),))
    from jobtracker.render import check, pdf  # loaded when a PDF is drawn (see build)

    extracted, _ = check.extract(pdf.typeset(probe, theme, paper).pdf)
    return [ch for ch in chars if ch not in extracted]


def _describe(ch: str, text: str, name: str) -> str:
    line = next((n for n, row in enumerate(text.split("\n"), 1) if ch in row), 0)
    what = unicodedata.name(ch, "a character")
    return f"{name}:{line}: {ch} (U+{ord(ch):04X} {what})"


def _first_line_past(layer: check.Layer, pages: int, document: Document) -> int:
    """The source line of the first piece of text that is not on the first `pages`
    pages, or 0."""
    from jobtracker.render import check

    first = check.check_text("\n".join(layer.page_texts[:pages]), document)
    return first.missing_lines[0] if first.missing_lines else 0


def _in_time(started: float, name: str) -> None:
    spent = time.monotonic() - started
    if spent > DEADLINE:
        raise BadInput(f"{name}: rendering took {spent:.0f} s, longer than the {DEADLINE:.0f} s "
                       "a resume or a letter may take; split the file")


def build(text: str, name: str, fmt: str, theme: Theme, paper: str) -> Built:
    """`text` (Markdown, from the file `name`) as `fmt` bytes; a PDF is read back."""
    started = time.monotonic()
    document = read_document(text, name)
    if fmt == "docx":
        # python-docx and lxml load only when a DOCX is asked for (about 10 MB).
        from jobtracker.render import word

        data = word.word(document, theme.name if theme.built_in else "", paper)
        _in_time(started, name)
        return Built(data, fmt)
    # typst and pypdf load only when a PDF is drawn: the commands that import this module
    # (prepare, render) pay for them then, and `jobtracker --help` never does.
    from jobtracker.render import check, pdf

    try:
        typeset = pdf.typeset(document, theme, paper)
    except pdf.ThemeFailed as exc:
        raise BadInput(f"theme error: {exc}") from None
    _in_time(started, name)
    try:
        layer = check.read(typeset.pdf)
    except ValueError as exc:
        raise BadInput(f"{name}: {exc}") from None
    if layer.pages > MAX_PAGES:
        line = _first_line_past(layer, MAX_PAGES, document)
        raise BadInput(f"{name}:{line or 1}: {layer.pages} pages is not a resume or a letter "
                       f"(at most {MAX_PAGES}; page {MAX_PAGES + 1} starts "
                       f"{'at this line' if line else 'past it'}); split the file")
    result = check.check_text(layer.text, document, layer.pages, theme.upper, layer.outside)
    if result.undecodable:
        missing = _glyphless(document, theme, paper)
        if missing:
            shown = "; ".join(_describe(ch, text, name) for ch in missing[:5])
            more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
            raise BadInput(f"no font of the theme {theme.name!r} can draw {shown}{more}: "
                           "it would print as an empty box; remove it, or use a theme "
                           "with a font that has it (docs/render.md)")
    _in_time(started, name)
    return Built(typeset.pdf, fmt, result.pages, result, typeset.warnings)


def default_output(source: Path, fmt: str) -> Path:
    return source.with_suffix(f".{fmt}")
