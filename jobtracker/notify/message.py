"""The digest made into the message every channel is handed (jobtracker/channels/)."""

from __future__ import annotations

from jobtracker.channels.base import ChannelError, Message
from jobtracker.notify import layout
from jobtracker.notify.digest import Digest

WEBHOOK_ITEMS = 100     # items per list in a webhook's JSON body; `totals` has the counts


def of(digest: Digest) -> Message:
    """The digest in every form a channel may send."""
    return Message(subject=layout.subject(digest), text=layout.text(digest),
                   markdown=layout.markdown(digest), html=layout.html_mail(digest),
                   push=layout.push(digest), data=digest.to_json(limit=WEBHOOK_ITEMS))


__all__ = ["ChannelError", "Message", "of"]
