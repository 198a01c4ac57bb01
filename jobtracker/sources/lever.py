"""Lever's public postings API.

`GET https://api.lever.co/v0/postings/{token}?mode=json` answers a JSON array of
postings (EU boards live at `api.eu.lever.co`: set the board's `url`). An unknown
site answers `{"ok": false, "error": "Document not found"}`. `createdAt` is epoch
milliseconds; there is no updated time.
"""

from __future__ import annotations

import html
import re
from typing import Any

from jobtracker.config import Board
from jobtracker.sources.base import (
    BoardRef,
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
    page,
    segment,
    text_field,
)
from jobtracker.text import html_to_text, one_line

_JOB_PAGE = re.compile(
    r"^https?://jobs(?:\.eu)?\.lever\.co/([^/?#]+)/([0-9a-f-]{36})", re.I)

# `workplaceType` as Lever spells it (both `onsite` and `on-site` are seen).
_REMOTE = {"remote": True, "onsite": False, "on-site": False, "hybrid": False}


def default_url(token: str) -> str:
    return f"https://api.lever.co/v0/postings/{segment(token)}?mode=json"


def match_url(url: str) -> tuple[str, str] | None:
    """`jobs.lever.co/{token}/{uuid}` → (token, uuid)."""
    found = _JOB_PAGE.match(url)
    return (found.group(1), found.group(2).lower()) if found else None


def _prose(posting: dict[str, Any]) -> str | None:
    """The description, each list under its heading, then the closing section."""
    parts: list[str] = []
    if isinstance(posting.get("description"), str) and posting["description"].strip():
        parts.append(posting["description"])
    elif isinstance(posting.get("descriptionPlain"), str):
        parts.append(f"<pre>{html.escape(posting['descriptionPlain'])}</pre>")
    lists = posting.get("lists")
    for item in lists if isinstance(lists, list) else []:
        if not isinstance(item, dict):
            continue
        heading = item.get("text")
        if isinstance(heading, str) and heading.strip():
            parts.append(f"<h3>{html.escape(heading)}</h3>")
        if isinstance(item.get("content"), str):
            parts.append(f"<ul>{item['content']}</ul>")
    if isinstance(posting.get("additional"), str):
        parts.append(posting["additional"])
    return html_to_text("".join(parts)) if parts else None


def _salary(posting: dict[str, Any]) -> tuple[float | None, float | None, str | None]:
    salary = posting.get("salaryRange")
    if not isinstance(salary, dict):
        return None, None, None
    # An hourly or monthly range is not comparable with yearly ones: keep only yearly.
    interval = str(salary.get("interval") or "year")
    if "year" not in interval and "annual" not in interval:
        return None, None, None
    currency = one_line(str(salary["currency"]), 8) if salary.get("currency") else None
    return number(salary.get("min")), number(salary.get("max")), currency


def _posting(posting: dict[str, Any], board: Board) -> NormalizedPosting | None:
    job_id, title = identifier(posting.get("id")), text_field(posting.get("text"))
    if not job_id or not title:
        return None
    categories = posting.get("categories")
    categories = categories if isinstance(categories, dict) else {}
    teams = [text_field(categories.get(key)) for key in ("department", "team")]
    salary_min, salary_max, currency = _salary(posting)
    return NormalizedPosting(
        external_id=job_id.lower(),
        title=title,
        company=board.company,
        location=text_field(categories.get("location")),
        remote=_REMOTE.get(str(posting.get("workplaceType") or "").lower()),
        url=text_field(posting.get("hostedUrl"), 2000),
        department=" / ".join(dict.fromkeys(team for team in teams if team)),
        description=description(_prose(posting)),
        salary_min=salary_min,
        salary_max=salary_max,
        salary_currency=currency,
        posted_at=iso_time(posting.get("createdAt")),
    )


def parse(payload: bytes | str | Any, board: Board) -> Postings:
    data = load_json(payload)
    if isinstance(data, dict) and data.get("ok") is False:
        reason = text_field(data.get("error")) or "no reason given"
        raise SourceError(f"Lever says the board does not exist: {reason}")
    if not isinstance(data, list):
        raise SourceError("not a Lever postings list: expected a JSON array")
    return guarded(data, lambda item: _posting(item, board))


def _board_of(found: re.Match[str], url: str) -> BoardRef:
    """A board on Lever's EU instance is read from its own API address."""
    token = found.group(1)
    if ".eu.lever.co" in url.lower():
        return BoardRef(token, f"https://api.eu.lever.co/v0/postings/{segment(token)}?mode=json")
    return BoardRef(token)


SOURCE = Source("lever", default_url, parse, match_url,
                pages=(page("jobs.lever.co/TOKEN", r"jobs\.lever\.co/([\w.-]+)"),
                       page("jobs.eu.lever.co/TOKEN", r"jobs\.eu\.lever\.co/([\w.-]+)")),
                board_of=_board_of)
