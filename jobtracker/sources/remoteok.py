"""Remote OK's public API.

`GET https://remoteok.com/api` answers a JSON array whose element 0 is a legal
notice, not a job; each job has `id`, `position`, `company`, `location`,
`description` (HTML), `date`, `salary_min` / `salary_max` (yearly USD; 0 means not
given) and `url`, its Remote OK page. The terms ask for a link back and for Remote
OK to be named as the source: the stored `url` is the Remote OK page, and the
description ends with that line.
"""

from __future__ import annotations

from typing import Any

from jobtracker.config import Board
from jobtracker.sources.base import (
    NormalizedPosting,
    Postings,
    Source,
    SourceError,
    description,
    guarded,
    identifier,
    iso_time,
    load_json,
    number,
    text_field,
)
from jobtracker.text import html_to_text


def default_url(_token: str) -> str:
    return "https://remoteok.com/api"


def match_url(_url: str) -> tuple[str, str] | None:
    return None


def _salary(value: Any) -> float | None:
    amount = number(value)
    return amount if amount else None       # 0 is "not given"


def _posting(job: dict[str, Any], board: Board) -> NormalizedPosting | None:
    if "legal" in job:
        return None                          # element 0: the legal notice
    job_id, title = identifier(job.get("id")), text_field(job.get("position"))
    if not job_id or not title:
        return None
    page = text_field(job.get("url"), 2000) or f"https://remoteok.com/remote-jobs/{job_id}"
    prose = html_to_text(job["description"]) if isinstance(job.get("description"), str) else ""
    low, high = _salary(job.get("salary_min")), _salary(job.get("salary_max"))
    return NormalizedPosting(
        external_id=job_id,
        title=title,
        company=text_field(job.get("company"), 200) or board.company,
        location=text_field(job.get("location")),
        remote=True,
        url=page,
        description=description(f"{prose}\n\nVia Remote OK: {page}"),
        salary_min=low,
        salary_max=high,
        salary_currency="USD" if low or high else None,
        posted_at=iso_time(job.get("date")),
    )


def parse(payload: bytes | str | Any, board: Board) -> Postings:
    data = load_json(payload)
    if not isinstance(data, list):
        raise SourceError("not a Remote OK listing: expected a JSON array")
    return guarded(data, lambda job: _posting(job, board))


SOURCE = Source("remoteok", default_url, parse, match_url, aggregator=True)
