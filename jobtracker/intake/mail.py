"""The mail intake step: new and changed mail from the Maildir and IMAP into `messages`,
read-only on both (jobtracker/mail). The inbox task reads what it stored.

An IMAP account that cannot be read is this run's failure, kept in the run's context
(`ctx.run.intake_failures`), so inbox is unavailable for the run with the reason; what
was stored before a dropped connection stays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jobtracker.intake.base import Step
from jobtracker.mail.folders import unusable

if TYPE_CHECKING:
    import aiosqlite

    from jobtracker.mail.maildir import ParsedMessage
    from jobtracker.tasks.base import Context


def alert_of(message: ParsedMessage) -> str | None:
    """The job-alert sender a synced message is from (jobtracker/alerts), or None: such
    mail is stored marked, linked to nothing, and never read as a reply."""
    from jobtracker import alerts  # with mail to read only (as the sync's import below)

    display = message.sender.split("<", 1)[0].strip() if "<" in message.sender else ""
    # The sender is the From header's one mailbox as parsed (never the display name
    # or a decoded encoded word): a forged header is no alert, so it is read as mail.
    return alerts.recognise(message.from_mailbox, message.subject, message.body, display)


class MailStep(Step):
    name = "mail"

    async def bring_in(self, conn: aiosqlite.Connection, ctx: Context) -> None:
        """Read new and changed mail into `messages` when the sources are usable
        (`mail.folders.unusable` says why not)."""
        ctx.run.intake_failures.pop(self.name, None)
        config = ctx.config
        if unusable(config) is not None:
            return
        if config.maildir is not None:
            # Imported only with mail to read: every command loads the intake modules,
            # and the email parsing stack is a noticeable part of a dry run's start-up.
            from jobtracker.mail.maildir import sync_maildir

            await sync_maildir(conn, config.maildir, ctx.now, alert_of)
        if config.imap is not None:
            from jobtracker.mail.imap import ImapError, sync_imap

            try:
                await sync_imap(conn, config.imap, ctx.now, alert_of)
            except ImapError as exc:
                ctx.run.intake_failures[self.name] = f"imap: {exc}"

    async def waiting(self, conn: aiosqlite.Connection, ctx: Context) -> int:
        """Maildir files that arrived since the last sync: replies waiting to be read.
        IMAP counts none: knowing would mean logging in (and maybe asking for a
        password) every time the queue is shown between runs."""
        if ctx.config.maildir is None or unusable(ctx.config) is not None:
            return 0
        from jobtracker.mail.maildir import unsynced_count  # as in bring_in

        return await unsynced_count(conn, ctx.config.maildir)


# The step `jobtracker/intake/__init__.py` lists in its REGISTRY.
STEP = MailStep()
