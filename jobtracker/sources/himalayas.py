"""Himalayas' public jobs API.

`GET https://himalayas.app/jobs/api?limit=20&offset=N` answers `{"offset", "limit",
"totalCount", "jobs": [...]}` (20 a page at most). A job has `guid` (its Himalayas
page, the id here), `title`, `companyName`, `locationRestrictions` (a list),
`minSalary` / `maxSalary` / `currency` (kept), `description` (HTML) and `pubDate`
in epoch *seconds*. The site lists tens of thousands of jobs: `MAX_PAGES` bounds a
fetch to the newest few hundred.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

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
    number,
    object_list,
    text_field,
)
from jobtracker.text import html_to_text, one_line

PAGE_SIZE = 20
MAX_PAGES = 25


def default_url(_token: str) -> str:
    return "https://himalayas.app/jobs/api"


def match_url(_url: str) -> tuple[str, str] | None:
    return None


def page_url(url: str, offset: int) -> str:
    parts = urlsplit(url)
    query = "&".join(part for part in parts.query.split("&")
                     if part and not part.startswith(("limit=", "offset=")))
    query = f"{query}&" if query else ""
    return urlunsplit(parts._replace(query=f"{query}limit={PAGE_SIZE}&offset={offset}"))


def _seconds(value: Any) -> str | None:
    seconds = number(value)
    return iso_time(seconds * 1000) if seconds is not None else iso_time(value)


def _location(job: dict[str, Any]) -> str:
    places = job.get("locationRestrictions")
    if isinstance(places, list):
        return ", ".join(text_field(place) for place in places if text_field(place))
    return text_field(places)


def _posting(job: dict[str, Any], board: Board) -> NormalizedPosting | None:
    guid, title = identifier(job.get("guid"), 2000), text_field(job.get("title"))
    if not guid or not title:
        return None
    prose = job.get("description")
    currency = job.get("currency")
    return NormalizedPosting(
        external_id=guid,
        title=title,
        company=text_field(job.get("companyName"), 200) or board.company,
        location=_location(job),
        remote=True,
        url=guid if guid.startswith("http") else text_field(job.get("applicationLink"), 2000),
        description=description(html_to_text(prose)) if isinstance(prose, str) else None,
        salary_min=number(job.get("minSalary")),
        salary_max=number(job.get("maxSalary")),
        salary_currency=one_line(currency, 8) if isinstance(currency, str) and currency else None,
        posted_at=_seconds(job.get("pubDate")),
    )


def parse(payload: bytes | str | Any, board: Board) -> Postings:
    """One page of the listing."""
    return guarded(object_list(load_json(payload), "jobs", "a Himalayas"),
                   lambda job: _posting(job, board))


def plan(board: Board, url: str, _known: Known) -> Plan:
    listing = Listing(lambda job: _posting(job, board))
    for _ in range(MAX_PAGES):
        answer = load_json((yield Request(page_url(url, listing.seen))).body)
        listed = listing.add(object_list(answer, "jobs", "a Himalayas"))
        total = answer.get("totalCount")
        del answer                # the page is read; only its postings are kept
        if not listed or not isinstance(total, int) or listing.seen >= total:
            break
    return listing.postings()


SOURCE = Source("himalayas", default_url, parse, match_url, plan, aggregator=True)
