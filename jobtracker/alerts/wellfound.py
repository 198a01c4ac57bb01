"""Wellfound (formerly AngelList Talent): "New jobs: <Title> at <Company> and N more jobs".

From team@hi.wellfound.com. A card: the title, "<Company> / <N> Employees", a facet
line "$173–233k | Remote only, United States | 4 years of exp | Full-time", chips
("Actively Hiring"), "Our Take" and its blurb, then "Learn More" and the link. The
link comes as `https://wellfound.com/jobs?job_listing_slug<ID>-<slug>` — the `=`
lost to the mail's encoding in the text part, `=3D` or `%3D` elsewhere — and is
rebuilt as `https://wellfound.com/jobs/<ID>-<slug>`, the listing id kept as the
posting's id. The blurb is kept as the card's snippet.
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

_SLUG = re.compile(r"job_listing_slug(?:=|%3D|=3D)?(\d{3,12})-([a-z0-9][a-z0-9-]{0,150})", re.I)
_PATH = re.compile(r"/jobs/(\d{3,12})-([a-z0-9][a-z0-9-]{0,150})", re.I)
_FACET_NOISE = re.compile(r"years? of exp|full-time|part-time|contract|internship|"
                          r"\bequity\b|cofounder", re.I)


class Wellfound(Sender):
    name = "wellfound"
    label = "Wellfound"
    domains = ("wellfound.com",)
    subjects = pattern(r"^new jobs?:", r"\band \d+ more jobs?\b", r"\bjobs? for you\b")
    markers = ("learn more", "job_listing_slug", "our take", "employees")
    chrome = pattern(r"^new jobs? (?:for you|matching)", r"^(?:see|view) (?:all|more)\b",
                     r"^unsubscribe", r"^manage (?:your )?(?:job )?(?:alerts|preferences)",
                     r"^©", r"^you(?:'re| are) receiving",
                     r"^learn more$", r"^here are", r"^\d+ new jobs?\b")
    badges = pattern(r"^actively hiring$", r"^recently funded$", r"^top investors?$",
                     r"^remote friendly$", r"^new$", r"^growing fast$", r"^responsive$",
                     r"^featured$")
    link_last = True

    def job_link(self, href: str) -> JobLink | None:
        host = host_of(href)
        if not host_is(host, "wellfound.com"):
            return None
        found = _SLUG.search(href) or _PATH.search(href.split("?", 1)[0])
        if not found:
            return None
        listing, slug = found.group(1), found.group(2).lower().rstrip("-")
        return JobLink(listing, f"wellfound:{listing}",
                       f"https://wellfound.com/jobs/{listing}-{slug}")

    def read(self, card: CardText) -> NormalizedPosting | None:
        lines = card.lines
        if len(lines) < 2:
            return None
        title = lines[0]
        company = re.sub(r"\s*/\s*[\d,+-]+\s*employees?\s*$", "", lines[1], flags=re.I)
        pay = place = ""
        snippet: list[str] = []
        taking = False
        for line in lines[2:]:
            if line.lower() == "our take":
                taking = True
                continue
            if taking:
                snippet.append(line)
            elif " | " in line or looks_like_salary(line):
                facets = [facet.strip() for facet in line.split("|")]
                pay = next((f for f in facets if looks_like_salary(f)), pay)
                place = next((f for f in facets if f != pay and not _FACET_NOISE.search(f)),
                             place)
        return posting(self.name, card, title=title, company=company, location=place,
                       pay=pay, snippet=" ".join(snippet),
                       search=search_url("https://wellfound.com/jobs", query=f"{title} {company}"))


SENDER = Wellfound()

__all__ = ["SENDER", "Wellfound"]
