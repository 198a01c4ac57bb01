"""Remotive's public API.

`GET https://remotive.com/api/remote-jobs` answers `{"0-legal-notice", "job-count",
"jobs": [...]}`; each job has `id`, `url` (its Remotive page), `title`,
`company_name`, `category`, `job_type`, `publication_date` (no offset),
`candidate_required_location`, `salary` (free text, not a number: not stored as
one) and `description` (HTML). Every job is remote.
"""

from __future__ import annotations

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
    load_json,
    object_list,
    text_field,
)
from jobtracker.text import html_to_text


def default_url(_token: str) -> str:
    return "https://remotive.com/api/remote-jobs"


def match_url(_url: str) -> tuple[str, str] | None:
    return None


def _posting(job: dict[str, Any], board: Board) -> NormalizedPosting | None:
    job_id, title = identifier(job.get("id")), text_field(job.get("title"))
    if not job_id or not title:
        return None
    prose = job.get("description")
    return NormalizedPosting(
        external_id=job_id,
        title=title,
        company=text_field(job.get("company_name"), 200) or board.company,
        location=text_field(job.get("candidate_required_location")),
        remote=True,
        url=text_field(job.get("url"), 2000),
        department=text_field(job.get("category")),
        description=description(html_to_text(prose)) if isinstance(prose, str) else None,
        posted_at=iso_time(job.get("publication_date")),
    )


def parse(payload: bytes | str | Any, board: Board) -> Postings:
    return guarded(object_list(load_json(payload), "jobs", "a Remotive"),
                   lambda job: _posting(job, board))


SOURCE = Source("remotive", default_url, parse, match_url, aggregator=True)
