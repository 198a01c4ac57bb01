"""What a channel is handed: one digest in every form, and the error a channel raises."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jobtracker.notify import render
from jobtracker.notify.digest import Digest

WEBHOOK_ITEMS = 100     # items per list in a webhook's JSON body; `totals` has the counts


class ChannelError(Exception):
    """A channel did not take the message; the message says why, on one line (the
    caller redacts it before it is shown or stored)."""


@dataclass(frozen=True)
class Message:
    subject: str
    text: str
    markdown: str
    html: str
    push: str
    data: dict[str, Any]

    @classmethod
    def of(cls, digest: Digest) -> Message:
        return cls(subject=render.subject(digest), text=render.text(digest),
                   markdown=render.markdown(digest), html=render.html_mail(digest),
                   push=render.push(digest), data=digest.to_json(limit=WEBHOOK_ITEMS))

    @classmethod
    def test(cls, channel: str) -> Message:
        """What `jobtracker check --send-test` sends."""
        line = f"jobtracker test message for the {channel} channel: it works."
        return cls(subject="jobtracker: test message", text=line + "\n", markdown=line + "\n",
                   html=f"<!DOCTYPE html><html><body><p>{line}</p></body></html>\n",
                   push=line, data={"test": True, "text": line})
