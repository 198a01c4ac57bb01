"""An alert's text part → `Line`s: each line once, the first web address in it as its link.

"View job: https://..." becomes the line "View job:" with that link; a line that is
only an address becomes an empty line with it. Blank lines are remembered on the
line after them (`gap`), for senders whose cards hold none. Addresses that are not
http(s) are never links here either.
"""

from __future__ import annotations

import re

from jobtracker.alerts.base import MAX_LINE_CHARS, Counts, Line, tidy
from jobtracker.alerts.html import MAX_HREF_CHARS, MAX_LINES

_URL = re.compile(r"<?(https?://[^\s<>\"']{1," + str(MAX_HREF_CHARS) + r"})>?", re.I)
_UNSAFE = re.compile(r"\b(?:javascript|file|data|vbscript):", re.I)


def lines_from_text(text: str, counts: Counts) -> list[Line]:
    if not text:
        return []
    out: list[Line] = []
    gap = False
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if len(out) >= MAX_LINES:
            counts.over_bounds += 1
            break
        found = _URL.search(raw)
        href = None
        if found:
            href = found.group(1).rstrip(".,;)]")
            raw = raw[:found.start()] + raw[found.end():]
        elif _UNSAFE.search(raw):
            counts.unsafe_links += 1
        line = tidy(raw, MAX_LINE_CHARS)
        if not line and href is None:
            gap = True
            continue
        out.append(Line(line, href, 0, gap))
        gap = False
    return out


__all__ = ["lines_from_text"]
