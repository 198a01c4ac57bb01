"""An alert's HTML part → `Line`s: each block of text once, with the link it sits in.

The markup goes through a real HTML5 parser (selectolax's Lexbor engine), which
applies the standard's rules for what ends an element: an omitted `</head>`,
`</p>`, `</td>`, `</tr>` or `</body>` ends where a browser ends it, a `<script>`'s
content is never markup, entities are decoded once. The tree is then walked in
document order without recursion (a thousand nested tables cost what a thousand
siblings cost): block elements end a line, an anchor's text is its own line carrying
its address, and a card box (a sender's `(tag, class)`) numbers the lines inside it.
No regular expression decides where an element ends (jobtracker/text.py holds the
parse, its budget and the walk, shared with posting descriptions).

Every bound is counted, never silent: elements past MAX_TAGS, lines past MAX_LINES,
addresses past MAX_HREF_CHARS, and links that are not http(s) (`javascript:`,
`file:`, `data:` ...: read as plain text, their address dropped).
"""

from __future__ import annotations

from selectolax.lexbor import LexborNode

from jobtracker.alerts.base import MAX_LINE_CHARS, Counts, Line, tidy
from jobtracker.text import html_tree, walk

MAX_TAGS = 60_000
MAX_LINES = 6_000
MAX_HREF_CHARS = 4_000

# Elements whose content is never text for a reader.
SKIPPED = frozenset(("script", "style", "head", "title", "svg", "noscript", "template",
                     "iframe", "object", "xmp", "textarea", "select", "math", "canvas"))
# Elements that end a line of text (an anchor does too: a link's text is its own line).
BREAKS = frozenset((
    "p", "div", "section", "article", "header", "footer", "main", "aside", "nav", "h1",
    "h2", "h3", "h4", "h5", "h6", "table", "tbody", "thead", "tfoot", "tr", "td", "th",
    "li", "ul", "ol", "dl", "dt", "dd", "br", "hr", "blockquote", "pre", "center", "form",
    "button", "figure", "figcaption", "address", "caption", "body", "html"))
_SAFE_SCHEMES = ("http://", "https://")
_HARMLESS = ("#", "mailto:", "tel:", "sms:")


def safe_href(node: LexborNode, counts: Counts) -> str:
    """An anchor's address when it is http(s) and bounded, else '' (counted)."""
    href = (node.attributes.get("href") or "").strip()
    if not href:
        return ""
    if not href[:8].lower().startswith(_SAFE_SCHEMES):
        if not href.lower().startswith(_HARMLESS):
            counts.unsafe_links += 1
        return ""
    if len(href) > MAX_HREF_CHARS:
        counts.over_bounds += 1
        return ""
    return "".join(href.split())    # a line break inside an address is no part of it


class _Walk:
    """The state of one walk: the text of the current line, the open anchors and boxes."""

    def __init__(self, counts: Counts, box: tuple[str, str] | None) -> None:
        self.counts = counts
        self.box = box
        self.out: list[Line] = []
        self.buffer: list[str] = []
        self.hrefs: list[tuple[str, bool]] = []      # (address, has it had text yet)
        self.boxes: list[int] = []
        self.next_box = 0
        self.opened: list[bool] = []     # per open element of the box's tag: is it a box
        self.full = False

    def flush(self) -> None:
        if not self.buffer:
            return
        text = "".join(self.buffer)
        self.buffer.clear()        # the same list: the walk appends to it
        if not text or text.isspace():
            return
        line = tidy(text, MAX_LINE_CHARS)
        if not line:
            return
        href = self.hrefs[-1][0] if self.hrefs else None
        if href is not None and not href:
            href = None
        if self.hrefs and href:
            self.hrefs[-1] = (self.hrefs[-1][0], True)
        self.add(Line(line, href, self.boxes[-1] if self.boxes else 0))

    def add(self, line: Line) -> None:
        if len(self.out) >= MAX_LINES:
            if not self.full:
                self.counts.over_bounds += 1
                self.full = True
            return
        self.out.append(line)

    def enter(self, node: LexborNode, tag: str) -> bool:
        if tag in SKIPPED:
            return False
        if tag in BREAKS:
            self.flush()
        if tag == "a":
            self.flush()
            self.hrefs.append((safe_href(node, self.counts), False))
        if self.box is not None and tag == self.box[0]:
            classes = (node.attributes.get("class") or "").split()
            if self.box[1] in classes and len(self.boxes) < 64:
                self.flush()
                self.next_box += 1
                self.boxes.append(self.next_box)
                self.opened.append(True)
            else:
                self.opened.append(False)
        return True

    def leave(self, tag: str) -> None:
        if tag in BREAKS:
            self.flush()
        if tag == "a" and self.hrefs:
            self.flush()
            href, used = self.hrefs.pop()
            if href and not used:
                # A link with no text (a logo) still marks where its card starts.
                self.add(Line("", href, self.boxes[-1] if self.boxes else 0))
        if self.box is not None and tag == self.box[0] and self.opened and self.opened.pop():
            self.flush()
            self.boxes.pop()


def lines_from_html(markup: str, counts: Counts,
                    box: tuple[str, str] | None = None) -> list[Line]:
    """The lines of an HTML part. `box`: (tag, class) of the element holding one card;
    lines inside one carry its number."""
    if not markup:
        return []
    tree, cut = html_tree(markup)
    if cut:
        counts.over_bounds += 1
    root = tree.root
    if root is None:
        return []
    lines = _Walk(counts, box)
    if not walk(root, lines.enter, lines.leave, lines.buffer.append, MAX_TAGS):
        counts.over_bounds += 1
    lines.flush()
    while lines.hrefs:           # anchors left open by a cut: their marks still count
        lines.leave("a")
    return lines.out


__all__ = ["BREAKS", "MAX_HREF_CHARS", "MAX_LINES", "MAX_TAGS", "SKIPPED", "lines_from_html",
           "safe_href"]
