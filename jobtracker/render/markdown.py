"""Markdown → `Document`, the one reading both writers share. Pure.

markdown-it-py's CommonMark preset with raw HTML off, so `<b>` in a resume is the
text `<b>`, never markup. A paragraph flows, as Markdown says, except one whose
lines are all short (under SHORT_LINE characters: an address, a letter's sign-off),
which keeps its line breaks; a hard break (two spaces or `\\` at the end of a
line) is always kept. Every piece of text passes
`clean_text`: control and format characters (ESC, bidi overrides, zero-width
marks) are removed, a tab is a space, and the ligature code points U+FB00–U+FB06
become their letters (they would defeat an ATS keyword search); variation
selectors are dropped.

markdown-it stops reading blocks nested deeper than its limit (20 levels of lists
and quotes) and drops what is inside; a line of text that no block took is an
error naming the line, never a silent loss. Lists nested deeper than
MAX_LIST_DEPTH are drawn at that depth.
"""

from __future__ import annotations

import re
import unicodedata

from markdown_it import MarkdownIt
from markdown_it.token import Token

from jobtracker.render.document import (
    BREAK,
    Block,
    Code,
    Document,
    Heading,
    Item,
    ListBlock,
    Paragraph,
    Rule,
    Span,
    Spans,
)
from jobtracker.text import clean_text

MAX_LIST_DEPTH = 6
SHORT_LINE = 40            # a paragraph of lines all shorter than this keeps its breaks
MAX_CONTACT_CHARS = 400     # a longer paragraph after the name is prose, not a contact line
LINK_SCHEMES = ("http://", "https://", "mailto:", "tel:")
MAX_LINK = 2048            # characters of a link's address (Typst refuses one past 8 KB)
_LIGATURES = {chr(c): unicodedata.normalize("NFKC", chr(c)) for c in range(0xFB00, 0xFB07)}
# Variation selectors only ask for a glyph's look (text or emoji); they have no
# glyph of their own and no text in a PDF's text layer.
_SELECTORS = {chr(c): "" for c in range(0xFE00, 0xFE10)}
_LIGATURE_TABLE = str.maketrans({**_LIGATURES, **_SELECTORS, "\t": " "})
# A source line whose only characters are block markers says nothing by itself.
_MARKERS_ONLY = re.compile(r"^(?:\s|>|[-*+](?=\s|$)|\d{1,9}[.)](?=\s|$))*$")
_REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:")


class MarkdownError(ValueError):
    """Markdown this reader cannot draw faithfully; `line` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False})


_MD = _parser()


def text_of(raw: str) -> str:
    return clean_text(raw).translate(_LIGATURE_TABLE)


def _href(token: Token) -> str | None:
    href = str(token.attrGet("href") or "")
    return href if href.lower().startswith(LINK_SCHEMES) else None


def _keeps_breaks(inline: Token) -> bool:
    lines = inline.content.split("\n")
    return len(lines) > 1 and all(len(line.strip()) < SHORT_LINE for line in lines)


def _spans(inline: Token) -> Spans:
    out: list[Span] = []
    soft = BREAK if _keeps_breaks(inline) else " "
    strong = emph = 0
    links: list[str | None] = []

    def add(text: str, code: bool = False) -> None:
        text = text_of(text) if text != BREAK else text
        if text:
            out.append(Span(text, strong > 0, emph > 0, code, links[-1] if links else None))

    for child in inline.children or ():
        kind = child.type
        if kind == "text":
            add(child.content)
        elif kind == "softbreak":
            add(soft)
        elif kind == "hardbreak":
            add(BREAK)
        elif kind == "code_inline":
            add(child.content, code=True)
        elif kind == "strong_open":
            strong += 1
        elif kind == "strong_close":
            strong -= 1
        elif kind == "em_open":
            emph += 1
        elif kind == "em_close":
            emph -= 1
        elif kind == "link_open":
            href = _href(child)
            if href is not None and len(href) > MAX_LINK:
                raise MarkdownError(_line(inline), f"a link of {len(href):,} characters is "
                                    f"longer than a document's link may be (at most "
                                    f"{MAX_LINK:,}); shorten it")
            links.append(href)
        elif kind == "link_close" and links:
            links.pop()
        elif kind == "image":
            add(child.content)        # its alt text: a resume carries no pictures
        elif child.content:
            add(child.content)        # anything else shows as the text it holds
    return _merge(out)


def _merge(spans: list[Span]) -> Spans:
    """Neighbouring spans with the same style joined: fewer, longer runs for the themes."""
    merged: list[Span] = []
    for span in spans:
        last = merged[-1] if merged else None
        if last is not None and BREAK not in (span.text, last.text) and \
                (last.strong, last.emph, last.code, last.link) == \
                (span.strong, span.emph, span.code, span.link):
            merged[-1] = Span(last.text + span.text, span.strong, span.emph, span.code,
                              span.link)
        else:
            merged.append(span)
    while merged and merged[-1].text == BREAK:
        merged.pop()
    return tuple(merged)


def _line(token: Token) -> int:
    return token.map[0] + 1 if token.map else 0


class _Reader:
    """Walks markdown-it's flat token list once, building blocks as it goes."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.at = 0

    def blocks(self, close: str | None, depth: int) -> list[Block]:
        out: list[Block] = []
        while self.at < len(self.tokens):
            token = self.tokens[self.at]
            if close is not None and token.type == close:
                self.at += 1
                return out
            self.at += 1
            kind = token.type
            if kind == "heading_open":
                out.append(Heading(int(token.tag[1:]), self._inline(), _line(token)))
                self.at += 1                      # heading_close
            elif kind == "paragraph_open":
                out.append(Paragraph(self._inline(), _line(token)))
                self.at += 1                      # paragraph_close
            elif kind in ("bullet_list_open", "ordered_list_open"):
                out.append(self._list(token, depth + 1))
            elif kind == "blockquote_open":
                out += self.blocks("blockquote_close", depth)   # a quote is its text
            elif kind in ("fence", "code_block"):
                code = text_of(token.content).rstrip("\n")
                if code.strip():
                    out.append(Code(code, _line(token)))
            elif kind == "hr":
                out.append(Rule(_line(token)))
            elif kind == "inline":
                out.append(Paragraph(_spans(token), _line(token)))
        return out

    def _inline(self) -> Spans:
        token = self.tokens[self.at]
        self.at += 1
        return _spans(token) if token.type == "inline" else ()

    def _list(self, opening: Token, depth: int) -> ListBlock:
        close = opening.type.replace("_open", "_close")
        ordered = opening.type == "ordered_list_open"
        start = int(opening.attrGet("start") or 1) if ordered else 1
        items: list[Item] = []
        while self.at < len(self.tokens):
            token = self.tokens[self.at]
            self.at += 1
            if token.type == close:
                break
            if token.type != "list_item_open":
                continue
            inner = self.blocks("list_item_close", depth)
            spans: Spans = ()
            if inner and isinstance(inner[0], Paragraph):
                spans = inner.pop(0).spans
            item = Item(spans, tuple(inner), _line(token))
            items += _flatten(item) if depth >= MAX_LIST_DEPTH else [item]
        return ListBlock(tuple(items), ordered, min(start, 10**9), _line(opening))


def _flatten(item: Item) -> list[Item]:
    """An item and the items of every list nested in it, side by side (past the deepest
    level a theme draws)."""
    out = [Item(item.spans, tuple(b for b in item.blocks if not isinstance(b, ListBlock)),
                item.line)]
    for block in item.blocks:
        if isinstance(block, ListBlock):
            for inner in block.items:
                out += _flatten(inner)
    return out


def _covered(tokens: list[Token]) -> set[int]:
    """The 0-based source lines whose text some block read."""
    lines: set[int] = set()
    for token in tokens:
        if token.map and token.type in ("inline", "fence", "code_block", "hr", "heading_open"):
            lines.update(range(token.map[0], token.map[1]))
    return lines


def _dropped(source: str, tokens: list[Token]) -> int | None:
    """The first line (1-based) holding text that no block read, or None."""
    covered = _covered(tokens)
    for number, line in enumerate(source.split("\n")):
        if number in covered or _MARKERS_ONLY.match(line) or _REFERENCE.match(line):
            continue
        return number + 1
    return None


def _shape(blocks: list[Block]) -> Document:
    """The first `#` heading is the name and the short paragraph after it the contact
    line; every other heading keeps its rank as a section (2) or an entry (3, 4)."""
    name: Spans = ()
    contact: Spans = ()
    name_line = contact_line = 0
    if blocks and isinstance(blocks[0], Heading) and blocks[0].level == 1:
        name_line = blocks[0].line
        name = blocks.pop(0).spans
        if blocks and isinstance(blocks[0], Paragraph) and \
                len("".join(s.text for s in blocks[0].spans)) <= MAX_CONTACT_CHARS:
            contact_line = blocks[0].line
            contact = blocks.pop(0).spans
    shaped = [Heading(min(max(b.level, 2), 4), b.spans, b.line) if isinstance(b, Heading) else b
              for b in blocks]
    return Document(name, contact, tuple(b for b in shaped if not _blank(b)), name_line,
                    contact_line)


def _blank(block: Block) -> bool:
    return isinstance(block, Heading | Paragraph) and not block.spans


def read(source: str) -> Document:
    """The document `source` (Markdown) describes; MarkdownError when markdown-it
    dropped text it holds (nested past its limit)."""
    source = source.replace("\r\n", "\n").replace("\r", "\n")
    tokens = _MD.parse(source)
    lost = _dropped(source, tokens)
    if lost is not None:
        raise MarkdownError(lost, "nested too deeply: the Markdown reader stops at 20 levels "
                                  "of lists and quotes (a list inside an item counts two), "
                                  "and this line's text would be lost")
    return _shape(_Reader(tokens).blocks(None, 0))

