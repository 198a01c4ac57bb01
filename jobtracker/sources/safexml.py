"""Untrusted XML to an element tree, with every DTD refused (feeds, Personio).

XML is parsed with expat directly and refuses any DTD: no document type, no entity
declarations, so no entity expansion ("billion laughs") and no external entities.
That is defusedxml's `forbid_dtd` stance, without the dependency.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any
from xml.parsers import expat

from jobtracker.sources.base import SourceError

# The encoding an XML declaration names, if any (read from the first bytes only).
_DECLARED = re.compile(rb"""^\s*<\?xml[^>]{0,200}?encoding\s*=\s*["']([A-Za-z0-9._-]+)""")


def _refuse_dtd(*_args: Any) -> None:
    raise SourceError("XML with a document type or entity declarations is refused")


def _qualified(name: str) -> str:
    """expat's `uri}local` → ElementTree's `{uri}local`."""
    return "{" + name if "}" in name else name


class _TreeFeeder:
    """Forwards expat's events to an ElementTree TreeBuilder."""

    def __init__(self) -> None:
        self.builder = ET.TreeBuilder()

    def start(self, name: str, attrs: dict[str, str]) -> None:
        self.builder.start(_qualified(name), {_qualified(k): v for k, v in attrs.items()})

    def end(self, name: str) -> None:
        self.builder.end(_qualified(name))


def _repair_utf8(data: bytes) -> bytes:
    """A UTF-8 document with an invalid byte, with that byte as U+FFFD.

    expat stops at the first invalid byte, so one bad character in one item would
    fail the whole feed. Documents declaring another encoding are left to expat.
    """
    declared = _DECLARED.match(data[:300].lstrip(b"\xef\xbb\xbf"))
    if declared and declared.group(1).lower().replace(b"_", b"-") not in (b"utf-8", b"utf8"):
        return data
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace").encode("utf-8")
    return data


def parse_xml(data: bytes | str) -> ET.Element:
    """An element tree from untrusted XML; any DTD is refused before it is read."""
    if isinstance(data, bytes | bytearray):
        data = _repair_utf8(bytes(data))
    parser = expat.ParserCreate(namespace_separator="}")
    feeder = _TreeFeeder()
    parser.buffer_text = True
    parser.StartDoctypeDeclHandler = _refuse_dtd
    parser.EntityDeclHandler = _refuse_dtd
    parser.UnparsedEntityDeclHandler = _refuse_dtd
    parser.ExternalEntityRefHandler = _refuse_dtd
    parser.StartElementHandler = feeder.start
    parser.EndElementHandler = feeder.end
    parser.CharacterDataHandler = feeder.builder.data
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise SourceError(f"malformed XML: {exc}") from None
    except (LookupError, ValueError, UnicodeError) as exc:
        # expat asks Python's codecs for an encoding it does not know itself: an unknown
        # name, a multi-byte or non-text codec (`utf-7`, `rot13`) ends here, as a bad
        # envelope of that board, not as an exception no one expected.
        raise SourceError(f"XML in an encoding that cannot be read ({_declared(data)}): "
                          f"{type(exc).__name__}") from None
    return feeder.builder.close()


def _declared(data: bytes | str) -> str:
    head = data[:300] if isinstance(data, bytes) else data[:300].encode("utf-8", "replace")
    found = _DECLARED.match(head.lstrip(b"\xef\xbb\xbf"))
    return found.group(1).decode("ascii", "replace")[:40] if found else "undeclared"
