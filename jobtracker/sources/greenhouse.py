"""Greenhouse's public job-board API.

`GET https://boards-api.greenhouse.io/v1/boards/{token}/jobs?content=true` answers
`{"jobs": [...], "meta": {...}}`. Each job's `content` is HTML that is itself
entity-escaped (`&lt;p&gt;`), so it is unescaped once before it is read as HTML.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

from jobtracker.config import Board
from jobtracker.sources.base import (
    NormalizedPosting,
    Postings,
    Source,
    description,
    guarded,
    host_is,
    identifier,
    iso_time,
    jobs_list,
    number,
    page,
    segment,
    text_field,
)
from jobtracker.text import html_to_text, one_line

_JOB_PAGE = re.compile(
    r"^https?://(?:boards|job-boards)(?:\.eu)?\.greenhouse\.io/([^/?#]+)/jobs/(\d+)", re.I)


def default_url(token: str) -> str:
    return f"https://boards-api.greenhouse.io/v1/boards/{segment(token)}/jobs?content=true"


def match_url(url: str) -> tuple[str, str] | None:
    """`boards.greenhouse.io/{token}/jobs/{id}` (and the embed form) → (token, id)."""
    found = _JOB_PAGE.match(url)
    if found:
        return found.group(1), found.group(2)
    parts = urlsplit(url)
    if host_is(url, "greenhouse.io") and "embed" in parts.path:
        query = parse_qs(parts.query)
        token, job = query.get("for", [""])[0], query.get("token", [""])[0]
        if token and job.isascii() and job.isdigit():
            return token, job
    return None


def unescape_content(content: str) -> str:
    """Undo Greenhouse's one level of escaping; `&amp;` last, so `&amp;lt;` stays `&lt;`.

    Greenhouse escapes exactly these five; any other entity is the HTML's own and is
    decoded later with the text. Far cheaper than `html.unescape`, whose per-entity
    callback dominated a fetch's CPU time (a description holds hundreds of tags).
    """
    return (content.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
            .replace("&#39;", "'").replace("&#x27;", "'").replace("&amp;", "&"))


def _names(items: Any) -> list[str]:
    if not isinstance(items, list):
        return []
    return [name for item in items if isinstance(item, dict)
            if (name := text_field(item.get("name")))]


def _location(job: dict[str, Any]) -> str:
    location = job.get("location")
    name = text_field(location.get("name")) if isinstance(location, dict) else ""
    return name or ", ".join(_names(job.get("offices")))


_HOURLY = ("hour", "hourly", "/hr", "per hr")


def _salary(job: dict[str, Any]) -> tuple[float | None, float | None, str | None]:
    """The first yearly range of `pay_input_ranges` (a job's answer with
    `?pay_transparency=true`): amounts in cents, `currency_type` the currency. A range
    titled hourly, or too small to be a year's pay, is not a salary."""
    ranges = job.get("pay_input_ranges")
    if not isinstance(ranges, list):
        return None, None, None
    for item in ranges[:20]:
        if not isinstance(item, dict):
            continue
        title = str(item.get("title") or "").lower()
        if any(word in title for word in _HOURLY):
            continue
        low, high = number(item.get("min_cents")), number(item.get("max_cents"))
        if low is None and high is None:
            continue
        low = low / 100 if low is not None else None
        high = high / 100 if high is not None else None
        if (high or low or 0) < 1000 or (low is not None and high is not None and low > high):
            continue
        currency = item.get("currency_type")
        return (low, high, one_line(str(currency), 8).upper() if isinstance(currency, str)
                and currency.strip() else None)
    return None, None, None


def _posting(job: dict[str, Any], board: Board) -> NormalizedPosting | None:
    job_id, title = identifier(job.get("id")), text_field(job.get("title"))
    if not job_id or not title:
        return None
    location = _location(job)
    content = job.get("content")
    prose = html_to_text(unescape_content(content)) if isinstance(content, str) else None
    salary_min, salary_max, currency = _salary(job)
    return NormalizedPosting(
        external_id=job_id,
        title=title,
        company=board.company,
        location=location,
        # Greenhouse has no remote flag; a location that says so is the board saying so.
        remote=True if "remote" in location.lower() else None,
        url=text_field(job.get("absolute_url"), 2000),
        department=", ".join(_names(job.get("departments"))),
        description=description(prose),
        salary_min=salary_min,
        salary_max=salary_max,
        salary_currency=currency,
        posted_at=iso_time(job.get("first_published")),
        updated_at=iso_time(job.get("updated_at")),
    )


def parse(payload: bytes | str | Any, board: Board) -> Postings:
    return guarded(jobs_list(payload, "a Greenhouse"), lambda job: _posting(job, board))


# One page per host, so the list `jobtracker add` prints names every form it accepts.
SOURCE = Source("greenhouse", default_url, parse, match_url, pages=tuple(
    page(f"{host}/TOKEN", re.escape(host) + r"/(?!embed\b)([\w.-]+)")
    for host in ("boards.greenhouse.io", "boards.eu.greenhouse.io", "job-boards.greenhouse.io",
                 "job-boards.eu.greenhouse.io")))
