"""Hacker News' Who is hiring thread, through the public Algolia API."""

from __future__ import annotations

import pytest
from servers.shapes import (
    hn_comment,
    hn_search,
    hn_thread,
    ok,
    run_source,
)

from jobtracker.config import Board
from jobtracker.sources import (
    SourceError,
)
from jobtracker.sources.base import Request, Response

HN = Board("hackernews", "whoishiring", "Hacker News")


def test_hackernews_reads_the_latest_hiring_thread_and_its_top_comments() -> None:
    search = hn_search((3, "Ask HN: Who wants to be hired? (November 2026)"),
                       (2, "Ask HN: Who is hiring? (November 2026)"),
                       (1, "Ask HN: Who is hiring? (October 2026)"))
    thread = hn_thread(2, [
        hn_comment(21, "Acme | Senior Rust Engineer | Berlin or REMOTE | $150k<p>We build."),
        hn_comment(22, None, author=None),                     # deleted
        {**hn_comment(23, "Dead | Role"), "dead": True},
        hn_comment(24, "We are hiring everyone, write to me"),
    ])

    def respond(request: Request) -> Response:
        if "search_by_date" in request.url:
            return ok(search)
        assert request.url == "https://hn.algolia.com/api/v1/items/2"
        return ok(thread)
    postings, _ = run_source("hackernews", HN, respond)
    first, second = postings
    assert (first.company, first.title, first.location) == \
        ("Acme", "Senior Rust Engineer", "Berlin or REMOTE")
    assert first.remote is True
    assert first.url == "https://news.ycombinator.com/item?id=21"
    assert first.description.endswith("We build.")
    assert (second.title, second.company) == ("We are hiring everyone, write to me",
                                               "Hacker News")


def test_hackernews_without_a_hiring_thread_is_a_clear_error() -> None:
    with pytest.raises(SourceError, match="Who is hiring"):
        run_source("hackernews", HN, lambda _r: ok(hn_search((3, "Ask HN: Freelancer?"))))
