"""An alert's HTML part → `Line`s: each block of text once, with the link it sits in.

The same technique as jobtracker/text.py's `html_to_text` (one split in C finds every
tag; scripts, styles and comments are dropped whole first), because a thousand
alerts of a thousand tags each must read in well under two seconds and the stdlib
parser spends ~4 µs a tag. Only anchors and card boxes are looked at in Python.

Every bound is counted, never silent: tags past MAX_TAGS, lines past MAX_LINES and
links that are not http(s) (`javascript:`, `file:`, `data:` ...: read as plain
text, their address dropped). End tags are not matched against open ones, so
nesting a thousand tables deep costs no more than a thousand siblings.
"""

from __future__ import annotations

import html as htmllib
import re

from jobtracker.alerts.base import MAX_LINE_CHARS, Counts, Line, tidy

MAX_TAGS = 60_000
MAX_LINES = 6_000
MAX_HREF_CHARS = 4_000

_DROP = re.compile(
    r"<(?=[!?a-zA-Z])(?:!--.*?(?:-->|\Z)"
    r"|[!?][^<>]{0,4000}>"
    r"|(script|style|head|title|svg|noscript|template|iframe|object|xmp|textarea)\b"
    r"[^<>]{0,4000}>.*?(?:</\1\s*>|\Z))",
    re.S | re.I,
)
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9:-]{0,40})(?![a-zA-Z0-9:-])([^<>]{0,4000})>")
_HREF = re.compile(r"""\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.I)
_CLASS = re.compile(r"""\bclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.I)
# Tags that end a line of text (an anchor does too: a link's text is its own line).
_BREAKS = frozenset({
    "p", "div", "section", "article", "header", "footer", "main", "aside", "nav", "h1",
    "h2", "h3", "h4", "h5", "h6", "table", "tbody", "thead", "tfoot", "tr", "td", "th",
    "li", "ul", "ol", "dl", "dt", "dd", "br", "hr", "blockquote", "pre", "center", "form",
    "a", "button", "figure", "figcaption", "address", "caption"})
_SAFE_SCHEMES = ("http://", "https://")


def _attribute(pattern: re.Pattern[str], attrs: str) -> str | None:
    found = pattern.search(attrs)
    if not found:
        return None
    value = next(group for group in found.groups() if group is not None)
    return htmllib.unescape(value) if "&" in value else value


class _Reader:
    """The state of one pass over the tags: the open link, the open card box."""

    def __init__(self, box: tuple[str, str] | None, counts: Counts) -> None:
        self.box_tag, self.box_class = box if box else ("", "")
        self.counts = counts
        self.lines: list[Line] = []
        self.buffer: list[str] = []
        self.href: str | None = None
        self.href_used = False      # the open link gave a line of text
        self.boxes: list[tuple[int, int]] = []     # (box id, depth of box_tag when opened)
        self.depth = 0
        self.next_box = 0

    @property
    def current_box(self) -> int:
        return self.boxes[-1][0] if self.boxes else 0

    def flush(self) -> None:
        if not self.buffer:
            return
        text = "".join(self.buffer)
        self.buffer = []
        if "&" in text:
            text = htmllib.unescape(text)
        text = tidy(text, MAX_LINE_CHARS)
        if text:
            self.add(Line(text, self.href, self.current_box))
            if self.href is not None:
                self.href_used = True

    def add(self, line: Line) -> None:
        if len(self.lines) < MAX_LINES:
            self.lines.append(line)
        else:
            self.counts.over_bounds += 1

    def open_link(self, attrs: str) -> None:
        href = _attribute(_HREF, attrs)
        if href is not None:
            href = href.strip()
            if not href.lower().startswith(_SAFE_SCHEMES):
                if href and not href.startswith(("#", "mailto:", "tel:")):
                    self.counts.unsafe_links += 1
                href = None
            elif len(href) > MAX_HREF_CHARS:
                self.counts.over_bounds += 1
                href = None
        self.href, self.href_used = href, False

    def close_link(self) -> None:
        if self.href is not None and not self.href_used:
            # A link with no text (a logo) still marks where its card starts.
            self.add(Line("", self.href, self.current_box))
        self.href, self.href_used = None, False

    def tag(self, slash: str, name: str, attrs: str) -> None:
        name = name.lower()
        if name in _BREAKS:
            self.flush()
        if name == "a":
            if slash:
                self.close_link()
            else:
                if self.href is not None:
                    self.close_link()       # an anchor left open: the next one starts
                self.open_link(attrs)
        elif name == self.box_tag:
            self.box(slash, attrs)

    def box(self, slash: str, attrs: str) -> None:
        if slash:
            self.depth = max(self.depth - 1, 0)
            while self.boxes and self.boxes[-1][1] > self.depth:
                self.boxes.pop()
            return
        self.depth += 1
        classes = (_attribute(_CLASS, attrs) or "").split()
        if self.box_class in classes and len(self.boxes) < 64:
            self.next_box += 1
            self.boxes.append((self.next_box, self.depth))


def lines_from_html(markup: str, counts: Counts,
                    box: tuple[str, str] | None = None) -> list[Line]:
    """The lines of an HTML part. `box`: (tag, class) of the element holding one card;
    lines inside one carry its number."""
    if not markup:
        return []
    text = _DROP.sub(" ", markup)
    parts = _TAG.split(text)
    reader = _Reader(box, counts)
    tags = (len(parts) - 1) // 4
    if tags > MAX_TAGS:
        counts.over_bounds += tags - MAX_TAGS
        parts = parts[:4 * MAX_TAGS + 1]
    reader.buffer.append(parts[0])
    for index in range(1, len(parts) - 1, 4):
        reader.tag(parts[index], parts[index + 1], parts[index + 2])
        piece = parts[index + 3]
        if piece and not piece.isspace():
            reader.buffer.append(piece)
        elif piece and reader.buffer:
            reader.buffer.append(" ")
    reader.flush()
    reader.close_link()
    return reader.lines


__all__ = ["MAX_LINES", "MAX_TAGS", "lines_from_html"]
