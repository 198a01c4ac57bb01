"""SmartRecruiters' public postings API: pages by offset, remote and job pages."""

from __future__ import annotations

import json

from servers.shapes import (
    ok,
    run_source,
    smartrecruiters_detail,
    smartrecruiters_page,
    smartrecruiters_posting,
)

from jobtracker.config import Board
from jobtracker.sources import (
    REGISTRY,
    identify,
    smartrecruiters,
)
from jobtracker.sources.base import Request, Response

SR = Board("smartrecruiters", "acme", "Acme")


def test_smartrecruiters_pages_by_offset_until_total_found() -> None:
    everything = [smartrecruiters_posting(str(1000 + i), f"Engineer {i}") for i in range(150)]

    def respond(request: Request) -> Response:
        if "offset=" in request.url:
            offset = int(request.url.rsplit("offset=", 1)[1])
            assert "limit=100" in request.url
            return ok(smartrecruiters_page(everything[offset:offset + 100], offset, 150))
        posting_id = request.url.rsplit("/", 1)[-1]
        return ok(smartrecruiters_detail(posting_id, "x"))
    postings, asked = run_source("smartrecruiters", SR, respond)
    assert [r.url for r in asked[:2]] == [
        "https://api.smartrecruiters.com/v1/companies/acme/postings?limit=100&offset=0",
        "https://api.smartrecruiters.com/v1/companies/acme/postings?limit=100&offset=100"]
    assert len(postings) == 150
    assert sum(p.description is not None for p in postings) == smartrecruiters.MAX_DETAILS
    first = postings[0]
    assert first.url == "https://jobs.smartrecruiters.com/acme/1000"
    assert first.location == "Paris, IDF, fr" and first.department == "Engineering"
    assert first.description.startswith("Company Description\n\nWe are Acme.\n\nJob "
                                         "Description\n\nShip it.")


def test_smartrecruiters_remote_and_job_pages() -> None:
    page = smartrecruiters_page([smartrecruiters_posting("7", "SRE", remote=True)])
    [posting] = REGISTRY["smartrecruiters"].parse(json.dumps(page), SR)
    assert posting.remote is True
    assert identify("https://jobs.smartrecruiters.com/acme/743999-sre") == \
        ("smartrecruiters", "acme", "743999")
