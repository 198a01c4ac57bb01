"""Personio's public job XML.

`GET https://{slug}.jobs.personio.de/xml?language=en` answers `<workzag-jobs>` with
one `<position>` per job: `id`, `office` (and `additionalOffices/office`),
`department`, `name` (the title), `employmentType`, `seniority`, `schedule`,
`createdAt` and `jobDescriptions/jobDescription` (`name` + HTML `value`, in CDATA).
The XML is read by `safexml.parse_xml`: any DTD is refused. The job page is
`https://{slug}.jobs.personio.de/job/{id}`.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any
from urllib.parse import quote, urlsplit

from jobtracker.config import Board
from jobtracker.hosts import ascii_host, host_is
from jobtracker.sources.base import (
    NormalizedPosting,
    Postings,
    Source,
    SourceError,
    description,
    guarded,
    identifier,
    iso_time,
    page,
    text_field,
)
from jobtracker.sources.safexml import parse_xml
from jobtracker.text import html_to_text

_JOB_PAGE = re.compile(r"^https?://([a-z0-9-]+)\.jobs\.personio\.(?:de|com)/job/(\d+)", re.I)


def default_url(token: str) -> str:
    return f"https://{quote(token, safe='')}.jobs.personio.de/xml?language=en"


def match_url(url: str) -> tuple[str, str] | None:
    """`{slug}.jobs.personio.de/job/{id}` → (slug, id)."""
    found = _JOB_PAGE.match(url)
    return (found.group(1).lower(), found.group(2)) if found else None


def _text(element: ET.Element, name: str) -> str:
    child = element.find(name)
    return "".join(child.itertext()).strip() if child is not None else ""


def _prose(position: ET.Element) -> str | None:
    parts = []
    for section in position.findall("jobDescriptions/jobDescription"):
        heading, value = _text(section, "name"), _text(section, "value")
        if heading:
            parts.append(f"<h3>{heading}</h3>")
        parts.append(value)
    return html_to_text("".join(parts)) if parts else None


def _location(position: ET.Element) -> str:
    offices = [_text(position, "office")]
    offices += ["".join(office.itertext()).strip()
                for office in position.findall("additionalOffices/office")]
    return ", ".join(dict.fromkeys(text_field(office) for office in offices if office.strip()))


def _page(board: Board, job_id: str) -> str:
    host = urlsplit(board.url).hostname if board.url else None
    if not host or not any(host_is(host, domain) and ascii_host(host) != domain
                           for domain in ("jobs.personio.de", "jobs.personio.com")):
        host = f"{board.token}.jobs.personio.de"
    return f"https://{host}/job/{quote(job_id, safe='')}"


def _posting(position: ET.Element, board: Board) -> NormalizedPosting | None:
    job_id, title = identifier(_text(position, "id")), text_field(_text(position, "name"))
    if not job_id or not title:
        return None
    location = _location(position)
    return NormalizedPosting(
        external_id=job_id,
        title=title,
        company=board.company,
        location=location,
        remote=True if "remote" in location.lower() else None,
        url=_page(board, job_id),
        department=text_field(_text(position, "department")),
        description=description(_prose(position)),
        posted_at=iso_time(_text(position, "createdAt") or None),
    )


def parse(payload: bytes | str | Any, board: Board) -> Postings:
    if not isinstance(payload, bytes | bytearray | str):
        raise SourceError("not a Personio job list: expected XML")
    root = parse_xml(payload)
    if root.tag != "workzag-jobs":
        raise SourceError(f"not a Personio job list: the document is <{root.tag}>")
    return guarded(root.findall("position"), lambda position: _posting(position, board))


SOURCE = Source("personio", default_url, parse, match_url, pages=(
    page("TOKEN.jobs.personio.de", r"([\w-]+)\.jobs\.personio\.de(?:[/?#]|$)"),
    page("TOKEN.jobs.personio.com", r"([\w-]+)\.jobs\.personio\.com(?:[/?#]|$)"),
))
