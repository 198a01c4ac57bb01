"""Which pieces of a text a theme must keep on one line. Pure.

A line break inside a word is read back by every PDF text extractor as something
else: pypdf and pdfminer.six put a space where the line ended ("length- limited",
"www.twitter. com"), poppler's pdftotext joins a line that ends in a hyphen and drops
the hyphen ("lengthlimited"). What an applicant tracking system indexes then depends
on its extractor. So a theme breaks lines only at spaces: each run of non-space
characters that holds a place where Typst would break it (after a hyphen or a dash,
a slash, a dot or `@` inside an address, a `?` or `&` inside a URL) is drawn as one
unbreakable box, and so is a phone number with spaces inside ("(912) 555-4321",
"06 00 00 00 00").

A piece longer than `FIT` characters may not fit a line at all: the theme measures
it and shrinks its type until it does (down to `MIN_SCALE` of its size, past which it
is drawn as it is, and the read-back check says it runs off the page).

Runs of Chinese, Japanese or Korean text are left alone: they have no spaces, and
breaking between their characters is how they are set.
"""

from __future__ import annotations

import re
from typing import Literal

Keep = Literal["", "whole", "fit"]
FIT = 28                 # characters: a piece this long may need shrinking to fit a line
MIN_SCALE = 0.6          # the theme shrinks a long piece down to this much of its size

# A non-space run (not CJK) with a character after which Typst may break a line:
# punctuation or a symbol that is not an opening bracket or quote, followed by more.
_CJK = "\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
_TOKEN = re.compile(rf"[^\s{_CJK}]+")
_INNER_BREAK = re.compile(r"[^\w\s(\[{“‘«¿¡„‚](?=\S)")
# A phone number with spaces inside: at least seven digits, a space between some.
_PHONE = re.compile(r"(?<![\w+])\+?\(?\d[\d().\-/ \u00a0]{5,}\d(?![\w])")


def _is_phone(text: str) -> bool:
    return sum(ch.isdigit() for ch in text) >= 7 and " " in text.strip()


def pieces(text: str) -> list[tuple[str, Keep]]:
    """`text` cut into pieces that join back to it exactly, each marked: "" (may
    break at its spaces), "whole" (one line), "fit" (one line, shrunk if it must)."""
    if not text or text == "\n":
        return [(text, "")]
    marks: list[tuple[int, int]] = []
    for found in _PHONE.finditer(text):
        if _is_phone(found.group()):
            start, end = found.span()
            # widen to the whole non-space runs the number touches ("Tel.:(0)...")
            while start > 0 and not text[start - 1].isspace():
                start -= 1
            while end < len(text) and not text[end].isspace():
                end += 1
            marks.append((start, end))
    for found in _TOKEN.finditer(text):
        start, end = found.span()
        if any(a <= start and end <= b for a, b in marks):
            continue
        token = found.group()
        if len(token) >= FIT or _INNER_BREAK.search(token):
            marks.append((start, end))
    if not marks:
        return [(text, "")]
    marks.sort()
    out: list[tuple[str, Keep]] = []
    at = 0
    for start, end in marks:
        if start < at:
            continue
        if start > at:
            out.append((text[at:start], ""))
        piece = text[start:end]
        out.append((piece, "fit" if len(piece) >= FIT else "whole"))
        at = end
    if at < len(text):
        out.append((text[at:], ""))
    return out
