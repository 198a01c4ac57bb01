"""Text from outside (postings, emails, model answers) made safe and readable.

`clean_text` is the gate every untrusted string passes where it enters the system:
it removes terminal escape sequences and every control or format character
(C0, DEL, C1, bidi overrides, zero-width marks) except newline and tab, so nothing
stored can move a cursor, recolour a terminal or reorder what a person reads.
`html_to_text` turns posting HTML into plain paragraphs and list items that a
model and a person can both read.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from urllib.parse import urlsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode

# ESC-introduced sequences (CSI `ESC [ ... final`, OSC `ESC ] ... BEL|ST`, and
# two-character escapes): removed whole, so no "[31m" debris is left behind.
_ANSI = re.compile(
    r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"      # OSC ... BEL or ST
    r"|\x1b\[[0-?]*[ -/]*[@-~]"                # CSI
    r"|\x1b[@-Z\\-_]"                          # other two-character escapes
    r"|\x9b[0-?]*[ -/]*[@-~]"                  # 8-bit CSI
)


def _replacement(ch: str, keep: str = "\t") -> str:
    """What a non-printable character becomes: spaces stay spaces, breaks stay breaks."""
    if ch in keep:
        return ch
    category = unicodedata.category(ch)
    if category == "Zs":          # no-break space, thin space, ...: a plain space
        return " "
    if category in ("Zl", "Zp"):  # LINE / PARAGRAPH SEPARATOR
        return "\n"
    return ""                     # Cc, Cf (bidi, zero-width), Co, Cn, Cs: dropped


def _clean_line(line: str, keep: str = "\t") -> str:
    return "".join(ch if ch.isprintable() else _replacement(ch, keep) for ch in line)


def clean_text(text: str | None) -> str:
    """`text` without escape sequences or control/format characters (keeps \\n and \\t).

    CR and CRLF become LF. Most text is already printable, which `str.isprintable`
    answers at C speed; only a dirty line is rebuilt character by character.
    """
    return _clean(text, "\t")


def _clean(text: str | None, keep: str, ansi: bool = True) -> str:
    if not text:
        return ""
    if ansi and ("\x1b" in text or "\x9b" in text):
        text = _ANSI.sub("", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.replace("\n", " ").replace("\t", " ").isprintable():
        return text                         # the usual case, answered at C speed
    lines = text.split("\n")
    return "\n".join(
        line if line.replace("\t", " ").isprintable() else _clean_line(line, keep)
        for line in lines
    )


# http(s), then a host of letters, digits, dots and hyphens (no user-info), an optional
# port, then the path, query or fragment or the end: urlsplit would find a scheme and a
# host in every string this matches, so `web_url` may skip it (`matches` reads 100,000).
_PLAIN_WEB_URL = re.compile(r"(?i)https?://[a-z0-9.-]+(?::[0-9]*)?(?:[/?#]|$)")


def web_url(url: str | None) -> str:
    """`url` when it is an http(s) address with a host, else "": a posting's page from
    outside (`javascript:`, `file:`, `data:`) is never stored, shown, copied or written
    into a packet as the place to apply."""
    text = (url or "").strip()
    if _PLAIN_WEB_URL.match(text):
        return text       # the common shape, decided without urlsplit (~15 µs a row)
    try:
        parts = urlsplit(text)
    except ValueError:
        return ""
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return ""
    return text


def one_line(text: str | None, limit: int = 0) -> str:
    """Clean text collapsed to one line (titles, locations, error messages)."""
    flat = " ".join(clean_text(text).split())
    if limit and len(flat) > limit:
        return flat[: limit - 1].rstrip() + "…"
    return flat


# --- HTML ---------------------------------------------------------------------------
#
# Markup goes through a real HTML5 parser (selectolax's Lexbor engine, C): it decides
# where every element ends as a browser does (an omitted `</p>`, `</li>`, `</td>`,
# `</head>` or `</body>`, an unclosed `<script>` that swallows the rest, a stray `<`
# that is text), and decodes each entity once. The tree is then walked in document
# order without recursion and each element laid out by a table; no regular
# expression decides where an element ends. A budget bounds the parser's own cost:
# past MAX_BLOCK_TAGS block start tags the rest of the markup is not read (a
# block nested in thousands of open blocks costs the parser time in proportion to
# their number), and a walk visits at most MAX_ELEMENTS elements.

MAX_BLOCK_TAGS = 8_000
MAX_ELEMENTS = 200_000
# Start tags of the elements that make an HTML5 parser look through every open
# element (they close an open <p>): counted, never used to find an element's end.
_BLOCK_START = re.compile(
    r"<(?:address|article|aside|blockquote|center|details|dialog|dir|div|dl|fieldset"
    r"|figcaption|figure|footer|header|hgroup|main|menu|nav|ol|p|search|section|summary"
    r"|ul|h[1-6]|pre|listing|form|table|hr|xmp|dd|dt|li|plaintext)(?=[\s/>])", re.I)
_SPACES = re.compile(r" {2,}")
_PLACEHOLDER = re.compile("\x02([0-9]+)\x03")

# Elements whose content is never text for a reader.
_SKIPPED = frozenset(("script", "style", "textarea", "xmp", "noscript", "template", "head",
                      "title", "svg", "math", "iframe", "object", "canvas", "select", "button"))
# Elements that start and end a paragraph (a blank line around them).
_BLOCK = ("p", "div", "section", "article", "header", "footer", "main", "aside", "nav",
          "h1", "h2", "h3", "h4", "h5", "h6", "dl", "table", "blockquote", "pre", "figure",
          "figcaption", "form", "fieldset", "address", "details", "summary", "hr", "center")
# What entering (`p`) and leaving (`/p`) each element lays out; lists need `_Layout`,
# every other element (<b>, <a>, <span>, <img>, ...) becomes nothing.
_FIXED = {
    **{tag: "\n\n" for tag in _BLOCK}, **{"/" + tag: "\n\n" for tag in _BLOCK},
    "br": "\n", "tr": "\n", "dt": "\n", "dd": "\n", "caption": "\n", "td": " ", "th": " ",
}
# Private marks (control characters, so cleaning the input first removes any that
# came with it): an indent that line stripping keeps, and the brackets of a <pre>
# block's placeholder.
_INDENT, _OPEN, _CLOSE = "\x01", "\x02", "\x03"


def html_tree(markup: str, max_blocks: int = MAX_BLOCK_TAGS) -> tuple[LexborHTMLParser, bool]:
    """The parsed document, and whether the budget cut the markup short (the markup
    after the `max_blocks`-th block start tag is not given to the parser)."""
    cut = False
    if len(markup) > 64 * max_blocks or markup.count("<") > max_blocks:
        for count, found in enumerate(_BLOCK_START.finditer(markup)):
            if count >= max_blocks:
                markup, cut = markup[:found.start()], True
                break
    return LexborHTMLParser(markup), cut


def walk(root: LexborNode, enter: Callable[[LexborNode, str], bool], leave: Callable[[str], None],
         text: Callable[[str], None], limit: int = MAX_ELEMENTS) -> bool:
    """Visit `root`'s tree in document order, without recursion: `enter(node, tag)`
    for each element (return False to skip what it holds), `leave(tag)` after its
    content, `text(str)` for each text node. Returns False when `limit` elements were
    visited before the end."""
    node: LexborNode | None = root
    seen = 0
    while node is not None:
        tag = node.tag
        descend = False
        if tag == "-text":
            text(node.text_content or "")
        elif tag and tag[0] != "-":
            seen += 1
            if seen > limit:
                return False
            descend = enter(node, tag)
        child = node.child if descend else None
        if child is not None:
            node = child
            continue
        if descend:
            leave(tag or "")
        while True:
            if node is root:
                return True
            sibling = node.next
            if sibling is not None:
                node = sibling
                break
            node = node.parent
            if node is None:
                return True
            leave(node.tag or "")
    return True


class _Layout:
    """What each element lays out as the walk enters and leaves it; remembers the open
    lists for bullets and numbers and sets <pre> blocks aside."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.lists: list[list[int]] = []    # per open list: [next number], 0 for bullets
        self.blocks: list[str] = []         # <pre> contents, whitespace intact

    def text(self, value: str) -> None:
        """A text node, its whitespace one space (an edge's space is kept: it parts
        this text from the next element's)."""
        if value.isspace():
            self.out.append(" ")
            return
        flat = " ".join(value.split())
        if value[:1].isspace():
            flat = " " + flat
        if value[-1:].isspace():
            flat += " "
        self.out.append(flat)

    def enter(self, node: LexborNode, tag: str) -> bool:
        if tag in _SKIPPED:
            return False
        fixed = _FIXED.get(tag)
        if tag == "pre":
            self.blocks.append(clean_text(node.text(deep=True)).strip("\n"))
            self.out.append(f"\n\n{_OPEN}{len(self.blocks) - 1}{_CLOSE}\n\n")
            return False
        if fixed is not None:
            self.out.append(fixed)
        elif tag == "li":
            self.out.append("\n" + self._bullet())
        elif tag in ("ul", "ol"):
            self.lists.append([1 if tag == "ol" else 0])
            # A list nested in an item continues that item; its own items start lines.
            self.out.append("" if len(self.lists) > 1 else "\n\n")
        return True

    def leave(self, tag: str) -> None:
        fixed = _FIXED.get("/" + tag)
        if fixed is not None:
            self.out.append(fixed)
        elif tag in ("ul", "ol"):
            if self.lists:
                self.lists.pop()
            self.out.append("" if self.lists else "\n\n")

    def _bullet(self) -> str:
        if not self.lists:
            return "- "
        counter = self.lists[-1]
        indent = _INDENT * (2 * (len(self.lists) - 1))
        if not counter[0]:
            return indent + "- "
        counter[0] += 1
        return f"{indent}{counter[0] - 1}. "


def _lines(text: str) -> str:
    """Each line stripped of spaces, each run of blank lines made one, none at either
    end (a loop over lines: regular expressions took seven times as long)."""
    out: list[str] = []
    for line in text.split("\n"):
        line = line.strip(" ")
        if line:
            out.append(line)
        elif out and out[-1]:
            out.append("")
    if out and not out[-1]:
        out.pop()
    return "\n".join(out)


def html_to_text(markup: str | None) -> str:
    """Readable plain text from an HTML fragment.

    Paragraphs and headings are separated by a blank line; list items become
    `- item` (or `1. item` in ordered lists, indented two spaces per nesting level);
    table cells are joined by spaces, one row per line. Scripts, styles and comments
    are dropped, entities decoded, whitespace collapsed (kept inside <pre>), and the
    result passed through `clean_text`.
    """
    if not markup:
        return ""
    tree, _cut = html_tree(clean_text(markup))        # controls out first: marks are ours
    root = tree.root
    if root is None:
        return ""
    layout = _Layout()
    walk(root, layout.enter, layout.leave, layout.text)
    # Entities can spell characters the first cleaning removed (&#x202e;, &#27;): each
    # is dropped alone (an escape sequence in the input was removed whole before).
    text = _clean("".join(layout.out), keep="\t" + _INDENT + _OPEN + _CLOSE, ansi=False)
    text = text.replace("\xa0", " ").replace("\t", " ")
    if "  " in text:
        text = _SPACES.sub(" ", text)
    text = _lines(text).replace(_INDENT, " ")
    if layout.blocks:
        text = _PLACEHOLDER.sub(lambda m: layout.blocks[int(m.group(1))], text)
    return text
