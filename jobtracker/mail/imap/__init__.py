"""Reading mail from IMAP folders, read-only (docs/mail.md).

`sync_imap` stores new mail in `messages` like the Maildir sync; `check_login` is
`jobtracker check`'s test of the account. Both raise ImapError, one line saying why
the account cannot be read, never carrying the password.
"""

from jobtracker.mail.imap.errors import ImapError
from jobtracker.mail.imap.session import ALLOWED, FETCH_BYTES, NEVER_SENT
from jobtracker.mail.imap.sync import ImapReport, check_login, sync_imap

__all__ = ["ALLOWED", "FETCH_BYTES", "NEVER_SENT", "ImapError", "ImapReport", "check_login",
           "sync_imap"]
