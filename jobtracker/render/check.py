"""Reading a PDF back before it goes: is everything in its text layer, in order?

An ATS reads a PDF's text layer, not its picture. So every PDF jobtracker writes is
read back with pypdf (plain extraction, which follows the content stream, i.e.
reading order) and must hold, in order, every piece of text `expected_text` lists:
the name, each contact detail, every heading, paragraph and list item. Found
text is searched for after the previous find, so a piece out of order is missing.

Compared: runs of whitespace as one space (a wrapped line breaks mid-sentence),
and case folded (a theme may set headings in capitals). Not forgiven: a space
inside a word ("veri fication", as variable fonts produce) or a missing one.
Counted apart: ligature code points (U+FB00–U+FB06, which make "verification"
unfindable as a keyword) and undecodable glyphs (NUL or U+FFFD where a glyph has no
text behind it). pypdf lays right-to-left runs out in visual order, so a piece
holding right-to-left letters is found word by word, its words in any order.
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass, field
from typing import Any

import pypdf
from pypdf.errors import PdfReadError

from jobtracker.render.document import Document, expected_text

LIGATURES = re.compile("[\ufb00-\ufb06]")
UNDECODABLE = ("\x00", "\ufffd")
_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Check:
    ok: bool
    missing: list[str] = field(default_factory=list)    # text not found, in document order
    ligatures: int = 0
    undecodable: int = 0
    pages: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "missing": self.missing, "ligatures": self.ligatures,
                "undecodable": self.undecodable}


def normal(text: str) -> str:
    return _SPACES.sub(" ", text).strip().casefold()


def extract(pdf: bytes) -> tuple[str, int]:
    """The PDF's text layer, page after page, and its page count; ValueError when
    pypdf cannot read it."""
    # pypdf logs each font quirk as a warning on the root logger's handlers: the
    # result says what matters, the log would only be noise on a terminal.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = pypdf.PdfReader(io.BytesIO(pdf))
        pages = [page.extract_text() or "" for page in reader.pages]
    except (PdfReadError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"the PDF cannot be read back: {exc}") from None
    return "\n".join(pages), len(pages)


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


def check_text(text: str, document: Document, pages: int = 0,
               source_text: str = "") -> Check:
    """Is every piece of `document` in `text` (a PDF's text layer), in order?
    `source_text` is the document's own text: replacement characters it holds
    itself are not counted as undecodable."""
    haystack = normal(text)
    missing, position = [], 0
    for _what, piece in expected_text(document):
        needle = normal(piece)
        end = _find(haystack, needle, position)
        if end < 0:
            missing.append(piece)
        else:
            position = end
    ligatures = len(LIGATURES.findall(text))
    undecodable = text.count("\x00") + max(0, text.count("\ufffd")
                                           - source_text.count("\ufffd"))
    ok = not missing and not ligatures and not undecodable
    return Check(ok, missing, ligatures, undecodable, pages)


def check_pdf(pdf: bytes, document: Document, source_text: str = "") -> Check:
    text, pages = extract(pdf)
    return check_text(text, document, pages, source_text)
