"""Workable's public widget API: pages by token, descriptions for new or changed jobs only."""

from __future__ import annotations

from collections.abc import Callable

from servers.shapes import (
    NOT_FOUND,
    ok,
    run_source,
    workable_detail,
    workable_job,
    workable_page,
)

from jobtracker.config import Board
from jobtracker.sources import (
    identify,
    workable,
)
from jobtracker.sources.base import Request, Response

WORKABLE = Board("workable", "acme", "Acme")


def workable_server(pages: dict[str | None, dict], details: dict[str, dict]) -> Callable:
    def respond(request: Request) -> Response:
        if request.method == "POST":
            assert request.url == "https://apply.workable.com/api/v3/accounts/acme/jobs"
            return ok(pages[(request.json or {}).get("token")])
        code = request.url.rsplit("/", 1)[-1]
        assert request.url.startswith("https://apply.workable.com/api/v2/accounts/acme/jobs/")
        return ok(details[code]) if code in details else NOT_FOUND
    return respond


def test_workable_pages_by_token_and_reads_each_description() -> None:
    pages = {None: workable_page([workable_job("AAA111", "Backend Engineer",
                                               department=("Engineering", "Platform"))],
                                 next_page="p2", total=2),
             "p2": workable_page([workable_job("BBB222", "Designer", remote=True,
                                               workplace="remote")], total=2)}
    details = {"AAA111": workable_detail("AAA111", "Backend Engineer"),
               "BBB222": workable_detail("BBB222", "Designer")}
    postings, asked = run_source("workable", WORKABLE, workable_server(pages, details))
    assert [r.json for r in asked if r.method == "POST"] == [{}, {"token": "p2"}]
    first, second = postings
    assert first.external_id == "AAA111"
    assert first.url == "https://apply.workable.com/acme/j/AAA111/"
    assert first.location == "Berlin, Berlin, Germany"
    assert first.department == "Engineering / Platform"
    assert first.remote is False and second.remote is True
    assert first.description == "Build.\n\n- Go\n\nLunch."
    assert first.posted_at == "2026-09-01T00:00:00Z"


def test_workable_fetches_descriptions_only_for_new_or_changed_jobs() -> None:
    pages = {None: workable_page([
        workable_job("AAA111", "Same"), workable_job("BBB222", "Changed",
                                                     published="2026-10-01T00:00:00Z"),
        workable_job("CCC333", "New")])}
    details = {code: workable_detail(code, "x") for code in ("AAA111", "BBB222", "CCC333")}
    known = {"AAA111": "2026-09-01T00:00:00Z", "BBB222": "2026-09-01T00:00:00Z"}
    postings, asked = run_source("workable", WORKABLE, workable_server(pages, details), known)
    assert sorted(r.url.rsplit("/", 1)[-1] for r in asked if r.method == "GET") == \
        ["BBB222", "CCC333"]
    assert postings[0].description is None            # kept from the database later
    assert postings[2].description is not None


def test_workable_a_failed_description_leaves_the_job_without_one() -> None:
    pages = {None: workable_page([workable_job("AAA111", "Engineer")])}
    [posting], _ = run_source("workable", WORKABLE, workable_server(pages, {}))
    assert posting.title == "Engineer" and posting.description is None


def test_workable_paging_for_ever_is_stopped_by_the_page_cap() -> None:
    def respond(request: Request) -> Response:
        if request.method == "POST":
            token = (request.json or {}).get("token") or "0"
            return ok(workable_page([workable_job(f"J{token}", "Job")],
                                    next_page=str(int(token) + 1)))
        return NOT_FOUND
    postings, asked = run_source("workable", WORKABLE, respond)
    assert sum(r.method == "POST" for r in asked) == workable.MAX_PAGES
    assert len(postings) == workable.MAX_PAGES


def test_workable_url_override_serves_list_and_details_from_it() -> None:
    board = Board("workable", "acme", "Acme", "http://127.0.0.1:9/wk/acme/jobs")
    assert workable.detail_url(board, board.url, "AAA111") == \
        "http://127.0.0.1:9/wk/acme/jobs/AAA111"
    assert identify("https://apply.workable.com/acme/j/AAA111/") == \
        ("workable", "acme", "AAA111")
