"""ZipRecruiter: "Here are today's jobs recommended for you" (alerts@ / noreply@ / no-reply@).

A card: the title as a link, "Company • City, ST • Remote", the pay ("$107K - $195K/yr"),
"Estimated Pay", and the buttons "View Details" / "1-Click Apply" linking to the same
job. The links (`/ekm/<token>` for a job on another ATS, `/km/<token>?expires=...` for
one ZipRecruiter hosts) carry no id that lasts: the same job comes with new tokens in
every mail. So a card's identity is a hash of company, title and place, and its page
a ZipRecruiter search for it; the tokens (and `lk`, `lvk`, `tsid`) are never stored.
"""

from __future__ import annotations

import re

from jobtracker.alerts.base import (
    CardText,
    JobLink,
    Sender,
    host_of,
    looks_like_salary,
    pattern,
    posting,
    search_url,
)
from jobtracker.hosts import host_is
from jobtracker.sources.base import NormalizedPosting

_JOB_PATH = re.compile(r"^/(?:ekm|km|k|c|job|jobs/v2)/([^/?#]+)")
_NEW_BADGE = re.compile(r"\s+new$", re.I)
_WHERE = ("remote", "on-site", "onsite", "hybrid", "in-person", "in person")


class ZipRecruiter(Sender):
    name = "ziprecruiter"
    label = "ZipRecruiter"
    domains = ("ziprecruiter.com",)
    locals = ("alerts", "noreply", "no-reply", "jobs", "jobalerts")
    subjects = pattern(r"\bjobs?\b.*\bfor you\b", r"\bnew\b.*\bjobs?\b", r"\bjob alert\b",
                       r"\bis hiring\b", r"\brecommended\b")
    markers = ("jobs recommended for you", "view details", "1-click apply", "/ekm/", "/km/")
    chrome = pattern(r"^here are today's jobs", r"^(?:see|view) (?:all|more)(?: jobs)?\b",
                     r"^hi\b[^,]{0,40},$", r"^your career advisor$", r"^get hired faster$",
                     r"^download the free", r"ziprecruiter, inc\.",
                     r"^unsubscribe", r"^manage (?:your )?(?:job )?alerts", r"^©",
                     r"^you(?:'re| are) receiving", r"^privacy")
    badges = pattern(r"^view details$", r"^1-click apply$", r"^estimated pay$", r"^apply$",
                     r"^new$", r"^quick apply$", r"^great match$", r"^top match$",
                     r"^be seen first$")

    def job_link(self, href: str) -> JobLink | None:
        host = host_of(href)
        if not host_is(host, "ziprecruiter.com"):
            return None
        path = href.split("://", 1)[-1].partition("/")[2].split("?", 1)[0]
        found = _JOB_PATH.match("/" + path)
        return JobLink(key=found.group(1)) if found else None

    def read(self, card: CardText) -> NormalizedPosting | None:
        lines = card.lines
        if len(lines) < 2:
            return None
        title, facts = lines[0], [part.strip() for part in re.split(r"\s+[•|]\s+", lines[1])]
        if card.part == "text":
            title = _NEW_BADGE.sub("", title)     # "Website Designer <link>New"
        company = facts[0]
        places = [part for part in facts[1:] if part]
        where = next((p for p in places if p.lower() in _WHERE), "")
        place = ", ".join(p for p in places if p != where)
        if where:
            place = f"{place} ({where})" if place else where
        pay = next((line for line in lines[2:] if looks_like_salary(line)), "")
        return posting(self.name, card, title=title, company=company, location=place, pay=pay,
                       search=search_url("https://www.ziprecruiter.com/jobs-search",
                                         search=f"{title} {company}", location=place))


SENDER = ZipRecruiter()

__all__ = ["SENDER", "ZipRecruiter"]
