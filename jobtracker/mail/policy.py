"""Email parsing policies whose header values are bounded before anything parses them.

`DEFAULT` and `COMPAT32` are `email.policy.default` and `email.policy.compat32` with
one change: every header value, as it comes off the wire, is cut to MAX_HEADER_CHARS.
`mailbox` reads a From header's one mailbox, its structure parsed before any encoded
word is decoded (the alert readers and the inbox's alert check both use it).
"""

from __future__ import annotations

import email.policy
import re

_DEFAULT_POLICY = email.policy.default

# One header field's value is cut to this before anything parses it. The standard
# parser is superlinear in encoded words: a 680 KB Subject of 40,000 of them costs
# ~40 s of CPU; at this bound any header costs milliseconds. Applies to every header
# of every MIME part, since the parser reads a part's Content-Type as it goes.
MAX_HEADER_CHARS = 4096


class _BoundedHeaders:
    """A policy mixin: every header value, as it comes off the wire, is cut to
    MAX_HEADER_CHARS (at the last space before it, so no encoded word is split)."""

    def header_source_parse(self, sourcelines: list[str]) -> tuple[str, str]:
        name, value = super().header_source_parse(sourcelines)  # type: ignore[misc]
        if len(value) > MAX_HEADER_CHARS:
            cut = value.rfind(" ", 0, MAX_HEADER_CHARS)
            value = value[:cut if cut > 0 else MAX_HEADER_CHARS]
        return name, value


class _BoundedDefault(_BoundedHeaders, email.policy.EmailPolicy):
    pass


class _BoundedCompat32(_BoundedHeaders, email.policy.Compat32):
    pass


# policy.default and policy.compat32, with bounded headers.
DEFAULT = _BoundedDefault()
COMPAT32 = _BoundedCompat32()



# A From header of the common, simple shape — an optional display name of plain words
# or one quoted string without escapes, then one address in angle brackets, or the bare
# address — is read here; every other shape (encoded words, comments, groups, two
# addresses, anything odd) goes to the standard library's structured parser.
_SIMPLE_FROM = re.compile(
    r'^[ \t]*(?:"([^"\\\r\n]{0,200})"|([A-Za-z0-9][A-Za-z0-9 .\'_&!-]{0,200}?))?[ \t]*'
    r"<([A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8})>[ \t]*$"
    r"|^[ \t]*([A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8})[ \t]*$")
_FOLD = re.compile(r"\r?\n[ \t]")
MAX_FROM_CHARS = 2_000


def mailbox(values: list[str] | None) -> tuple[str, str]:
    """(display name, address) of a From header's one mailbox, ('', '') when there is
    not exactly one From header holding exactly one mailbox and nothing else.

    The header's structure is parsed first; encoded words are decoded only where
    RFC 2047 lets them stand (inside the display name), so a display name that spells
    an address never is one, and `jobalerts-noreply@linkedin.com <attacker@evil>`
    (an address where a name belongs: a defect) is refused whole."""
    if not values or len(values) != 1:
        return "", ""
    raw = _FOLD.sub(" ", str(values[0]))
    if not raw or len(raw) > MAX_FROM_CHARS:
        return "", ""
    simple = _SIMPLE_FROM.match(raw) if "=?" not in raw else None
    if simple:
        name = simple.group(1) if simple.group(1) is not None else (simple.group(2) or "")
        return name.strip(), (simple.group(3) or simple.group(4)).lower()
    try:
        header = _DEFAULT_POLICY.header_factory("from", raw)
        groups, addresses, defects = header.groups, header.addresses, header.defects
    except Exception:  # the structured parser trips on some hostile values: no sender
        return "", ""
    if defects or len(groups) != 1 or groups[0].display_name is not None or \
            len(addresses) != 1:
        return "", ""
    address = addresses[0]
    spec = address.addr_spec
    if not address.username or not address.domain or spec.count("@") != 1 or '"' in spec:
        return "", ""
    return address.display_name or "", spec.lower()


__all__ = ["COMPAT32", "DEFAULT", "MAX_HEADER_CHARS", "mailbox"]
