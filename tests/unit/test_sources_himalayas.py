"""Himalayas' public jobs API: pages, salary, epoch seconds, its page cap."""

from __future__ import annotations

from servers.shapes import (
    himalayas_job,
    himalayas_page,
    ok,
    run_source,
)

from jobtracker.config import Board
from jobtracker.sources import (
    himalayas,
)
from jobtracker.sources.base import Request, Response


def test_himalayas_pages_keeps_salary_and_reads_epoch_seconds() -> None:
    everything = [himalayas_job(f"job-{i}", f"Engineer {i}") for i in range(30)]

    def respond(request: Request) -> Response:
        offset = int(request.url.rsplit("offset=", 1)[1])
        return ok(himalayas_page(everything[offset:offset + 20], offset, 30))
    postings, asked = run_source("himalayas", Board("himalayas", "all", "x"), respond)
    assert [r.url for r in asked] == ["https://himalayas.app/jobs/api?limit=20&offset=0",
                                      "https://himalayas.app/jobs/api?limit=20&offset=20"]
    assert len(postings) == 30
    first = postings[0]
    assert (first.salary_min, first.salary_max, first.salary_currency) == \
        (90000.0, 120000.0, "USD")
    assert first.posted_at == "2026-09-01T10:00:00Z"          # 1788256800 s, not ms
    assert first.location == "Germany, France"
    assert first.url == first.external_id == "https://himalayas.app/companies/acme/jobs/job-0"


def test_himalayas_page_cap() -> None:
    def respond(request: Request) -> Response:
        offset = int(request.url.rsplit("offset=", 1)[1])
        return ok(himalayas_page([himalayas_job(f"j{offset + i}", "E") for i in range(20)],
                                 offset, 10**9))
    postings, asked = run_source("himalayas", Board("himalayas", "all", "x"), respond)
    assert len(asked) == himalayas.MAX_PAGES and len(postings) == 20 * himalayas.MAX_PAGES
