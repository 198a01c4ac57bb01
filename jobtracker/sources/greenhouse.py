"""Greenhouse's public job-board API, and each job's application form.

`GET https://boards-api.greenhouse.io/v1/boards/{token}/jobs?content=true` answers
`{"jobs": [...], "meta": {...}}`. Each job's `content` is HTML that is itself
entity-escaped (`&lt;p&gt;`), so it is unescaped once before it is read as HTML.

Greenhouse publishes each job's form at the listing's address plus `/{id}` with
`?questions=true`: `questions`, `location_questions`, `compliance` (EEO sections,
each with its own questions) and `demographic_questions` (whose questions carry
`answer_options` instead of `fields`). `SOURCE.form` declares it (`parse_form`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit, urlunsplit

from jobtracker.config import Board
from jobtracker.sources.base import (
    FormReader,
    NormalizedPosting,
    Postings,
    Source,
    SourceError,
    description,
    guarded,
    host_is,
    identifier,
    iso_time,
    jobs_list,
    load_json,
    number,
    page,
    segment,
    text_field,
)
from jobtracker.text import html_to_text, one_line

if TYPE_CHECKING:
    from jobtracker.sources.forms import Field, Form

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


# --- the application form -------------------------------------------------------------

def form_url(listing_url: str, external_id: str) -> str:
    """The form of job `external_id` on the board listed at `listing_url`: the listing's
    path plus `/{id}`, query `questions=true` (so a mirror serves its own forms)."""
    parts = urlsplit(listing_url)
    path = f"{parts.path.rstrip('/')}/{segment(external_id)}"   # ValueError for `..`
    return urlunsplit((parts.scheme, parts.netloc, path, "questions=true", ""))


def _question_fields(question: Any, section: str) -> Iterable[Field]:
    """The fields of one question. A question with a file field offers its other fields
    (paste the text instead) as alternatives: only the file is kept."""
    from jobtracker.sources.forms import FILE_TYPE, HIDDEN_TYPE, Field, label, options
    from jobtracker.sources.forms import description as field_description

    if not isinstance(question, dict):
        return ()
    title, required = label(question.get("label")), question.get("required") is True
    about = field_description(question.get("description"))
    raw = question.get("fields")
    if not isinstance(raw, list):   # demographic questions: one select, `answer_options`
        kind = question.get("type")
        return (Field(title, f"demographic_{one_line(str(question.get('id', '')), 40)}",
                      kind if isinstance(kind, str) else "unknown", required,
                      options(question.get("answer_options")), section, about),)
    fields = [f for f in raw if isinstance(f, dict)]
    if any(f.get("type") == FILE_TYPE for f in fields):
        fields = [f for f in fields if f.get("type") == FILE_TYPE]
    return tuple(
        Field(title, label(f.get("name")), label(f.get("type")) or "unknown", required,
              options(f.get("values")), section, about)
        for f in fields if f.get("type") != HIDDEN_TYPE)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _sections(data: dict[str, Any]) -> Iterable[tuple[str, Any]]:
    for question in _list(data.get("questions")):
        yield "questions", question
    for question in _list(data.get("location_questions")):
        yield "location", question
    for part in _list(data.get("compliance")):
        if isinstance(part, dict):
            for question in _list(part.get("questions")):
                yield "compliance", question
    demographic = data.get("demographic_questions")
    if isinstance(demographic, dict):
        demographic = demographic.get("questions")
    for question in _list(demographic):
        yield "demographic", question


def parse_form(payload: bytes | str | Any) -> Form:
    """A Greenhouse job with `?questions=true` → its form, bounded."""
    from jobtracker.sources.forms import bounded

    data = load_json(payload)
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        raise SourceError("not a Greenhouse form: no `questions` list")
    return bounded("greenhouse", (field for section, question in _sections(data)
                                  for field in _question_fields(question, section)))


# One page per host, so the list `jobtracker add` prints names every form it accepts.
SOURCE = Source("greenhouse", default_url, parse, match_url, pages=tuple(
    page(f"{host}/TOKEN", re.escape(host) + r"/(?!embed\b)([\w.-]+)")
    for host in ("boards.greenhouse.io", "boards.eu.greenhouse.io", "job-boards.greenhouse.io",
                 "job-boards.eu.greenhouse.io")),
    form=FormReader(form_url, parse_form))
