"""Indeed: saved-search digests (jobalert.indeed.com) and single-match mail (match.indeed.com).

A digest card is one link around the whole card: title, "Company 3.5 3.5/5 rating",
place, pay ("$75,000 - $100,000 a year"), badges, a snippet, the age. Its text part
reads "Title / Company - Place / pay / age / link". Links take many shapes (`/rc/clk`,
`/rc/clk/dl`, `/pagead/clk`, `/viewjob`, country hosts); the `jk` (or `vjk`) they carry
is the job's id, so the page is `https://<host>/viewjob?jk=<jk>` on the host the mail
used (`uk.indeed.com` stays British). A match mail's link (`cts.indeed.com/v3/...`)
is opaque: that card's id is a hash of company, title and place.
`indeedapply@indeed.com` confirms applications; it sends no postings.
"""

from __future__ import annotations

import re

from jobtracker.alerts.base import (
    CardText,
    JobLink,
    Mail,
    Sender,
    age_days,
    host_of,
    looks_like_salary,
    param,
    pattern,
    posting,
    search_url,
)
from jobtracker.hosts import host_is
from jobtracker.sources.base import NormalizedPosting

_JK = re.compile(r"[0-9a-f]{16}", re.I)
_RATING = re.compile(r"\s+\d(?:[.,]\d)?(?:\s+\d(?:[.,]\d)?\s*/\s*5(?: rating)?)?\s*$")
_COUNTRY = re.compile(r"^[a-z]{2}\.indeed\.com$")


class Indeed(Sender):
    name = "indeed"
    label = "Indeed"
    domains = ("jobalert.indeed.com", "match.indeed.com", "indeed.com")
    subjects = pattern(r"\band \d+ more\b", r"\bis hiring for\b", r"\bnew\b.*\bjobs?\b",
                       r"could be a match", r"\bjobs? (?:in|for you)\b", r"\bat\b.*\bjobs?\b")
    markers = ("viewjob", "rc/clk", "jk=", "easily apply", "just posted", "indeed.com/m/",
               "minimum base pay")
    chrome = pattern(
        r"^(?:see|view) (?:all|more)(?: jobs)?\b", r"^new jobs? (?:for|in)\b",
        r"^jobs? (?:for|in)\b.*:$", r"^your background could be a match",
        r"^based on your", r"^unsubscribe", r"^manage (?:job )?alerts", r"^© ?\d{4} indeed",
        r"^privacy", r"^you are receiving", r"^this (?:email|message) was sent",
        r"^\d+ new jobs? for", r"^edit this (?:job )?alert", r"^view job$", r"^apply now$",
        r"^hi\b[^,]{0,40},", r"^jobs are based on your", r"^indeed job alert$",
        r"^\d+ nouve(?:aux|l) emplois?\b", r"^jobs \d+-\d+ of \d+", r"^salaries estimated",
        r"^ne partagez pas", r"^ce message contient", r"^si le salaire", r"^©")
    badges = pattern(r"^easily apply(?: to this job)?$", r"^responsive employer$",
                     r"^urgently hiring$", r"^hiring multiple candidates$", r"^new$",
                     r"^many hires$", r"^you must create an indeed account",
                     r"^apply from your phone$", r"^candidature simplifiée$",
                     r"^employeur réactif$", r"^recrutement urgent$", r"^hybrid remote$",
                     r"^einfach bewerben$", r"^schnelle bewerbung$",
                     r"^postulación rápida$", r"^actively hiring$")

    def sends(self, address: str) -> bool:
        local, _, domain = address.lower().rpartition("@")
        if domain in ("indeed.com", "www.indeed.com"):
            return local == "alert"            # the legacy digest address; not indeedapply@
        return super().sends(address) and domain != "indeed.com"

    def template(self, mail: Mail) -> str:
        return "match" if host_is(mail.domain, "match.indeed.com") else "digest"

    def job_link(self, href: str) -> JobLink | None:
        host = host_of(href)
        if not host_is(host, "indeed.com"):
            return None
        jk = param(href, "jk", "vjk")
        if _JK.fullmatch(jk):
            jk = jk.lower()
            page_host = host if _COUNTRY.match(host) else "www.indeed.com"
            return JobLink(jk, f"indeed:{jk}", f"https://{page_host}/viewjob?jk={jk}", host)
        if host == "cts.indeed.com" or "/rc/clk" in href or "/pagead/" in href:
            return JobLink(key=href, site=host)      # opaque: a hash identity
        return None

    def read(self, card: CardText) -> NormalizedPosting | None:
        lines = card.lines
        if len(lines) < 2:
            return None
        title = lines[0]
        company, place, rest = _RATING.sub("", lines[1]).replace(" / 5 rating", ""), "", lines[2:]
        if card.part == "text" and " - " in company:
            # "Company - Place" on one line: split at its last " - " (a company may hold
            # one, a place does not), whatever comes after it (a badge, a snippet).
            company, _, place = company.rpartition(" - ")
        elif " - " in company and (not rest or looks_like_salary(rest[0])
                                   or age_days(rest[0]) is not None):
            company, _, place = company.rpartition(" - ")
        elif rest:
            place, rest = rest[0], rest[1:]
        pay = next((line for line in rest if looks_like_salary(line)), "")
        age = next((line for line in rest if age_days(line) is not None), "")
        notes = [line for line in rest if line not in (pay, age)]
        pay = pay.removeprefix("Minimum base pay").strip(" :")
        return posting(self.name, card, title=title, company=company, location=place,
                       snippet=" ".join(notes), pay=pay, age=age,
                       search=search_url("https://www.indeed.com/jobs", q=f"{title} {company}",
                                         l=place))


SENDER = Indeed()

__all__ = ["SENDER", "Indeed"]
