"""Jobright: the daily digest of "today's top matches" from jobright.ai.

Read from a real digest (tests/fixtures/real/alerts/jobright-1.eml). Each card is one
link to `https://jobright.ai/jobs/info/<24 hex>` around the whole card: the company,
its categories ("Financial Services · Public Company"), the match ("72%"), the title
(its own link inside the card's: HTML5 closes the outer one there), tags — pay
("$125K/yr - $175K/yr"), the place ("Toronto, ON", "Remote"), referrals ("7+
referrals") — then "3 hours ago · Be an early applicant" and an "APPLY NOW" button.
The hex id is the job's: the page is `https://jobright.ai/jobs/info/<id>`, every
tracking parameter (`utm_*`, `imp_id`) dropped.
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
    pattern,
    posting,
)
from jobtracker.hosts import host_is
from jobtracker.sources.base import NormalizedPosting

_JOB = re.compile(r"^/jobs/info/([0-9a-f]{24})(?:[/?#]|$)", re.I)
_MATCH = re.compile(r"^\d{1,3}%$")
_REFERRALS = re.compile(r"^\d+\+? referrals?$", re.I)


class Jobright(Sender):
    name = "jobright"
    label = "Jobright"
    domains = ("jobright.ai",)
    subjects = pattern(r"\bmatch(?:es)?\b", r"\bjobs?\b", r"\bhiring\b")
    markers = ("jobright.ai/jobs/info/", "top matches")
    chrome = pattern(r"^explore this today", r"^view more\b", r"^more great matches",
                     r"^unsubscribe", r"^©", r"^jobright", r"^install\b")
    badges = pattern(r"^apply now$", r"^be an early applicant$", r"^\d{1,3}%$",
                     r"^\d+\+? referrals?$", r"^new$")

    def job_link(self, href: str) -> JobLink | None:
        if not host_is(host_of(href), "jobright.ai"):
            return None
        path = href.split("://", 1)[-1].partition("/")[2]
        found = _JOB.match("/" + path)
        if not found:
            return None
        job = found.group(1).lower()
        return JobLink(job, f"jobright:{job}", f"https://jobright.ai/jobs/info/{job}")

    def read(self, card: CardText) -> NormalizedPosting | None:
        lines = [line for line in card.lines if not _MATCH.match(line)]
        if len(lines) < 2:
            return None
        company, rest = lines[0], lines[1:]
        if rest and " · " in rest[0] and len(rest) > 1:
            rest = rest[1:]                  # the company's categories
        title, tags = rest[0], rest[1:]
        pay = next((tag for tag in tags if looks_like_salary(tag)), "")
        age = ""
        place = ""
        for tag in tags:
            head = tag.split(" · ", 1)[0].strip()
            if age_days(head) is not None:
                age = age or head
            elif tag != pay and not _REFERRALS.match(tag) and not place:
                place = tag
        return posting(self.name, card, title=title, company=company, location=place,
                       pay=pay, age=age)


SENDER = Jobright()

__all__ = ["SENDER", "Jobright"]
