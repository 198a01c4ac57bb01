"""Workable's public careers API.

`POST https://apply.workable.com/api/v3/accounts/{slug}/jobs` with `{}` answers
`{"total", "results": [...], "nextPage"}`; the next page is the same POST with
`{"token": nextPage}`. A list item has `shortcode`, `title`, `location` (`city`,
`region`, `country`), `remote`, `workplace`, `department`, `published`,
`employment_type` but no description: that comes from
`GET https://apply.workable.com/api/v2/accounts/{slug}/jobs/{shortcode}`
(`description`, `requirements`, `benefits`, HTML), fetched only for jobs that are new
or whose `published` changed. Workable rate-limits per IP with long `Retry-After`:
the fetch layer honours short ones and fails the board on long ones.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any
from urllib.parse import quote

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

MAX_PAGES = 20          # 20 pages of ~10–50 jobs: more than any one employer lists
MAX_DETAILS = 100       # descriptions fetched per fetch; the rest come next time

_JOB_PAGE = re.compile(r"^https?://apply\.workable\.com/([^/?#]+)/j/([0-9A-Za-z]+)", re.I)
_WORKPLACE = {"remote": True, "on_site": False, "onsite": False, "hybrid": False}


def default_url(token: str) -> str:
    return f"https://apply.workable.com/api/v3/accounts/{segment(token)}/jobs"


def detail_url(board: Board, list_url: str, shortcode: str) -> str:
    """The per-job address: the public v2 one, or `{url}/{shortcode}` under a `url` override."""
    if board.url:
        return f"{list_url.rstrip('/')}/{segment(shortcode)}"
    return (f"https://apply.workable.com/api/v2/accounts/{quote(board.token, safe='')}"
            f"/jobs/{segment(shortcode)}")


def match_url(url: str) -> tuple[str, str] | None:
    """`apply.workable.com/{slug}/j/{shortcode}` → (slug, shortcode)."""
    found = _JOB_PAGE.match(url)
    return (found.group(1), found.group(2)) if found else None


def _location(job: dict[str, Any]) -> str:
    place = mapping(job.get("location"))
    parts = [text_field(place.get(key)) for key in ("city", "region", "country")]
    return ", ".join(part for part in parts if part)


def _remote(job: dict[str, Any]) -> bool | None:
    if isinstance(job.get("remote"), bool) and job["remote"]:
        return True
    return _WORKPLACE.get(str(job.get("workplace") or "").lower())


def _posting(job: dict[str, Any], board: Board) -> NormalizedPosting | None:
    code, title = identifier(job.get("shortcode")), text_field(job.get("title"))
    if not code or not title:
        return None
    department = job.get("department")
    if isinstance(department, list):        # v3 sends the department path as a list
        department = " / ".join(text_field(part) for part in department if text_field(part))
    return NormalizedPosting(
        external_id=code,
        title=title,
        company=board.company,
        location=_location(job),
        remote=_remote(job),
        url=f"https://apply.workable.com/{quote(board.token, safe='')}/j/{quote(code, safe='')}/",
        department=text_field(department),
        posted_at=iso_time(job.get("published")),
    )


def _enrich(body: bytes, posting: NormalizedPosting) -> NormalizedPosting:
    """The job's HTML sections (`description`, `requirements`, `benefits`) as its prose."""
    detail = mapping(load_json(body))
    parts = [detail[key] for key in ("description", "requirements", "benefits")
             if isinstance(detail.get(key), str)]
    return replace(posting, description=description(html_to_text("".join(parts))))


def parse(payload: bytes | str | Any, board: Board) -> Postings:
    """One page of the job list (no descriptions)."""
    return guarded(object_list(load_json(payload), "results", "a Workable"),
                   lambda job: _posting(job, board))


def plan(board: Board, url: str, known: Known) -> Plan:
    listing = Listing(lambda job: _posting(job, board),
                      lambda _job, posting: Request(detail_url(board, url, posting.external_id),
                                                    optional=True))
    body: dict[str, Any] = {}
    for _ in range(MAX_PAGES):
        answer = load_json((yield Request(url, "POST", body)).body)
        listing.add(object_list(answer, "results", "a Workable"))
        token = answer.get("nextPage")
        del answer                # the page is read; only its postings are kept
        if not isinstance(token, str) or not token or len(token) > 2000:
            break
        body = {"token": token}
    return (yield from with_details(listing, _enrich, known, MAX_DETAILS))


SOURCE = Source("workable", default_url, parse, match_url, plan,
                pages=(page("apply.workable.com/TOKEN", r"apply\.workable\.com/([\w.-]+)"),))
