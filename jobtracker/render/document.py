"""The document model both writers draw: plain data, read from Markdown once.

A document is a name (the first `# heading`), a contact line (the paragraph right
after it) and blocks in reading order: headings (level 2 a section, 3 and 4 an
entry inside it), paragraphs, lists (items may hold nested lists), rules and code
blocks. Text is a sequence of spans, each with its own emphasis, code flag and
link. The model is what a theme receives as JSON (`to_json`), so its field names
are the themes' interface: docs/render.md lists them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from jobtracker.render.words import pieces

BREAK = "\n"   # a span whose text is this is a line break inside its paragraph


@dataclass(frozen=True)
class Span:
    text: str
    strong: bool = False
    emph: bool = False
    code: bool = False
    link: str | None = None

    def to_json(self) -> list[dict[str, Any]]:
        """The span as the theme draws it: one JSON span per piece of its text, each
        with `keep` ("" may break at its spaces, "whole" one line, "fit" one line,
        shrunk if it must: jobtracker/render/words.py)."""
        return [{"text": text, "strong": self.strong, "emph": self.emph, "code": self.code,
                 "link": self.link, "keep": keep} for text, keep in pieces(self.text)]


Spans = tuple[Span, ...]


def plain(spans: Spans) -> str:
    """The spans' text as a reader sees it: line breaks as spaces, spaces collapsed."""
    return " ".join("".join(s.text for s in spans).split())


@dataclass(frozen=True)
class Heading:
    level: int          # 2 a section, 3 an entry, 4 a sub-entry
    spans: Spans
    line: int           # 1-based line in the source, for messages


@dataclass(frozen=True)
class Paragraph:
    spans: Spans
    line: int


@dataclass(frozen=True)
class Item:
    spans: Spans                         # the item's own text (its first paragraph)
    blocks: tuple[Block, ...] = ()       # what follows inside it: nested lists, paragraphs
    line: int = 0


@dataclass(frozen=True)
class ListBlock:
    items: tuple[Item, ...]
    ordered: bool = False
    start: int = 1
    line: int = 0


@dataclass(frozen=True)
class Rule:
    line: int = 0


@dataclass(frozen=True)
class Code:
    text: str
    line: int = 0


Block = Heading | Paragraph | ListBlock | Rule | Code

_DETAIL_SPLIT = re.compile(r"\s*(?:[·|•]|\n)\s*")


@dataclass(frozen=True)
class Document:
    name: Spans = ()
    contact: Spans = ()
    blocks: tuple[Block, ...] = field(default_factory=tuple)
    name_line: int = 0          # the source lines of the name and the contact line
    contact_line: int = 0

    @property
    def title(self) -> str:
        return plain(self.name)

    @property
    def contact_details(self) -> list[str]:
        """The contact line cut at its separators (`·`, `|`, `•`, line breaks): each
        detail is looked for on its own in the read-back check."""
        text = "".join(s.text for s in self.contact)
        return [" ".join(part.split()) for part in _DETAIL_SPLIT.split(text) if part.strip()]

    @property
    def is_empty(self) -> bool:
        return not (self.name or self.contact or self.blocks)

    def to_json(self, paper: str) -> dict[str, Any]:
        return {"version": 1, "title": self.title, "paper": paper,
                "name": _spans(self.name), "contact": _spans(self.contact),
                "blocks": [_block(b) for b in self.blocks]}


def _spans(spans: Spans) -> list[dict[str, Any]]:
    return [piece for s in spans for piece in s.to_json()]


def _block(block: Block) -> dict[str, Any]:
    if isinstance(block, Heading):
        return {"kind": "heading", "level": block.level, "spans": _spans(block.spans)}
    if isinstance(block, Paragraph):
        return {"kind": "paragraph", "spans": _spans(block.spans)}
    if isinstance(block, ListBlock):
        return {"kind": "list", "ordered": block.ordered, "start": block.start,
                "items": [{"spans": _spans(i.spans), "blocks": [_block(b) for b in i.blocks]}
                          for i in block.items]}
    if isinstance(block, Code):
        return {"kind": "code", "text": block.text}
    return {"kind": "rule"}


@dataclass(frozen=True)
class Piece:
    """One piece of text the read-back check must find."""

    what: str           # "name", "contact detail", "heading", "paragraph", ...
    text: str
    line: int = 0       # its line in the source document (0: not known)
    level: int = 0      # a heading's level


def expected_text(document: Document) -> list[Piece]:
    """Everything the read-back check must find, in reading order: the name, each
    contact detail, every heading, paragraph and list item (an item's own text; its
    nested items follow it). Code blocks are checked line by line."""
    out: list[Piece] = []
    if document.name:
        out.append(Piece("name", document.title, document.name_line, 1))
    out += [Piece("contact detail", detail, document.contact_line)
            for detail in document.contact_details]
    _walk(document.blocks, out)
    return [piece for piece in out if piece.text]


def _walk(blocks: tuple[Block, ...], out: list[Piece]) -> None:
    for block in blocks:
        if isinstance(block, Heading):
            out.append(Piece("heading", plain(block.spans), block.line, block.level))
        elif isinstance(block, Paragraph):
            out.append(Piece("paragraph", plain(block.spans), block.line))
        elif isinstance(block, ListBlock):
            for item in block.items:
                out.append(Piece("list item", plain(item.spans), item.line))
                _walk(item.blocks, out)
        elif isinstance(block, Code):
            out += [Piece("code line", " ".join(text.split()), block.line + number)
                    for number, text in enumerate(block.text.splitlines(), 1) if text.strip()]


def characters(document: Document) -> str:
    """Every character of the document's text (for the glyph lookup and the count of
    replacement characters the document holds itself)."""
    parts = [s.text for s in document.name + document.contact]
    _texts(document.blocks, parts)
    return "".join(parts)


def _texts(blocks: tuple[Block, ...], out: list[str]) -> None:
    for block in blocks:
        if isinstance(block, Heading | Paragraph):
            out += [s.text for s in block.spans]
        elif isinstance(block, ListBlock):
            for item in block.items:
                out += [s.text for s in item.spans]
                _texts(item.blocks, out)
        elif isinstance(block, Code):
            out.append(block.text)
