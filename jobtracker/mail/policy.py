"""Email parsing policies whose header values are bounded before anything parses them.

`DEFAULT` and `COMPAT32` are `email.policy.default` and `email.policy.compat32` with
one change: every header value, as it comes off the wire, is cut to MAX_HEADER_CHARS.
"""

from __future__ import annotations

import email.policy

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

__all__ = ["COMPAT32", "DEFAULT", "MAX_HEADER_CHARS"]
