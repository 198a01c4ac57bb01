"""An alert's HTML part → `Line`s: each block of text once, with the link it sits in.

The same technique as jobtracker/text.py's `html_to_text`, because a thousand alerts
of a few hundred tags each must read in well under two seconds and the stdlib parser
spends ~4 µs a tag: scripts, styles and comments are dropped whole first, one split
in C finds every tag, a table says what each becomes (a line break, or nothing), and
only anchors (and, for a sender whose cards are boxes, the box's tag) are looked at
in Python. Anchors and boxes become marker lines, so the text is joined, unescaped
and split into lines in C, and the loop in Python runs over lines, not tags.

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
_TAG = re.compile(r"<(/?[a-zA-Z][a-zA-Z0-9:-]{0,40})(?![a-zA-Z0-9:-])([^<>]{0,4000})>")
_HREF = re.compile(r"""\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.I)
_CLASS = re.compile(r"""\bclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.I)
# Entities with their semicolon: the only ones worth a call into html.unescape (a
# tracking link's bare "&from=" costs nothing then).
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});")
# Tags that end a line of text (an anchor does too: a link's text is its own line).
_BREAKS = ("p", "div", "section", "article", "header", "footer", "main", "aside", "nav",
           "h1", "h2", "h3", "h4", "h5", "h6", "table", "tbody", "thead", "tfoot", "tr",
           "td", "th", "li", "ul", "ol", "dl", "dt", "dd", "br", "hr", "blockquote", "pre",
           "center", "form", "button", "figure", "figcaption", "address", "caption")
_LAYOUT = {**{tag: "\n" for tag in _BREAKS}, **{"/" + tag: "\n" for tag in _BREAKS}}
_SAFE_SCHEMES = ("http://", "https://")
# Marker lines (control characters: the input's own are removed first).
_OPEN, _CLOSE, _BOX_OPEN, _BOX_CLOSE = "\x01", "\x02", "\x03", "\x04"


def _attribute(pattern: re.Pattern[str], attrs: str) -> str | None:
    found = pattern.search(attrs)
    if not found:
        return None
    value = next(group for group in found.groups() if group is not None)
    return _unescape(value) if "&" in value else value


def _unescape(text: str) -> str:
    return _ENTITY.sub(_entity, text)


def _entity(found: re.Match[str]) -> str:
    # An entity never spells a control character here: it could fake a marker line.
    value = htmllib.unescape(found.group(0))
    return value if value.isprintable() else " "


def _href(attrs: str, counts: Counts) -> str:
    """A link's address when it is http(s) and bounded, else '' (counted)."""
    href = (_attribute(_HREF, attrs) or "").strip()
    if not href:
        return ""
    if not href[:8].lower().startswith(_SAFE_SCHEMES):
        if not href.startswith(("#", "mailto:", "tel:")):
            counts.unsafe_links += 1
        return ""
    if len(href) > MAX_HREF_CHARS:
        counts.over_bounds += 1
        return ""
    # A newline in an address would split its marker line; none is in a real one.
    return href.replace("\n", "").replace(_OPEN, "")


class _Boxes:
    """The card boxes open at each point: (tag, class) opens one; its end tag closes it
    (by the depth of that tag, since end tags are not matched)."""

    def __init__(self, box: tuple[str, str]) -> None:
        self.tag, self.word = box
        self.depth = 0
        self.open: list[int] = []     # the depth each open box began at

    def __call__(self, name: str, attrs: str) -> str:
        if name.startswith("/"):
            self.depth = max(self.depth - 1, 0)
            out = ""
            while self.open and self.open[-1] > self.depth:
                self.open.pop()
                out += f"\n{_BOX_CLOSE}\n"
            return out + "\n"
        self.depth += 1
        classes = (_attribute(_CLASS, attrs) or "").split()
        if self.word in classes and len(self.open) < 64:
            self.open.append(self.depth)
            return f"\n{_BOX_OPEN}\n"
        return "\n"


def _laid_out(markup: str, counts: Counts, box: tuple[str, str] | None) -> str:
    """The HTML as text: each tag a line break or nothing, links and boxes as markers."""
    # Controls out first (the markers are controls); whitespace inside text is a space.
    if _CONTROL.search(markup):
        markup = _CONTROL.sub("", markup)
    markup = markup.replace("\r", " ").replace("\n", " ").replace("\t", " ")
    parts = _TAG.split(_DROP.sub(" ", markup))
    tags = (len(parts) - 1) // 3
    if tags > MAX_TAGS:
        counts.over_bounds += tags - MAX_TAGS
        parts = parts[:3 * MAX_TAGS + 1]
    names = parts[1::3]
    attrs = parts[2::3]
    laid = [_LAYOUT.get(name) for name in names]
    boxes = _Boxes(box) if box else None
    for index, value in enumerate(laid):
        if value is not None and (boxes is None or names[index].lower().lstrip("/")
                                  != boxes.tag):
            continue
        name = names[index].lower()
        if name == "a":
            href = _href(attrs[index], counts)
            laid[index] = f"\n{_OPEN}{href}\n" if href else "\n"
        elif name == "/a":
            laid[index] = f"\n{_CLOSE}\n"
        elif boxes is not None and name.lstrip("/") == boxes.tag:
            laid[index] = boxes(name, attrs[index])
        else:
            laid[index] = _LAYOUT.get(name, "")
    parts[1::3] = laid
    parts[2::3] = [""] * len(attrs)
    return "".join(parts)


# Every C0 control but tab and line ends (which become spaces), DEL, and the line
# separators: removed before any marker is written (a search in C finds none in most).
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u2028\u2029]")


def lines_from_html(markup: str, counts: Counts,
                    box: tuple[str, str] | None = None) -> list[Line]:
    """The lines of an HTML part. `box`: (tag, class) of the element holding one card;
    lines inside one carry its number."""
    if not markup:
        return []
    text = _laid_out(markup, counts, box)
    if "&" in text:
        text = _unescape(text)
    out: list[Line] = []
    href: str | None = None
    used = False
    box_ids: list[int] = []
    next_box = 0
    for raw in text.split("\n"):
        first = raw[:1]
        if first == _OPEN:
            if href is not None and not used:
                out.append(Line("", href, box_ids[-1] if box_ids else 0))
            href, used = raw[1:], False
            continue
        if first == _CLOSE:
            if href is not None and not used:
                # A link with no text (a logo) still marks where its card starts.
                out.append(Line("", href, box_ids[-1] if box_ids else 0))
            href, used = None, False
            continue
        if first == _BOX_OPEN:
            next_box += 1
            box_ids.append(next_box)
            continue
        if first == _BOX_CLOSE:
            if box_ids:
                box_ids.pop()
            continue
        if not raw or raw.isspace():
            continue
        line = tidy(raw, MAX_LINE_CHARS)
        if not line:
            continue
        if len(out) >= MAX_LINES:
            counts.over_bounds += 1
            break
        out.append(Line(line, href, box_ids[-1] if box_ids else 0))
        used = used or href is not None
    if href is not None and not used and len(out) < MAX_LINES:
        out.append(Line("", href, box_ids[-1] if box_ids else 0))
    return out


__all__ = ["MAX_LINES", "MAX_TAGS", "lines_from_html"]
