"""Job alerts: the mail LinkedIn, Indeed, Glassdoor and the others send, read as postings.

One pure module per sender family (its domains, the words that tell its alerts from
its other mail, its job links and its card layout), registered in `REGISTRY`'s tuple below;
`mime` reads raw mail, `html` and `plain` turn its two parts into lines, `base` holds
what the senders share. Nothing here opens a mailbox or a database: the fetch
(jobtracker/postings/alerts.py) reads the mail and stores the postings. Adding a
sender is one module and one line (docs/alerts.md says how).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from jobtracker.alerts import (
    glassdoor,
    google,
    indeed,
    jobright,
    linkedin,
    wellfound,
    wttj,
    ziprecruiter,
)
from jobtracker.alerts.base import MAX_CARDS, CardText, Counts, Mail, Sender
from jobtracker.alerts.html import lines_from_html
from jobtracker.alerts.mime import read_mail
from jobtracker.alerts.plain import lines_from_text
from jobtracker.registry import Registry
from jobtracker.sources.base import NormalizedPosting

# Sender name (the token of its board, `alerts:<name>` in fetch) → the sender. The
# tuple's order is the order `sender_of` asks them in.
REGISTRY: Registry[Sender] = Registry((
    linkedin.SENDER, indeed.SENDER, glassdoor.SENDER, ziprecruiter.SENDER,
    wellfound.SENDER, wttj.SENDER, google.SENDER, jobright.SENDER,
))

# How much of the HTML a body check reads (the markers sit in the first cards).
_BODY_CHECK_CHARS = 200_000


@dataclass
class Reading:
    """What one alert mail held: its sender, its layout, the postings of its cards."""

    sender: str
    template: str
    mail: Mail
    postings: list[NormalizedPosting] = field(default_factory=list)
    counts: Counts = field(default_factory=Counts)
    part: str = ""             # the part the cards came from: "html", "text" or ""

    @property
    def understood(self) -> bool:
        """A mail from a known sender that yields no card is not understood: its layout
        changed, or it is a kind of mail this reader does not know yet."""
        return bool(self.postings)


def sender_of(address: str) -> Sender | None:
    """The sender family an address belongs to (exact domain, dot-bounded), or None."""
    return REGISTRY.first(lambda sender: sender.sends(address))


def recognise(address: str, subject: str, body: str, display: str = "") -> str | None:
    """The sender name when a mail is a job alert (by its sender and its subject or
    body), else None. For mail already read into text (the inbox's sync)."""
    sender = sender_of(address)
    if sender is None:
        return None
    mail = Mail(key="", message_id="", address=address.lower(), display=display,
                subject=subject, date=None)
    return sender.name if sender.is_alert(mail, body) else None


def _cards(sender: Sender, mail: Mail, part: str, counts: Counts) -> list[NormalizedPosting]:
    if part == "html":
        lines = lines_from_html(mail.html or "", counts, sender.box)
    else:
        lines = lines_from_text(mail.text or "", counts)
    out: list[NormalizedPosting] = []
    seen: set[str] = set()
    for body, links in sender.split(lines, part, counts):
        if len(out) >= MAX_CARDS:
            counts.over_bounds += 1
            break
        found = sender.read(CardText(sender.clean(body), links, mail, part))
        if found is None:
            counts.unreadable += 1
            continue
        if found.external_id in seen:      # the same job listed twice in one mail
            continue
        seen.add(found.external_id)
        out.append(found)
    return out


def read_parsed(mail: Mail) -> Reading | None:
    """The alert in a parsed mail, or None when it is not one (an unknown sender, or a
    known one's other mail). The HTML part is read first; the text part when the
    HTML yields no card (or there is none)."""
    sender = sender_of(mail.address)
    if sender is None:
        return None
    if mail.unwalkable:
        # Its body cannot be read: from a sender of alerts, it is counted and named as
        # not understood, never dropped unseen.
        return Reading(sender.name, "unreadable", mail)
    body = (mail.text or "") + "\n" + (mail.html or "")[:_BODY_CHECK_CHARS]
    if not sender.is_alert(mail, body):
        return None
    reading = Reading(sender.name, sender.template(mail), mail)
    for part in ("html", "text"):
        if not (mail.html if part == "html" else mail.text):
            continue
        counts = Counts()
        postings = _cards(sender, mail, part, counts)
        if postings or not reading.part:
            reading.postings, reading.counts, reading.part = postings, counts, part
        if postings:
            break
    return reading


def read(raw: bytes) -> Reading | None:
    """The alert in raw mail bytes, or None when it is not one. Never raises."""
    return read_parsed(read_mail(raw))


__all__ = ["REGISTRY", "Reading", "Sender", "read", "read_parsed", "recognise", "sender_of"]
