"""What every source module produces, and the small helpers they share.

A source module is pure: it turns one response body into `NormalizedPosting`s.
It does no HTTP (jobtracker/fetch.py does), opens no connection and reads no clock.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from jobtracker.text import clean_text, one_line

# Longer descriptions are cut: nothing a model or a person reads needs more, and one
# pasted blob must not bloat the database or the TUI.
MAX_DESCRIPTION_CHARS = 100_000
TRUNCATED_MARK = "\n\n[description truncated]"


class SourceError(Exception):
    """A response that is not the shape its source promises (or says "not found")."""


@dataclass(frozen=True)
class NormalizedPosting:
    """One job as a source read it, cleaned, in the units of the `postings` table."""

    external_id: str
    title: str
    company: str = ""
    location: str = ""
    remote: bool | None = None
    url: str = ""
    department: str = ""
    description: str | None = None
    description_source: str = "ats"       # 'ats' (the full prose) or 'feed' (a blurb)
    salary_min: float | None = None
    salary_max: float | None = None
    salary_currency: str | None = None
    posted_at: str | None = None          # ISO 8601, UTC when the source gave an offset
    updated_at: str | None = None


@dataclass(frozen=True)
class Source:
    """A job-board API: its public address and its parser.

    `match_url` recognises one of this ATS's public job pages (as a feed item links
    to) and returns `(token, external_id)`, so a feed's blurb and the ATS's posting
    are stored as one row.
    """

    name: str
    default_url: Callable[[str], str]
    parse: Callable[..., list[NormalizedPosting]]
    match_url: Callable[[str], tuple[str, str] | None]


def load_json(payload: bytes | str | Any) -> Any:
    """A response body as JSON; an already-decoded object passes through."""
    if isinstance(payload, bytes | bytearray | str):
        try:
            return json.loads(payload)
        except (ValueError, UnicodeDecodeError) as exc:
            raise SourceError(f"malformed JSON: {exc}") from None
    return payload


def jobs_list(payload: bytes | str | Any, board_kind: str) -> list[dict[str, Any]]:
    """The job objects of a board answering `{"jobs": [...]}` (Greenhouse, Ashby)."""
    data = load_json(payload)
    if not isinstance(data, dict) or not isinstance(data.get("jobs"), list):
        raise SourceError(f"not {board_kind} job board: expected an object with a 'jobs' list")
    return [job for job in data["jobs"] if isinstance(job, dict)]


def text_field(value: Any, limit: int = 300) -> str:
    """A short single-line field (title, location) from whatever the API sent."""
    if value is None or isinstance(value, dict | list):
        return ""
    return one_line(str(value), limit)


def description(text: str | None) -> str | None:
    """Cleaned, length-bounded description text; None when there is none."""
    cleaned = clean_text(text).strip()
    if not cleaned:
        return None
    if len(cleaned) > MAX_DESCRIPTION_CHARS:
        cleaned = cleaned[:MAX_DESCRIPTION_CHARS].rstrip() + TRUNCATED_MARK
    return cleaned


def iso_time(value: Any) -> str | None:
    """ISO 8601 text or epoch milliseconds → ISO 8601 in UTC ('Z'); None if unreadable."""
    if value is None or isinstance(value, bool):
        return None
    try:
        if isinstance(value, int | float):
            moment = datetime.fromtimestamp(value / 1000, UTC)
        else:
            text = str(value).strip()
            moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
            if moment.tzinfo is None:
                return moment.isoformat()
            moment = moment.astimezone(UTC)
    except (ValueError, OverflowError, OSError):
        return None
    return moment.isoformat().replace("+00:00", "Z")


def number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)
