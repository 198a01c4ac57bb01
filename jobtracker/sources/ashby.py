"""Ashby's public job-board API.

`GET https://api.ashbyhq.com/posting-api/job-board/{token}?includeCompensation=true`
answers `{"jobs": [...]}` in one response (no paging: big boards are ~12 MB). An
unknown board is a plain-text 404. `id` is a UUID, also the last part of `jobUrl`;
`isRemote` is often null, so `workplaceType` is read too.
"""

from __future__ import annotations

import re
from typing import Any

from jobtracker.config import Board
from jobtracker.sources.base import (
    NormalizedPosting,
    Postings,
    Source,
    description,
    guarded,
    identifier,
    iso_time,
    jobs_list,
    number,
    page,
    segment,
    text_field,
)
from jobtracker.text import html_to_text, one_line

_JOB_PAGE = re.compile(r"^https?://jobs\.ashbyhq\.com/([^/?#]+)/([0-9a-f-]{36})", re.I)
_REMOTE = {"remote": True, "onsite": False, "on-site": False, "hybrid": False}


def default_url(token: str) -> str:
    return (f"https://api.ashbyhq.com/posting-api/job-board/{segment(token)}"
            "?includeCompensation=true")


def match_url(url: str) -> tuple[str, str] | None:
    """`jobs.ashbyhq.com/{token}/{uuid}` → (token, uuid)."""
    found = _JOB_PAGE.match(url)
    return (found.group(1), found.group(2).lower()) if found else None


def _remote(job: dict[str, Any]) -> bool | None:
    """`workplaceType` first: a Hybrid job is not remote even when `isRemote` is true
    (docs/sources.md: hybrid is 0); `isRemote` only when the type says nothing."""
    kind = _REMOTE.get(str(job.get("workplaceType") or "").lower())
    if kind is not None:
        return kind
    return job["isRemote"] if isinstance(job.get("isRemote"), bool) else None


def _location(job: dict[str, Any]) -> str:
    """The main location, then each of `secondaryLocations`, once each."""
    names = [text_field(job.get("location"))]
    for extra in job.get("secondaryLocations") or []:
        if isinstance(extra, dict):
            names.append(text_field(extra.get("location")))
    return "; ".join(dict.fromkeys(name for name in names if name))


def _salary(job: dict[str, Any]) -> tuple[float | None, float | None, str | None]:
    """The yearly salary component of the compensation summary, if there is one."""
    compensation = job.get("compensation")
    if not isinstance(compensation, dict):
        return None, None, None
    for part in compensation.get("summaryComponents") or []:
        if not isinstance(part, dict) or part.get("compensationType") != "Salary":
            continue
        if "YEAR" not in str(part.get("interval") or "1 YEAR").upper():
            continue
        currency = part.get("currencyCode")
        return (number(part.get("minValue")), number(part.get("maxValue")),
                one_line(str(currency), 8) if currency else None)
    return None, None, None


def _prose(job: dict[str, Any]) -> str | None:
    if isinstance(job.get("descriptionHtml"), str) and job["descriptionHtml"].strip():
        return html_to_text(job["descriptionHtml"])
    plain = job.get("descriptionPlain")
    return plain if isinstance(plain, str) else None


def _posting(job: dict[str, Any], board: Board) -> NormalizedPosting | None:
    if job.get("isListed") is False:
        return None     # unlisted jobs are reachable by link only; the board does not list them
    job_id, title = identifier(job.get("id")), text_field(job.get("title"))
    if not job_id or not title:
        return None
    salary_min, salary_max, currency = _salary(job)
    teams = [text_field(job.get(key)) for key in ("department", "team")]
    return NormalizedPosting(
        external_id=job_id.lower(),
        title=title,
        company=board.company,
        location=_location(job),
        remote=_remote(job),
        url=text_field(job.get("jobUrl"), 2000),
        department=" / ".join(dict.fromkeys(team for team in teams if team)),
        description=description(_prose(job)),
        salary_min=salary_min,
        salary_max=salary_max,
        salary_currency=currency,
        posted_at=iso_time(job.get("publishedAt")),
        updated_at=iso_time(job.get("updatedAt")),
    )


def parse(payload: bytes | str | Any, board: Board) -> Postings:
    return guarded(jobs_list(payload, "an Ashby"), lambda job: _posting(job, board))


SOURCE = Source("ashby", default_url, parse, match_url,
                pages=(page("jobs.ashbyhq.com/TOKEN", r"jobs\.ashbyhq\.com/([\w.-]+)"),))
