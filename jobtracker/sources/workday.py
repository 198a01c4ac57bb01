"""Workday's candidate-experience ("cxs") job search, as its career sites use it.

A board's token is `TENANT.wdN/SITE` (from `https://TENANT.wdN.myworkdayjobs.com/SITE`).
`POST https://TENANT.wdN.myworkdayjobs.com/wday/cxs/TENANT/SITE/jobs` with
`{"appliedFacets": {}, "limit": 20, "offset": N, "searchText": ""}` answers
`{"total", "jobPostings": [...]}`: 20 is the most a page holds, and `total` is
right on the first page only (later pages say 0), so paging follows the first
page's total. A list item has `title`, `externalPath` (`/job/LOCATION/TITLE_REQ`),
`locationsText`, `postedOn` ("Posted 3 Days Ago": relative, so not stored) and
`bulletFields` (the requisition id first). The description comes from
`GET .../wday/cxs/TENANT/SITE{externalPath}` (`jobPostingInfo.jobDescription`,
HTML, with `startDate`), fetched only for jobs not yet described.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any
from urllib.parse import unquote, urlsplit

from jobtracker.config import Board
from jobtracker.sources.base import (
    BoardRef,
    Known,
    Listing,
    NormalizedPosting,
    Plan,
    Postings,
    Request,
    Source,
    description,
    guarded,
    iso_time,
    load_json,
    mapping,
    object_list,
    page,
    segment,
    text_field,
)
from jobtracker.sources.base import with_details as _with_details
from jobtracker.text import html_to_text

PAGE_SIZE = 20
MAX_PAGES = 50          # 1,000 jobs: past that, a search on the site is the better tool
MAX_DETAILS = 100
_TOKEN = re.compile(r"^([A-Za-z0-9_-]+)\.(wd\d+)/([A-Za-z0-9_-]+)$")
_SITE = re.compile(r"^https?://([a-z0-9_-]+)\.(wd\d+)\.myworkdayjobs\.com/(?:[a-z]{2}-[A-Z]{2}/)?"
                   r"([A-Za-z0-9_-]+)(?:/job/(?:[^?#]*/)?([^/?#]+))?", re.I)
_CXS = re.compile(r"/wday/cxs/([^/]+)/([^/]+)/jobs/?$")


def default_url(token: str) -> str:
    """The search address for `TENANT.wdN/SITE`; "" for a token of another form."""
    found = _TOKEN.match(token.strip())
    if not found:
        return ""
    tenant, shard, site = found.groups()
    return f"https://{tenant}.{shard}.myworkdayjobs.com/wday/cxs/{tenant}/{site}/jobs"


def match_url(url: str) -> tuple[str, str] | None:
    """`TENANT.wdN.myworkdayjobs.com/[locale/]SITE/job/.../TITLE_REQ` → (token, last part)."""
    found = _SITE.match(url)
    if not found or not found.group(4):
        return None
    tenant, shard, site, job = found.groups()
    return f"{tenant.lower()}.{shard.lower()}/{site}", job


def board_of(url: str) -> str | None:
    """The token of a careers-site address `TENANT.wdN.myworkdayjobs.com/[locale/]SITE`."""
    found = _SITE.match(url)
    return f"{found.group(1).lower()}.{found.group(2).lower()}/{found.group(3)}" if found else None


def _base(url: str) -> str:
    """The search address without its final `/jobs`: details hang below it."""
    return url[:-len("/jobs")] if url.rstrip("/").endswith("/jobs") else url.rstrip("/")


def _page(url: str, path: str) -> str:
    """The public job page: `https://HOST/SITE{externalPath}`."""
    parts = urlsplit(url)
    found = _CXS.search(parts.path)
    site = found.group(2) if found else ""
    return f"{parts.scheme}://{parts.netloc}/{site}{path}"


def _posting(job: dict[str, Any], board: Board, url: str) -> NormalizedPosting | None:
    path, title = job.get("externalPath"), text_field(job.get("title"))
    if not isinstance(path, str) or not path.startswith("/") or len(path) > 1000 or not title:
        return None
    job_id = path.rstrip("/").rsplit("/", 1)[-1]
    location = text_field(job.get("locationsText"))
    return NormalizedPosting(
        external_id=job_id,
        title=title,
        company=board.company,
        location=location,
        remote=True if "remote" in location.lower() else None,
        url=_page(url, path),
    )


def _enrich(body: bytes, posting: NormalizedPosting) -> NormalizedPosting:
    info = mapping(mapping(load_json(body)).get("jobPostingInfo"))
    prose = info.get("jobDescription")
    return replace(posting,
                   description=description(html_to_text(prose)) if isinstance(prose, str)
                   else None,
                   posted_at=iso_time(info.get("startDate")))


def _search(offset: int) -> dict[str, Any]:
    return {"appliedFacets": {}, "limit": PAGE_SIZE, "offset": offset, "searchText": ""}


def parse(payload: bytes | str | Any, board: Board) -> Postings:
    """One page of the search (no descriptions)."""
    url = board.url or default_url(board.token)
    return guarded(object_list(load_json(payload), "jobPostings", "a Workday"),
                   lambda job: _posting(job, board, url))


def detail_path(path: str) -> str:
    """`externalPath` as a path below the site: each segment escaped, no `.` or `..`
    (ValueError), so a listing cannot point a detail request elsewhere on the host."""
    return "".join("/" + segment(unquote(part)) for part in path.strip("/").split("/"))


def plan(board: Board, url: str, known: Known) -> Plan:
    base = _base(url)
    listing = Listing(lambda job: _posting(job, board, url),
                      lambda job, _posting_: Request(base + detail_path(job["externalPath"]),
                                                     optional=True))
    total = 0
    for page_number in range(MAX_PAGES):
        answer = load_json((yield Request(url, "POST", _search(listing.seen))).body)
        listed = listing.add(object_list(answer, "jobPostings", "a Workday"))
        if page_number == 0:      # later pages report a total of 0
            total = answer.get("total") if isinstance(answer.get("total"), int) else 0
        del answer                # the page is read; only its postings are kept
        if not listed or listing.seen >= total:
            break
    return (yield from _with_details(listing, _enrich, known, MAX_DETAILS))


def _board_of(found: re.Match[str], url: str) -> BoardRef:
    """`acme.wd5.myworkdayjobs.com/External`: the token is `acme.wd5/External` (host and
    site, as sources.yaml names a Workday board); the company is guessed from `acme`."""
    host = found.group(1).lower()
    return BoardRef(f"{host}/{found.group(2)}", name=host.split(".")[0])


SOURCE = Source("workday", default_url, parse, match_url, plan, pages=(
    page("TOKEN.wdN.myworkdayjobs.com/SITE",
         r"([\w-]+\.wd\d+)\.myworkdayjobs\.com/(?:[a-z]{2}-[A-Z]{2}/)?([\w-]+)"),
), board_of=_board_of)
