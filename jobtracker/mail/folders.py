"""Whether the mail a workspace names can be read: the one check that the mail intake
step (jobtracker/intake/mail.py) and the inbox task share.

It opens nothing: it looks at config.yaml's `maildir` and `imap` and at the Maildir's
folders, so a task may import it (the purity contract forbids the mail readers, not
this).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jobtracker.config import Config


def unusable(config: Config) -> str | None:
    """Why no mail can be read with these settings (None: it can). IMAP is only known
    unreadable once a run has tried to log in; that reason is the intake's."""
    if config.maildir is None and config.imap is None:
        return "no maildir configured"
    maildir = config.maildir
    if maildir is None:
        return None
    if not maildir.is_dir():
        return f"maildir {maildir} is missing"
    if not (maildir / "cur").is_dir() and not (maildir / "new").is_dir():
        return f"maildir {maildir} has no cur/ or new/ folder"
    return None
