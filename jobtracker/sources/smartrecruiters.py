"""SmartRecruiters' public posting API.

`GET https://api.smartrecruiters.com/v1/companies/{id}/postings?limit=100&offset=N`
answers `{"offset", "limit", "totalFound", "content": [...]}` (100 is the most
`limit` allows). A list item has `id`, `name`, `location` (`city`, `region`,
`country`, `remote`), `department.label`, `typeOfEmployment.label`, `releasedDate`
but no description: that comes from `.../postings/{id}` (`jobAd.sections`, each
with a `title` and HTML `text`), fetched only for jobs that are new or changed.
The public job page is `https://jobs.smartrecruiters.com/{id}/{postingId}`.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from jobtracker.config import Board
from jobtracker.sources.base import (
    Known,
    Listing,
    NormalizedPosting,
    Plan,
    Postings,
    Request,
    Source,
    description,
    guarded,
    identifier,
    iso_time,
    load_json,
    mapping,
    object_list,
    page,
    segment,
    text_field,
    with_details,
)
from jobtracker.text import html_to_text

PAGE_SIZE = 100
MAX_PAGES = 20
MAX_DETAILS = 100
_SECTIONS = ("companyDescription", "jobDescription", "qualifications", "additionalInformation")
_JOB_PAGE = re.compile(
    r"^https?://(?:jobs|careers)\.smartrecruiters\.com/([^/?#]+)/(\d+)", re.I)


def default_url(token: str) -> str:
    return f"https://api.smartrecruiters.com/v1/companies/{segment(token)}/postings"


def match_url(url: str) -> tuple[str, str] | None:
    """`jobs.smartrecruiters.com/{company}/{postingId}[-slug]` → (company, postingId)."""
    found = _JOB_PAGE.match(url)
    return (found.group(1), found.group(2)) if found else None


def page_url(url: str, offset: int) -> str:
    """The list address with this page's `limit` and `offset` (other query kept)."""
    parts = urlsplit(url)
    query = "&".join(part for part in parts.query.split("&")
                     if part and not part.startswith(("limit=", "offset=")))
    query = f"{query}&" if query else ""
    return urlunsplit(parts._replace(query=f"{query}limit={PAGE_SIZE}&offset={offset}"))


def detail_url(url: str, posting_id: str) -> str:
    """`{list path}/{id}`, the id one escaped path segment (ValueError for `.`, `..`)."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"{parts.path.rstrip('/')}/{segment(posting_id)}",
                                     query="", fragment=""))


def _location(place: dict[str, Any]) -> str:
    parts = [text_field(place.get(key)) for key in ("city", "region", "country")]
    return ", ".join(part for part in parts if part)


def _posting(job: dict[str, Any], board: Board) -> NormalizedPosting | None:
    posting_id, title = identifier(job.get("id")), text_field(job.get("name"))
    if not posting_id or not title:
        return None
    place = mapping(job.get("location"))
    remote = place.get("remote")
    return NormalizedPosting(
        external_id=posting_id,
        title=title,
        company=board.company,
        location=_location(place),
        remote=True if remote is True else None,
        url=f"https://jobs.smartrecruiters.com/{quote(board.token, safe='')}/"
            f"{quote(posting_id, safe='')}",
        department=text_field(mapping(job.get("department")).get("label")),
        posted_at=iso_time(job.get("releasedDate")),
    )


def _enrich(body: bytes, posting: NormalizedPosting) -> NormalizedPosting:
    sections = mapping(mapping(mapping(load_json(body)).get("jobAd")).get("sections"))
    parts = []
    for key in _SECTIONS:
        section = mapping(sections.get(key))
        if isinstance(section.get("title"), str) and section["title"].strip():
            parts.append(f"<h3>{section['title']}</h3>")
        if isinstance(section.get("text"), str):
            parts.append(section["text"])
    return replace(posting, description=description(html_to_text("".join(parts))))


def parse(payload: bytes | str | Any, board: Board) -> Postings:
    """One page of the posting list (no descriptions)."""
    return guarded(object_list(load_json(payload), "content", "a SmartRecruiters"),
                   lambda job: _posting(job, board))


def plan(board: Board, url: str, known: Known) -> Plan:
    listing = Listing(lambda job: _posting(job, board),
                      lambda _job, posting: Request(detail_url(url, posting.external_id),
                                                    optional=True))
    for _ in range(MAX_PAGES):
        answer = load_json((yield Request(page_url(url, listing.seen))).body)
        listed = listing.add(object_list(answer, "content", "a SmartRecruiters"))
        total = answer.get("totalFound")
        del answer                # the page is read; only its postings are kept
        if not listed or not isinstance(total, int) or listing.seen >= total:
            break
    return (yield from with_details(listing, _enrich, known, MAX_DETAILS))


SOURCE = Source("smartrecruiters", default_url, parse, match_url, plan, pages=(
    page("careers.smartrecruiters.com/TOKEN", r"careers\.smartrecruiters\.com/([\w.-]+)"),
    page("jobs.smartrecruiters.com/TOKEN", r"jobs\.smartrecruiters\.com/([\w.-]+)"),
))
