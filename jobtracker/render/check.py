"""Reading a PDF back before it goes: is everything in its text layer, in order, and
on the page?

An ATS reads a PDF's text layer, not its picture; a person reads the picture. So
every PDF jobtracker writes is read back with pypdf (plain extraction, which follows
the content stream, i.e. reading order) and must hold, in order, every piece of text
the document model holds (`expected_text`): the name, each contact detail, every
heading, paragraph and list item, as the theme set it: a heading the theme sets in
capitals is looked for in capitals, upper-cased the way Typst does it (so a dotless
ı is looked for as I, and ǰ as J + caron). Found text is searched for after the
previous find, so a piece out of order is missing.

Compared: runs of whitespace as one space (a wrapped line breaks between words),
case folded, Unicode composed (NFC). Not forgiven: a space inside a word
("veri fication", "length- limited") or a missing one. Counted apart: ligature code
points (U+FB00–U+FB06, which make "verification" unfindable as a keyword),
undecodable glyphs (NUL, or U+FFFD beyond those the document holds itself), and
**text outside the page**: every text run's position and width (pypdf's visitor and
the font's widths) must lie inside the page, so a line too long to break that runs
off the right edge, which the text layer has and the printed page does not, fails.
pypdf lays right-to-left runs out in visual order, so a piece holding right-to-left
letters is found word by word, its words in any order.

`problems` words a failed check the same way for `jobtracker render` and `prepare`:
each missing piece quoted whole (or its start and end around "…") with the line of
the document it comes from.
"""

from __future__ import annotations

import io
import logging
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pypdf
from pypdf.errors import PdfReadError
from pypdf.generic._font import Font

from jobtracker.render.document import Document, Piece, characters, expected_text

LIGATURES = re.compile("[\ufb00-\ufb06]")
UNDECODABLE = ("\x00", "\ufffd")
_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
_SPACES = re.compile(r"\s+")
# A letter with combining marks drawn as several glyphs (J + caron, upper-cased ǰ):
# pypdf gives the cluster's text once per glyph ("PROJ̌J̌ECT"). Once is what was set.
_REPEATED_CLUSTER = re.compile(r"(\w[\u0300-\u036f]+)\1+")
EDGE_SLACK = 0.5       # points a glyph may stand past the page's edge (rounding)
QUOTE = 80             # characters of a missing piece quoted whole; longer: start … end


@dataclass(frozen=True)
class Outside:
    """A run of text that lies (partly) outside its page: the layer has it, paper not."""

    text: str
    page: int           # 1-based
    edge: str           # "right", "left", "top", "bottom"
    line: int = 0       # the document's line it comes from (0: not known)

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "page": self.page, "edge": self.edge, "line": self.line}


@dataclass(frozen=True)
class Check:
    ok: bool
    missing: list[str] = field(default_factory=list)    # text not found, in document order
    ligatures: int = 0
    undecodable: int = 0
    pages: int = 0
    missing_lines: list[int] = field(default_factory=list)   # the source line of each
    outside: list[Outside] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "missing": self.missing, "ligatures": self.ligatures,
                "undecodable": self.undecodable,
                "outside": [o.to_json() for o in self.outside]}


@dataclass(frozen=True)
class Layer:
    """A PDF's text layer as pypdf reads it."""

    text: str                                  # page after page
    pages: int
    page_texts: list[str] = field(default_factory=list)
    outside: list[tuple[int, str, str]] = field(default_factory=list)   # page, edge, text


def normal(text: str) -> str:
    """`text` as the check compares it: a repeated cluster once, whitespace runs as one
    space, case folded, composed (NFC)."""
    composed = unicodedata.normalize("NFC", _REPEATED_CLUSTER.sub(r"\1", text))
    return unicodedata.normalize("NFC", _SPACES.sub(" ", composed).strip().casefold())


def _widths(font: Any, cache: dict[int, dict[str, float]]) -> dict[str, float]:
    """The font's advance widths (thousandths of its size) by the text each glyph
    stands for."""
    found = cache.get(id(font))
    if found is None:
        try:
            parsed = Font.from_font_resource(font)
            cmap = parsed.character_map or {}
            found = {cmap.get(code, code): float(width)
                     for code, width in parsed.character_widths.items()}
            found["\0default"] = float(parsed.character_widths.get("default", 500.0))
            found["\0widest"] = max(found.values())
        except Exception:          # a font pypdf cannot measure is not measured
            found = {}
        cache[id(font)] = found
    return found


def read(pdf: bytes) -> Layer:
    """The PDF's text layer, page after page, with every text run that lies outside
    its page; ValueError when pypdf cannot read it."""
    # pypdf logs each font quirk as a warning on the root logger's handlers: the
    # result says what matters, the log would only be noise on a terminal.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    fonts: dict[int, dict[str, float]] = {}
    outside: list[tuple[int, str, str]] = []
    texts: list[str] = []
    try:
        reader = pypdf.PdfReader(io.BytesIO(pdf))
        for number, page in enumerate(reader.pages, 1):
            box = page.mediabox
            left, bottom = float(box.left), float(box.bottom)
            right, top = float(box.right), float(box.top)

            def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float,
                      number: int = number, left: float = left, bottom: float = bottom,
                      right: float = right, top: float = top) -> None:
                shown = text.strip()
                if not shown or font is None:
                    return
                x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
                y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
                widths = _widths(font, fonts)
                if not widths:
                    return
                scale = size / 1000 * (tm[0] * cm[0] + tm[1] * cm[2])
                end = x + len(text) * widths["\0widest"] * scale
                if end > right + EDGE_SLACK:     # it might reach the edge: measure it
                    default = widths["\0default"]
                    run = text.rstrip().replace("\n", "")
                    end = x + sum(widths.get(ch, default) for ch in run) * scale
                edge = ("right" if end > right + EDGE_SLACK else
                        "left" if x < left - EDGE_SLACK else
                        "bottom" if y < bottom - EDGE_SLACK else
                        "top" if y > top + EDGE_SLACK else "")
                if edge:
                    outside.append((number, edge, shown))

            texts.append(page.extract_text(visitor_text=visit) or "")
    except (PdfReadError, ValueError, KeyError, TypeError, ZeroDivisionError) as exc:
        raise ValueError(f"the PDF cannot be read back: {exc}") from None
    return Layer("\n".join(texts), len(texts), texts, outside)


def extract(pdf: bytes) -> tuple[str, int]:
    """The PDF's text layer, page after page, and its page count."""
    layer = read(pdf)
    return layer.text, layer.pages


def _find(haystack: str, needle: str, start: int) -> int:
    """The end of `needle` in `haystack` after `start`, or -1."""
    if _RTL.search(needle):
        # Visual order, and pypdf may drop the space between right-to-left words:
        # each word must be there, in any order, before the next piece.
        ends = []
        for word in needle.split(" "):
            at = haystack.find(word, start)
            if at < 0:
                return -1
            ends.append(at + len(word))
        return max(ends)
    at = haystack.find(needle, start)
    return -1 if at < 0 else at + len(needle)


def _forms(piece: Piece, upper: Iterable[int] | None) -> list[str]:
    """The ways the theme may have set `piece`: as written, and in capitals when it is
    a heading of a level the theme upper-cases (`upper` None: any level may be)."""
    forms = [normal(piece.text)]
    if piece.what == "heading" and (upper is None or piece.level in upper):
        capital = normal(piece.text.upper())
        if capital != forms[0]:
            forms.insert(0, capital)
    return forms


def check_text(text: str, document: Document, pages: int = 0,
               upper: Iterable[int] | None = (2,),
               outside: list[tuple[int, str, str]] | None = None) -> Check:
    """Is every piece of `document` in `text` (a PDF's text layer), in order?
    `upper`: the heading levels the theme sets in capitals (None: not known).
    `outside`: the text runs that lie outside their page (`read`)."""
    haystack = normal(text)
    upper = tuple(upper) if upper is not None else None
    missing: list[Piece] = []
    position = 0
    pieces = expected_text(document)
    for piece in pieces:
        ends = [end for end in (_find(haystack, form, position)
                                for form in _forms(piece, upper)) if end >= 0]
        if ends:
            position = min(ends)
        else:
            missing.append(piece)
    ligatures = len(LIGATURES.findall(text))
    own = characters(document).count("\ufffd")
    undecodable = text.count("\x00") + max(0, text.count("\ufffd") - own)
    off = [Outside(shown, page, edge, _line_of(shown, pieces))
           for page, edge, shown in outside or ()]
    ok = not missing and not ligatures and not undecodable and not off
    return Check(ok, [p.text for p in missing], ligatures, undecodable, pages,
                 [p.line for p in missing], off)


def _line_of(shown: str, pieces: list[Piece]) -> int:
    run = normal(shown)
    for piece in pieces:
        if run in normal(piece.text) or run in normal(piece.text.upper()):
            return piece.line
    return 0


def check_pdf(pdf: bytes, document: Document, upper: Iterable[int] | None = (2,)) -> Check:
    layer = read(pdf)
    return check_text(layer.text, document, layer.pages, upper, layer.outside)


def quote(text: str, limit: int = QUOTE) -> str:
    """`text` quoted whole, or its start and its end around "…" when it is long."""
    if len(text) <= limit:
        return f"'{text}'"
    head = text[: limit * 2 // 3].rstrip()
    tail = text[-(limit // 3):].lstrip()
    return f"'{head} … {tail}'"


def problems(result: Check, name: str, most: int = 5) -> str:
    """What a failed check found, in one wording for every command: each missing
    piece or run off the page quoted with the document's line (`resume.md:12: ...`)."""
    def where(line: int) -> str:
        return f"{name}:{line}: " if line else f"{name}: "

    parts = [f"{where(line)}{quote(text)} is missing from its text layer (or out of order)"
             for text, line in zip(result.missing, result.missing_lines
                                   or [0] * len(result.missing), strict=False)]
    parts += [f"{where(o.line)}{quote(o.text)} runs off the {o.edge} edge of page {o.page} "
              "(a word too long for a line: shorten it, or make it a link with short text)"
              for o in result.outside]
    shown = parts[:most]
    if len(parts) > most:
        shown.append(f"and {len(parts) - most} more")
    if result.ligatures:
        shown.append(f"{result.ligatures} ligature code point(s) (U+FB00-U+FB06) in its text")
    if result.undecodable:
        shown.append(f"{result.undecodable} glyph(s) with no text behind them")
    return "; ".join(shown)
