"""Rendering one Markdown text: read it, draw it, read the PDF back. No file written.

`build` is what `jobtracker render` and the packets share. Bad input — not UTF-8,
empty, nested past what the reader takes, a character no font of the theme can
draw, a theme that errs — is a `BadInput` whose message names the file and line;
a PDF whose text layer misses something is a result whose check is not ok (the
caller still writes it, and says what is missing).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from jobtracker.render.document import Document, Paragraph, Span
from jobtracker.render.themes import Theme

if TYPE_CHECKING:
    from jobtracker.render import check

FORMATS = ("pdf", "docx")
MAX_BYTES = 2_000_000      # a resume is kilobytes; past this a file is not one


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
    return document


def _glyphless(document: Document, text: str, theme: Theme, paper: str) -> list[str]:
    """The characters of `text` the theme's fonts have no glyph for: a probe document
    holding each non-ASCII character once, read back."""
    chars = sorted({ch for ch in text if ord(ch) > 127 and not ch.isspace()})
    from jobtracker.render import check, pdf  # loaded when a PDF is drawn (see build)

    probe = Document(blocks=(Paragraph(tuple(Span(f"{ch} ") for ch in chars), 1),))
    extracted, _ = check.extract(pdf.typeset(probe, theme, paper).pdf)
    return [ch for ch in chars if ch not in extracted]


def _describe(ch: str, text: str, name: str) -> str:
    line = next((n for n, row in enumerate(text.split("\n"), 1) if ch in row), 0)
    what = unicodedata.name(ch, "a character")
    return f"{name}:{line}: {ch} (U+{ord(ch):04X} {what})"


def build(text: str, name: str, fmt: str, theme: Theme, paper: str) -> Built:
    """`text` (Markdown, from the file `name`) as `fmt` bytes; a PDF is read back."""
    document = read_document(text, name)
    if fmt == "docx":
        # python-docx and lxml load only when a DOCX is asked for (about 10 MB).
        from jobtracker.render import word

        return Built(word.word(document, theme.name if theme.built_in else "", paper), fmt)
    # typst and pypdf load only when a PDF is drawn: the commands that import this module
    # for its names (prepare, work, the parser's --format) start ~0.4 s sooner.
    from jobtracker.render import check, pdf

    try:
        typeset = pdf.typeset(document, theme, paper)
    except pdf.ThemeFailed as exc:
        raise BadInput(f"theme error: {exc}") from None
    try:
        result = check.check_pdf(typeset.pdf, document, text)
    except ValueError as exc:
        raise BadInput(f"{name}: {exc}") from None
    if result.undecodable:
        missing = _glyphless(document, text, theme, paper)
        if missing:
            shown = "; ".join(_describe(ch, text, name) for ch in missing[:5])
            more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
            raise BadInput(f"no font of the theme {theme.name!r} can draw {shown}{more}: "
                           "it would print as an empty box; remove it, or use a theme "
                           "with a font that has it (docs/render.md)")
    return Built(typeset.pdf, fmt, result.pages, result, typeset.warnings)


def default_output(source: Path, fmt: str) -> Path:
    return source.with_suffix(f".{fmt}")
