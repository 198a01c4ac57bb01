"""Text from outside (postings, emails, model answers) made safe and readable.

`clean_text` is the gate every untrusted string passes where it enters the system:
it removes terminal escape sequences and every control or format character
(C0, DEL, C1, bidi overrides, zero-width marks) except newline and tab, so nothing
stored can move a cursor, recolour a terminal or reorder what a person reads.
`html_to_text` turns posting HTML into plain paragraphs and list items that a
model and a person can both read.
"""

from __future__ import annotations

import html
import re
import unicodedata
from urllib.parse import urlsplit

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


def _clean(text: str | None, keep: str) -> str:
    if not text:
        return ""
    if "\x1b" in text or "\x9b" in text:
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
# Regular-expression passes instead of `html.parser`: descriptions are a fetch's main
# CPU cost (30,000 of them in the benchmark) and the stdlib parser spends ~4 µs of
# pure-Python bookkeeping per tag. Here text never passes through Python code piece
# by piece: one split finds every tag, a table says what each becomes, and only list
# tags (which count) call into Python. Browsers' leniency is kept where it matters:
# a `<` that does not start a tag is text, unclosed comments and scripts run to the
# end, the content of <script> and <style> is never markup, and end tags are not
# matched against open ones. A tag's attributes are bounded and hold no `<` or `>`,
# which keeps every scan linear on hostile input (thousands of `<` with no `>`).

# Dropped whole, whichever starts first: comments, doctypes, and elements whose
# content is never text for a reader.
_DROP = re.compile(
    # The lookahead lets the scan skip every other tag at C speed.
    r"<(?=[!?a-zA-Z])(?:!--.*?(?:-->|\Z)"
    r"|[!?][^<>]{0,4000}>"
    r"|(script|style|textarea|xmp|noscript|template|head|title|svg|iframe|object|canvas"
    r"|select|button)\b[^<>]{0,4000}>.*?(?:</\1\s*>|\Z))",
    re.S | re.I,
)
_PRE = re.compile(r"<pre\b[^<>]{0,4000}>(.*?)(?:</pre\s*>|\Z)", re.S | re.I)
_TAG = re.compile(r"<(/?[a-zA-Z][a-zA-Z0-9:-]{0,40})(?![a-zA-Z0-9:-])[^<>]{0,4000}>")
_SPACES = re.compile(r" {2,}")
_PLACEHOLDER = re.compile("\x02([0-9]+)\x03")

# Elements that start and end a paragraph (a blank line around them).
_BLOCK = ("p", "div", "section", "article", "header", "footer", "main", "aside", "nav",
          "h1", "h2", "h3", "h4", "h5", "h6", "dl", "table", "blockquote", "pre", "figure",
          "figcaption", "form", "fieldset", "address", "details", "summary", "hr")
# Elements that start a new line but not a new paragraph.
_LINE = ("br", "tr", "dt", "dd", "caption")
# Inline elements, the commonest tags of all, which become nothing.
_INLINE = ("a", "b", "strong", "i", "em", "u", "span", "small", "sup", "sub", "code", "font",
           "mark", "s", "del", "ins", "abbr", "cite", "q", "img", "label", "time")
# What each tag (`p`, or `/p` for its end tag) becomes; lists need `_Layout`, and
# every other tag (<b>, <a>, <span>, <img>, ...) becomes nothing.
_FIXED = {
    **{tag: "\n\n" for tag in _BLOCK}, **{"/" + tag: "\n\n" for tag in _BLOCK},
    **{tag: "\n" for tag in _LINE}, "td": " ", "th": " ", "/li": "",
    **{tag: "" for tag in _INLINE}, **{"/" + tag: "" for tag in _INLINE},
}
# Private marks (control characters, so cleaning the input first removes any that
# came with it): an indent that line stripping keeps, and the brackets of a <pre>
# block's placeholder.
_INDENT, _OPEN, _CLOSE = "\x01", "\x02", "\x03"


class _Layout:
    """The text a tag becomes; remembers the open lists for bullets and numbers."""

    def __init__(self) -> None:
        self.lists: list[list[int]] = []    # per open list: [next number], 0 for bullets

    def __call__(self, tag: str) -> str:
        """What the tag named `tag` (`/name` for an end tag) becomes, in document order."""
        fixed = _FIXED.get(tag)             # tags are nearly always lower case already
        if fixed is not None:
            return fixed
        tag = tag.lower()
        fixed = _FIXED.get(tag)
        if fixed is not None:
            return fixed
        if tag == "li":
            return "\n" + self._bullet()
        if tag in ("ul", "ol"):
            self.lists.append([1 if tag == "ol" else 0])
            # A list nested in an item continues that item; its own items start lines.
            return "" if len(self.lists) > 1 else "\n\n"
        if tag in ("/ul", "/ol"):
            if self.lists:
                self.lists.pop()
            return "" if self.lists else "\n\n"
        return ""

    def _bullet(self) -> str:
        if not self.lists:
            return "- "
        counter = self.lists[-1]
        indent = _INDENT * (2 * (len(self.lists) - 1))
        if not counter[0]:
            return indent + "- "
        counter[0] += 1
        return f"{indent}{counter[0] - 1}. "


def _layout(text: str) -> str:
    """Every tag in `text` replaced by the text it lays out. The tags are found by one
    split in C (text and tag names alternate in what it returns), and looked up in a
    list comprehension: a substitution calling back into Python for each tag took
    three times as long."""
    parts = _TAG.split(text)
    if len(parts) == 1:
        return text
    names = parts[1::2]
    laid = [_FIXED.get(name) for name in names]
    if None in laid:     # lists, upper case, other tags: looked at in document order
        layout = _Layout()
        for index, value in enumerate(laid):
            if value is None:
                laid[index] = layout(names[index])
    parts[1::2] = laid
    return "".join(parts)


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


def _unescape(text: str) -> str:
    return html.unescape(text) if "&" in text else text


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
    text = _DROP.sub(" ", clean_text(markup))        # controls out first: marks are ours
    blocks: list[str] = []
    if "<pre" in text or "<PRE" in text:
        text = _PRE.sub(lambda m: _keep_pre(m, blocks), text)
    text = _layout(" ".join(text.split()))             # all whitespace is one space
    if "&" in text:
        # Entities can spell characters the first cleaning removed (&#x202e;).
        text = _clean(html.unescape(text), keep="\t" + _INDENT + _OPEN + _CLOSE)
    text = text.replace("\xa0", " ").replace("\t", " ")
    if "  " in text:
        text = _SPACES.sub(" ", text)
    text = _lines(text).replace(_INDENT, " ")
    if blocks:
        text = _PLACEHOLDER.sub(lambda m: blocks[int(m.group(1))], text)
    return text


def _keep_pre(match: re.Match[str], blocks: list[str]) -> str:
    """Set a <pre> block's text aside, whitespace intact, behind a placeholder."""
    blocks.append(clean_text(_unescape(_TAG.sub("", match.group(1)))).strip("\n"))
    return f"<pre>{_OPEN}{len(blocks) - 1}{_CLOSE}</pre>"
