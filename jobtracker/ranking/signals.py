"""Posting signals: what the store already knows about whether a job is what it seems.

Derived on every read, never stored, never hiding anything (docs/ranking.md, "Posting
signals"). Each is a fact about the job's postings, not a verdict on it:

- `reposts`: postings of the job that came after an earlier one on the same board
  (a new id for the same job: the board took it down and put it up again, or
  lists it twice). Reposting is common for jobs that are hard to fill, and for
  listings that are never filled.
- `days_open`: days since the job was first seen (or posted, when the board says so
  and it is earlier), on any board.
- `own_board`: whether any posting of the job is on a company's own board (an ATS
  board in sources.yaml), or only on aggregators and in job alerts.
- `same_text`: how many other employers among the scored matches list a job with the
  same title and the same description (staffing agencies and mass-posted listings),
  0 when none.
- `apply_page`: where the page to apply on is: `company` (a host that names the
  company), `ats` (an applicant-tracking system's host), or `elsewhere`.

The filter `filters.signals` (profile.yaml: `max_reposts`, `own_board: required`) keeps
postings out by the first two facts, with the same SQL the other filters use
(jobtracker/ranking/filters.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from jobtracker.hosts import host_in
from jobtracker.mail.link import domain_names, normalize_company

COMPANY, ATS, ELSEWHERE = "company", "ats", "elsewhere"
LONG_OPEN_DAYS = 60      # open this long, the line says so (most hires take 30-45 days)

# Applicant-tracking systems' hosts: a page there is the employer's form, on their
# vendor's site. Compared exactly or as a dot-bounded suffix.
ATS_HOSTS = ("greenhouse.io", "lever.co", "ashbyhq.com", "workable.com",
             "smartrecruiters.com", "recruitee.com", "personio.de", "personio.com",
             "myworkdayjobs.com", "myworkdaysite.com", "bamboohr.com", "jobvite.com",
             "icims.com", "teamtailor.com", "breezy.hr", "jazzhr.com")

# SQL, over `p` (a leader): how many postings of its job came after an earlier one on
# the same board. The leader is the group's smallest id, so each member on the
# leader's board counts, and each member on another board after the first one there.
REPOSTS_SQL = (
    "(SELECT COUNT(*) FROM postings AS m WHERE m.lead_id = p.id AND "
    "(m.board_id = p.board_id OR EXISTS (SELECT 1 FROM postings AS e "
    "WHERE e.lead_id = p.id AND e.board_id = m.board_id AND e.id < m.id)))")
# SQL, over `p`: 1 when the job is on a company's own board (any of its postings).
OWN_BOARD_SQL = (
    "(COALESCE((SELECT NOT aggregator FROM boards WHERE id = p.board_id), 0) "
    "OR EXISTS (SELECT 1 FROM postings AS m JOIN boards AS b ON b.id = m.board_id "
    "WHERE m.lead_id = p.id AND b.aggregator = 0))")


FIELDS = ("reposts", "days_open", "own_board", "same_text", "apply_page")


@dataclass(frozen=True)
class Signals:
    reposts: int = 0
    days_open: int | None = None
    own_board: bool = True
    same_text: int = 0
    apply_page: str = COMPANY

    def to_json(self) -> dict[str, Any]:
        return {"reposts": self.reposts, "days_open": self.days_open,
                "own_board": self.own_board, "same_text": self.same_text,
                "apply_page": self.apply_page}

    def line(self, *, age: bool = False) -> str:
        """The facts worth a look, as one short line ('' when none is); with `age`, how
        long the job has been open too, once that is long (the detail view shows it:
        a list of old postings each saying so would say nothing)."""
        parts = []
        if self.reposts:
            parts.append(f"reposted {self.reposts}x")
        if age and self.days_open is not None and self.days_open >= LONG_OPEN_DAYS:
            parts.append(f"open {self.days_open} days")
        if not self.own_board:
            parts.append("only on aggregators")
        if self.same_text:
            parts.append(f"same text at {self.same_text} other employer(s)")
        if self.apply_page == ELSEWHERE:
            parts.append("apply page not the company's")
        return ", ".join(parts)


# What makes a netloc more than a host name (credentials, a port, an IPv6 literal, a query
# or fragment with no path): those go through urlsplit.
_NOT_PLAIN = re.compile(r"[@:\[?#]")


def host_of(url: str | None) -> str:
    """The host of an http(s) page, lower case ('' for none). The common shape
    (`https://host/...`, read per listed match) is cut by hand; anything else
    (credentials, a port, an IPv6 literal, another scheme) goes through urlsplit."""
    text = url or ""
    if text.startswith("https://"):
        netloc = text[8:].partition("/")[0]
    elif text.startswith("http://"):
        netloc = text[7:].partition("/")[0]
    else:
        netloc = "@"
    if not _NOT_PLAIN.search(netloc):
        return netloc.rstrip(".").lower()
    try:
        return (urlsplit(text).hostname or "").rstrip(".").lower()
    except ValueError:
        return ""


def apply_page(url: str | None, company: str | None, own_board: bool = False) -> str:
    """`company`, `ats` or `elsewhere`: who the page at `url` belongs to. A page from a
    company's own board (one in sources.yaml) is the company's wherever it is hosted;
    an aggregator's or an alert's page is the company's only when its host names it."""
    host = host_of(url)
    if host_in(host, ATS_HOSTS):
        return ATS
    if own_board:
        return COMPANY
    key = normalize_company(company or "")
    if key and host and any(name and (name == key or (key.startswith(name) and len(name) >= 4))
                            for name in domain_names(host)):
        return COMPANY
    return ELSEWHERE


def reposts_in(leader_board: int, members: Iterable[Any]) -> int:
    """Python's count of REPOSTS_SQL, over a leader's members (any order)."""
    boards = {leader_board}
    count = 0
    for member in sorted(members, key=lambda m: m["id"]):
        if member["board_id"] in boards:
            count += 1
        else:
            boards.add(member["board_id"])
    return count


def same_text_counts(rows: Iterable[Any]) -> dict[tuple[str, str], int]:
    """(description hash, title folded) -> how many employers list it, where more than
    one does, among the jobs listed (`rows`: description_hash, title_key, company).
    Counted from the list itself: an aggregate over every posting cost a third of a
    second at 100,000, and a mass-posted text shows among the matches it floods."""
    employers: dict[tuple[str, str], set[str]] = {}
    for row in rows:
        digest = row["description_hash"]
        if digest:
            employers.setdefault((digest, row["title_key"]), set()).add(
                (row["company"] or "").strip().lower())
    return {key: len(names) for key, names in employers.items() if len(names) > 1}
