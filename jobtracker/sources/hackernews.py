"""Hacker News "Ask HN: Who is hiring?", read through the public Algolia HN API.

`GET https://hn.algolia.com/api/v1/search_by_date?tags=story,author_whoishiring`
lists the whoishiring account's threads, newest first (it also posts "Who wants to
be hired?" and "Freelancer?"): the newest whose title says "who is hiring" is read
with `GET .../api/v1/items/{id}`. Each top-level comment is one posting; its first
line is usually `Company | Role | Location | ...`. Deleted and dead comments (no
author or no text) are skipped. Under a `url` override, `items/{id}` is read from
beside the search address.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from jobtracker.config import Board
from jobtracker.sources.base import (
    Known,
    NormalizedPosting,
    Plan,
    Postings,
    Request,
    Source,
    SourceError,
    description,
    guarded,
    identifier,
    iso_time,
    load_json,
    mapping,
    object_list,
    segment,
    text_field,
)
from jobtracker.text import html_to_text

SEARCH = "https://hn.algolia.com/api/v1/search_by_date?tags=story,author_whoishiring"


def default_url(_token: str) -> str:
    return SEARCH


def match_url(_url: str) -> tuple[str, str] | None:
    return None          # comments are not job pages a feed would link to


def items_url(search_url: str, story_id: str) -> str:
    """`.../api/v1/items/{id}` beside `.../api/v1/search_by_date`."""
    parts = urlsplit(search_url)
    folder = parts.path.rsplit("/", 1)[0]
    return urlunsplit(parts._replace(path=f"{folder}/items/{segment(story_id)}", query="",
                                     fragment=""))


def latest_thread(payload: bytes | str | Any) -> str:
    """The id of the newest "Who is hiring?" story in a search answer."""
    for hit in object_list(load_json(payload), "hits", "an HN search"):
        hit = mapping(hit)
        if "who is hiring" in str(hit.get("title") or "").lower():
            story = identifier(hit.get("objectID") or hit.get("story_id"))
            if story.isascii() and story.isdigit():   # HN ids are numbers; nothing else
                return story
    raise SourceError("no \"Who is hiring?\" thread in the search answer")


def _posting(comment: dict[str, Any], board: Board) -> NormalizedPosting | None:
    comment_id, text = identifier(comment.get("id")), comment.get("text")
    if (not comment_id or not isinstance(text, str) or not comment.get("author")
            or comment.get("dead") or comment.get("deleted")):
        return None
    prose = html_to_text(text)
    first = prose.strip().split("\n", 1)[0]
    parts = [part.strip() for part in first.split("|")]
    company, title, location = "", first, ""
    if len(parts) >= 2:
        company, title = parts[0], parts[1]
        location = parts[2] if len(parts) >= 3 else ""
    title = text_field(title)
    if not title:
        return None
    return NormalizedPosting(
        external_id=comment_id,
        title=title,
        company=text_field(company, 200) or board.company,
        location=text_field(location),
        remote=True if "remote" in first.lower() else None,
        url=f"https://news.ycombinator.com/item?id={quote(comment_id, safe='')}",
        description=description(prose),
        description_source="ats",
        posted_at=iso_time(comment.get("created_at")),
    )


def parse(payload: bytes | str | Any, board: Board) -> Postings:
    """The postings of one thread (`items/{id}`): its top-level comments."""
    return guarded(object_list(load_json(payload), "children", "an HN thread"),
                   lambda comment: _posting(comment, board))


def plan(board: Board, url: str, _known: Known) -> Plan:
    story = latest_thread((yield Request(url)).body)
    return parse((yield Request(items_url(url, story))).body, board)


SOURCE = Source("hackernews", default_url, parse, match_url, plan, aggregator=True)
