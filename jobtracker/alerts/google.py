"""Google's job alerts: "Job Alerts from Google" <notify-noreply@google.com>.

The same address sends other Google notices (Tag Manager invitations, say), so a
mail counts only when its sender's name, subject or body is about jobs. The subject
is the saved query (`("Solutions Architect") AND ("AI") near Springfield`; German
`10 neue Jobs für "PLM Hamburg" - 21. Sept.`). A card: an initial or logo, the title,
the company, the place, "via <portal>" ("über …" in German), then "<age> <job type>"
(in the text part behind the alt texts "Time icon" and "Work icon").

Every link is `https://notifications.googleapis.com/email/redirect?t=...&r=...`, where
`r` is base64url(zlib(destination)): a Google Search jobs view, not a posting. So a
card's id is a hash of title, company, place and portal, and its page that search
(its `q`, `ibp` and `htidocid` only). The text part (base64, format=flowed) has no
links at all: its cards are the paragraphs that hold a "via" line.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from collections.abc import Sequence
from dataclasses import replace
from urllib.parse import urlencode, urlsplit

from jobtracker.alerts.base import (
    CardText,
    Counts,
    JobLink,
    Line,
    Mail,
    Sender,
    age_days,
    first,
    hashed_id,
    host_of,
    param,
    pattern,
    posting,
    query,
    search_url,
)
from jobtracker.hosts import google_search_host, host_is
from jobtracker.sources.base import NormalizedPosting

_VIA = re.compile(r"^(?:via|über|par|a través de|tramite|via:)\s+(.{1,80})$", re.I)
_ICONS = re.compile(r"\b(?:time|work|zeit|arbeit)[ -]?(?:icon|symbol)\b", re.I)
_KIND = re.compile(r"\b(?:full[- ]time|part[- ]time|contractor|internship|vollzeit|teilzeit|"
                   r"temps plein|praktikum)\b", re.I)
MAX_DESTINATION = 4096


def destination(r: str) -> str:
    """The page a redirect's `r` leads to (base64url of zlib), '' when it does not decode.
    Bounded: a decompression bomb yields at most MAX_DESTINATION bytes."""
    try:
        packed = base64.urlsafe_b64decode(r[:8000] + "=" * (-len(r) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_DESTINATION)
    except (binascii.Error, ValueError, zlib.error):
        return ""
    return raw.decode("utf-8", "replace")


def _jobs_search(page: str) -> str:
    """A Google jobs view's address with only the parts that name the search."""
    try:
        parts = urlsplit(page)
    except ValueError:
        return ""
    if not google_search_host(parts.hostname or "") or parts.path != "/search":
        return ""
    values = query(page)
    if "htl;jobs" not in first(values, "ibp"):
        return ""
    kept = {name: first(values, name) for name in ("q", "ibp", "htidocid") if first(values, name)}
    return f"https://{parts.hostname}/search?{urlencode(kept, safe=';')}"


class Google(Sender):
    name = "google"
    label = "Google"
    domains = ("google.com",)
    locals = ("notify-noreply", "jobs-noreply", "careers-noreply")
    subjects = pattern(r"\bnew jobs?\b", r"\bneue[rn]? jobs?\b", r"\bjobs? für\b", r"\bnear\b",
                       r"\bjob alert\b", r"\bnouvelles? offres?\b", r"\bjobs? for\b")
    markers = ("job alerts from google", "google.com/search?q=", "ibp=htl;jobs",
               "jobbenachrichtigung", "job alert")
    chrome = pattern(r"^job alerts? from google", r"^\d+ (?:new jobs?|neue[rn]? jobs?)\b",
                     r"^(?:see|view|alle) (?:all|more|jobs)", r"^unsubscribe",
                     r"^abbestellen", r"^google llc", r"^©", r"^you(?:'re| are) receiving",
                     r"^manage (?:job )?alerts", r"^benachrichtigung",
                     r"^privacy", r"^datenschutz", r"^alle \d+ jobs")
    box = None

    def is_alert(self, mail: Mail, body: str) -> bool:
        if "job" in mail.display.lower():
            return True
        return super().is_alert(mail, body)

    def job_link(self, href: str) -> JobLink | None:
        host = host_of(href)
        if not host_is(host, "notifications.googleapis.com"):
            return None
        r = param(href, "r")
        page = _jobs_search(destination(r)) if r else ""
        if not page:
            return None
        return JobLink(key=page, url=page)

    def split_text(self, lines: Sequence[Line], counts: Counts
                   ) -> list[tuple[list[Line], list[JobLink]]]:
        """The text part has no links: each paragraph holding a "via" line is a card."""
        cards: list[tuple[list[Line], list[JobLink]]] = []
        block: list[Line] = []
        for line in [*lines, Line("", None, 0, True)]:
            if line.gap and block:
                if any(_VIA.match(_ICONS.sub("", b.text).strip()) for b in block):
                    cards.append((block[-16:], []))
                block = []
            if line.text:
                block.append(line)
        return cards

    def read(self, card: CardText) -> NormalizedPosting | None:
        lines = [_ICONS.sub("", line).strip() for line in card.lines]
        lines = [line for line in lines if line and not re.fullmatch(r"\w", line)]
        via_at = next((i for i, line in enumerate(lines) if _VIA.match(line)), None)
        if via_at is None or via_at < 3:
            return None
        title, company, place = lines[via_at - 3:via_at]
        portal = _VIA.match(lines[via_at]).group(1)  # type: ignore[union-attr]
        tail = " ".join(lines[via_at + 1:])
        kind = _KIND.search(tail)
        age = tail[:kind.start()].strip() if kind else tail
        found = posting(self.name, card, title=title, company=company, location=place,
                        snippet=lines[via_at] + (f", {kind.group(0)}" if kind else ""),
                        age=age if age_days(age) is not None else "",
                        search=search_url("https://www.google.com/search",
                                          q=f"{title} {company}", ibp="htl;jobs"))
        if found is None:
            return None
        # The portal is part of the identity: one ad seen through two portals is two cards.
        return replace(found, external_id=hashed_id(self.name, company, title,
                                                    f"{place} {portal}"))


SENDER = Google()

__all__ = ["SENDER", "Google", "destination"]
