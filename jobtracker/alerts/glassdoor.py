"""Glassdoor: job alerts from noreply@glassdoor.com ("Glassdoor Jobs").

Each card is one link to `/partner/jobListing.htm?...&jobListingId=<id>&...` (or a
`/job-listing/...htm?jl=<id>` page); the id is kept, everything else in the link
dropped: the page is `https://www.glassdoor.com/partner/jobListing.htm?jobListingId=<id>`
(on the country site the mail used). Unlike the other senders the employer comes
first: employer, rating ("3.7 ★"), title, place, pay ("$183K - $237K (Employer est.)"),
"Easy Apply", the age ("21h", "7d").
"""

from __future__ import annotations

import re

from jobtracker.alerts.base import (
    CardText,
    JobLink,
    Sender,
    age_days,
    host_of,
    looks_like_salary,
    param,
    pattern,
    posting,
    search_url,
)
from jobtracker.hosts import ascii_host
from jobtracker.sources.base import NormalizedPosting

# Glassdoor's country sites (a job link is trusted on these and their `www.` only).
_SITES = tuple(f"glassdoor.{tld}" for tld in (
    "com", "co.uk", "de", "fr", "ca", "com.au", "co.in", "ie", "nl", "be", "ch", "at", "es",
    "it", "sg", "com.hk"))
_RATING = re.compile(r"^\d(?:[.,]\d)?\s*★?$")
# "DataAnnotation 4.1 ★": the rating written on the employer's line.
_TRAILING_RATING = re.compile(r"\s+\d(?:[.,]\d)?\s*★\s*$")


class Glassdoor(Sender):
    name = "glassdoor"
    label = "Glassdoor"
    domains = ("glassdoor.com",)
    subjects = pattern(r"\band \d+ more\b", r"^jobs for\b", r"\bnew\b.*\bjobs?\b",
                       r"\bjobs? for you\b", r"\boffres? d'emploi\b")
    markers = ("joblistingid", "employer est.", "glassdoor est.", "easy apply",
               "candidature facile", "joblisting.htm")
    chrome = pattern(r"^(?:see|view) (?:all|more)(?: jobs)?\b", r"^jobs for\b",
                     r"^\[image: glassdoor\]$", r"^see the latest roles", r"^job alert:",
                     r"^your job listings for", r"^jobs for you$",
                     r"^new jobs? for you", r"^unsubscribe", r"^© ?(?:\d{4} )?glassdoor",
                     r"^manage (?:email|job) alerts", r"^you(?:'re| are) receiving",
                     r"^\d+ new jobs?\b", r"^download the app")
    badges = pattern(r"^easy apply$", r"^candidature facile$", r"^new$", r"^hot$",
                     r"^\((?:employer|glassdoor) est\.?\)$", r"^top company$")

    def job_link(self, href: str) -> JobLink | None:
        host = ascii_host(host_of(href))
        site = next((domain for domain in _SITES if host in (domain, "www." + domain)), None)
        if site is None:
            return None
        listing = param(href, "jobListingId", "jl")
        if not re.fullmatch(r"\d{4,20}", listing):
            return None
        return JobLink(listing, f"glassdoor:{listing}",
                       f"https://www.{site}/partner/jobListing.htm?jobListingId={listing}", site)

    def read(self, card: CardText) -> NormalizedPosting | None:
        lines = [line for line in card.lines if not _RATING.match(line)]
        if len(lines) < 2:
            return None
        company, title, rest = _TRAILING_RATING.sub("", lines[0]), lines[1], lines[2:]
        place = ""
        if rest and not looks_like_salary(rest[0]) and age_days(rest[0]) is None:
            place, rest = rest[0], rest[1:]
        pay = next((line for line in rest if looks_like_salary(line)), "")
        age = next((line for line in rest if age_days(line) is not None), "")
        return posting(self.name, card, title=title, company=company, location=place,
                       pay=pay, age=age,
                       search=search_url("https://www.glassdoor.com/Job/jobs.htm",
                                         sc_keyword=f"{title} {company}"))


SENDER = Glassdoor()

__all__ = ["SENDER", "Glassdoor"]
