"""Recruitee's public offers API.

`GET https://{slug}.recruitee.com/api/offers/` answers `{"offers": [...]}` in one
response, descriptions included: `id`, `title`, `careers_url`, `city`, `country`,
`remote`, `location`, `department`, `created_at`, `description` and
`requirements` (HTML). Times are written `2026-09-01 10:00:00 UTC`.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

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
    page,
    text_field,
)
from jobtracker.text import html_to_text


def default_url(token: str) -> str:
    return f"https://{quote(token, safe='')}.recruitee.com/api/offers/"


def match_url(url: str) -> tuple[str, str] | None:
    """Job pages are `{slug}.recruitee.com/o/{offer-slug}`: no id to link a feed item to."""
    return None


def _location(job: dict[str, Any]) -> str:
    location = text_field(job.get("location"))
    if location:
        return location
    parts = [text_field(job.get(key)) for key in ("city", "country")]
    return ", ".join(part for part in parts if part)


def _posting(job: dict[str, Any], board: Board) -> NormalizedPosting | None:
    job_id, title = identifier(job.get("id")), text_field(job.get("title"))
    if not job_id or not title:
        return None
    parts = [job[key] for key in ("description", "requirements") if isinstance(job.get(key), str)]
    return NormalizedPosting(
        external_id=job_id,
        title=title,
        company=board.company,
        location=_location(job),
        remote=job["remote"] if isinstance(job.get("remote"), bool) else None,
        url=text_field(job.get("careers_url"), 2000),
        department=text_field(job.get("department")),
        description=description(html_to_text("".join(parts))) if parts else None,
        posted_at=iso_time(job.get("published_at") or job.get("created_at")),
    )


def parse(payload: bytes | str | Any, board: Board) -> Postings:
    return guarded(object_list(load_json(payload), "offers", "a Recruitee"),
                   lambda job: _posting(job, board))


SOURCE = Source("recruitee", default_url, parse, match_url,
                pages=(page("TOKEN.recruitee.com", r"([\w-]+)\.recruitee\.com(?:[/?#]|$)"),))
