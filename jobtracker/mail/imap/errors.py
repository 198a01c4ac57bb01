"""Why IMAP cannot be used now, in one line that never carries a password."""

from __future__ import annotations


class ImapError(Exception):
    """The IMAP account cannot be read now (unreachable, refused, a TLS error, a dropped
    connection, a response that makes no sense). The message says why, for people; it
    has passed the account's redactor, so it never carries the password."""
