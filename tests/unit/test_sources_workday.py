"""Workday's candidate-experience job search: pages past the first total, details for
new jobs only, its page cap, tokens and job pages."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from servers.shapes import (
    NOT_FOUND,
    ok,
    run_source,
    workday_detail,
    workday_job,
    workday_page,
)

from jobtracker.config import Board
from jobtracker.sources import (
    identify,
    workday,
)
from jobtracker.sources.base import Request, Response

WORKDAY = Board("workday", "acme.wd5/External", "Acme")


WD_URL = "https://acme.wd5.myworkdayjobs.com/wday/cxs/acme/External/jobs"


def workday_server(jobs: list[dict], *, later_total: int = 0) -> Callable:
    def respond(request: Request) -> Response:
        if request.method == "POST":
            assert request.url == WD_URL
            offset = request.json["offset"]
            assert request.json["limit"] == 20 and request.json["appliedFacets"] == {}
            total = len(jobs) if offset == 0 else later_total     # right on page 1 only
            return ok(workday_page(jobs[offset:offset + 20], total))
        path = request.url.removeprefix(WD_URL[:-len("/jobs")])
        req = path.rsplit("_", 1)[-1]
        return ok(workday_detail(req, "x", description_html=f"<p>About {req}.</p>"))
    return respond


def test_workday_pages_past_the_first_total_and_reads_details() -> None:
    jobs = [workday_job(f"R{i}", f"Engineer {i}") for i in range(45)]
    postings, asked = run_source("workday", WORKDAY, workday_server(jobs))
    assert [r.json["offset"] for r in asked if r.method == "POST"] == [0, 20, 40]
    assert len(postings) == 45
    first = postings[0]
    assert first.external_id == "Engineer-0_R0"
    assert first.url == "https://acme.wd5.myworkdayjobs.com/External/job/Berlin/Engineer-0_R0"
    assert first.description == "About R0."
    assert first.posted_at == "2026-09-01T00:00:00Z"      # a date without a zone is UTC
    assert asked[3].url == WD_URL[:-len("/jobs")] + "/job/Berlin/Engineer-0_R0"


def test_workday_described_jobs_are_not_fetched_again() -> None:
    jobs = [workday_job("R1", "A"), workday_job("R2", "B")]
    _, asked = run_source("workday", WORKDAY, workday_server(jobs), known={"A_R1": "2026-09-01"})
    assert [r.url.rsplit("/", 1)[-1] for r in asked if r.method == "GET"] == ["B_R2"]


def test_workday_page_cap_stops_a_search_that_never_ends() -> None:
    def respond(request: Request) -> Response:
        offset = request.json["offset"] if request.json else 0
        if request.method == "POST":
            return ok(workday_page([workday_job(f"R{offset + i}", "Job") for i in range(20)],
                                   10**9))
        return NOT_FOUND
    postings, asked = run_source("workday", WORKDAY, respond)
    assert sum(r.method == "POST" for r in asked) == workday.MAX_PAGES
    assert len(postings) == 20 * workday.MAX_PAGES


@pytest.mark.parametrize(("token", "url"), [
    ("acme.wd5/External", WD_URL),
    ("Acme-Corp.wd12/Careers_Site", "https://Acme-Corp.wd12.myworkdayjobs.com/wday/cxs/"
                                   "Acme-Corp/Careers_Site/jobs"),
    ("acme", ""), ("acme.wd5", ""), ("acme.wd5/a/b", ""),
])
def test_workday_tokens(token: str, url: str) -> None:
    assert workday.default_url(token) == url


def test_workday_job_pages_are_identified() -> None:
    assert identify("https://acme.wd5.myworkdayjobs.com/en-US/External/job/Berlin/"
                    "Engineer_R1?source=x") == ("workday", "acme.wd5/External", "Engineer_R1")
    assert workday.board_of("https://acme.wd5.myworkdayjobs.com/External") == \
        "acme.wd5/External"
