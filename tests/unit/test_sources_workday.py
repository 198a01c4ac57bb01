"""The second wave of sources: each reads its public API's shape, one quirk a test."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from servers.shapes import (
    REMOTEOK_LEGAL,
    answer_plan,
    himalayas_job,
    himalayas_page,
    hn_comment,
    hn_search,
    hn_thread,
    personio_position,
    personio_xml,
    recruitee_offer,
    remoteok_job,
    remotive_board,
    remotive_job,
    smartrecruiters_detail,
    smartrecruiters_page,
    smartrecruiters_posting,
    workable_detail,
    workable_job,
    workable_page,
    workday_detail,
    workday_job,
    workday_page,
)

from jobtracker.config import Board
from jobtracker.sources import (
    REGISTRY,
    SourceError,
    himalayas,
    identify,
    smartrecruiters,
    workable,
    workday,
)
from jobtracker.sources.base import Request, Response


def ok(data: Any) -> Response:
    return Response(200, data if isinstance(data, bytes) else json.dumps(data).encode())


NOT_FOUND = Response(404, b"")


def run(ats: str, board: Board, respond: Callable[[Request], Response],
        known: dict[str, str] | None = None) -> tuple[list, list[Request]]:
    url = board.url or REGISTRY[ats].default_url(board.token)
    return answer_plan(REGISTRY[ats].start(board, url, known or {}), respond)


def test_the_registry_names_every_source() -> None:
    assert set(REGISTRY) == {"greenhouse", "lever", "ashby", "workable", "smartrecruiters",
                             "recruitee", "personio", "workday", "hackernews", "remoteok",
                             "remotive", "himalayas"}


# --- Workable -----------------------------------------------------------------------

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
    postings, asked = run("workable", WORKABLE, workable_server(pages, details))
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
    postings, asked = run("workable", WORKABLE, workable_server(pages, details), known)
    assert sorted(r.url.rsplit("/", 1)[-1] for r in asked if r.method == "GET") == \
        ["BBB222", "CCC333"]
    assert postings[0].description is None            # kept from the database later
    assert postings[2].description is not None


def test_workable_a_failed_description_leaves_the_job_without_one() -> None:
    pages = {None: workable_page([workable_job("AAA111", "Engineer")])}
    [posting], _ = run("workable", WORKABLE, workable_server(pages, {}))
    assert posting.title == "Engineer" and posting.description is None


def test_workable_paging_for_ever_is_stopped_by_the_page_cap() -> None:
    def respond(request: Request) -> Response:
        if request.method == "POST":
            token = (request.json or {}).get("token") or "0"
            return ok(workable_page([workable_job(f"J{token}", "Job")],
                                    next_page=str(int(token) + 1)))
        return NOT_FOUND
    postings, asked = run("workable", WORKABLE, respond)
    assert sum(r.method == "POST" for r in asked) == workable.MAX_PAGES
    assert len(postings) == workable.MAX_PAGES


def test_workable_url_override_serves_list_and_details_from_it() -> None:
    board = Board("workable", "acme", "Acme", "http://127.0.0.1:9/wk/acme/jobs")
    assert workable.detail_url(board, board.url, "AAA111") == \
        "http://127.0.0.1:9/wk/acme/jobs/AAA111"
    assert identify("https://apply.workable.com/acme/j/AAA111/") == \
        ("workable", "acme", "AAA111")


# --- SmartRecruiters ----------------------------------------------------------------

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
    postings, asked = run("smartrecruiters", SR, respond)
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


# --- Recruitee ----------------------------------------------------------------------

RECRUITEE = Board("recruitee", "acme", "Acme")


def test_recruitee_offers_and_its_utc_time_format() -> None:
    body = {"offers": [recruitee_offer(11, "Rails Engineer", remote=True),
                       recruitee_offer(12, "Ops", location="")]}
    first, second = REGISTRY["recruitee"].parse(json.dumps(body), RECRUITEE)
    assert first.external_id == "11" and first.remote is True
    assert first.posted_at == "2026-09-01T10:00:00Z"       # "2026-09-01 10:00:00 UTC"
    assert first.url == "https://acme.recruitee.com/o/job-11"
    assert first.description == "Our product.\n\n- Ruby"
    assert second.location == "Amsterdam, Netherlands"      # from city and country
    assert REGISTRY["recruitee"].default_url("acme") == "https://acme.recruitee.com/api/offers/"


# --- Personio -----------------------------------------------------------------------

PERSONIO = Board("personio", "acme", "Acme")


def test_personio_positions_with_offices_and_sections() -> None:
    xml = personio_xml([personio_position(42, "Backend Developer", additional=("Remote",)),
                        personio_position(43, "Data Engineer")])
    first, second = REGISTRY["personio"].parse(xml.encode(), PERSONIO)
    assert first.external_id == "42" and first.title == "Backend Developer"
    assert first.location == "Munich, Remote" and first.remote is True
    assert first.url == "https://acme.jobs.personio.de/job/42"
    assert first.description == "Your tasks\n\nCode.\n\nYour profile\n\n- Kotlin"
    assert first.posted_at == "2026-09-01T10:00:00Z"
    assert second.remote is None
    assert identify("https://acme.jobs.personio.de/job/42?display=en") == \
        ("personio", "acme", "42")


@pytest.mark.parametrize("payload", [
    b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><workzag-jobs>&a;</workzag-jobs>',
    b"<html><body>Not found</body></html>", b"{}", b"<workzag-jobs><position>",
], ids=["dtd", "html", "json", "truncated"])
def test_personio_refuses_dtds_and_foreign_bodies(payload: bytes) -> None:
    with pytest.raises(SourceError):
        REGISTRY["personio"].parse(payload, PERSONIO)


# --- Workday ------------------------------------------------------------------------

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
    postings, asked = run("workday", WORKDAY, workday_server(jobs))
    assert [r.json["offset"] for r in asked if r.method == "POST"] == [0, 20, 40]
    assert len(postings) == 45
    first = postings[0]
    assert first.external_id == "Engineer-0_R0"
    assert first.url == "https://acme.wd5.myworkdayjobs.com/External/job/Berlin/Engineer-0_R0"
    assert first.description == "About R0."
    assert first.posted_at == "2026-09-01T00:00:00"
    assert asked[3].url == WD_URL[:-len("/jobs")] + "/job/Berlin/Engineer-0_R0"


def test_workday_described_jobs_are_not_fetched_again() -> None:
    jobs = [workday_job("R1", "A"), workday_job("R2", "B")]
    _, asked = run("workday", WORKDAY, workday_server(jobs), known={"A_R1": "2026-09-01"})
    assert [r.url.rsplit("/", 1)[-1] for r in asked if r.method == "GET"] == ["B_R2"]


def test_workday_page_cap_stops_a_search_that_never_ends() -> None:
    def respond(request: Request) -> Response:
        offset = request.json["offset"] if request.json else 0
        if request.method == "POST":
            return ok(workday_page([workday_job(f"R{offset + i}", "Job") for i in range(20)],
                                   10**9))
        return NOT_FOUND
    postings, asked = run("workday", WORKDAY, respond)
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


# --- Hacker News --------------------------------------------------------------------

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
    postings, _ = run("hackernews", HN, respond)
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
        run("hackernews", HN, lambda _r: ok(hn_search((3, "Ask HN: Freelancer?"))))


# --- RemoteOK, Remotive, Himalayas --------------------------------------------------

def test_remoteok_skips_the_legal_notice_and_links_back() -> None:
    body = [REMOTEOK_LEGAL, remoteok_job("901", "Go Developer", salary=(100000, 140000)),
            remoteok_job("902", "Support", company="Bolt")]
    first, second = REGISTRY["remoteok"].parse(json.dumps(body), Board("remoteok", "all", "x"))
    assert first.url == "https://remoteOK.com/remote-jobs/remote-901"
    assert first.description.endswith("Via Remote OK: https://remoteOK.com/remote-jobs/remote-901")
    assert (first.salary_min, first.salary_max, first.salary_currency) == \
        (100000.0, 140000.0, "USD")
    assert (second.company, second.salary_min, second.salary_currency) == ("Bolt", None, None)
    assert first.remote is True


def test_remotive_jobs() -> None:
    body = remotive_board([remotive_job(5, "Python Developer", company="Bolt")])
    [posting] = REGISTRY["remotive"].parse(json.dumps(body), Board("remotive", "all", "x"))
    assert (posting.external_id, posting.company, posting.location) == ("5", "Bolt", "Europe")
    assert posting.posted_at == "2026-09-01T10:00:00" and posting.remote is True
    assert posting.department == "Software Development"


def test_himalayas_pages_keeps_salary_and_reads_epoch_seconds() -> None:
    everything = [himalayas_job(f"job-{i}", f"Engineer {i}") for i in range(30)]

    def respond(request: Request) -> Response:
        offset = int(request.url.rsplit("offset=", 1)[1])
        return ok(himalayas_page(everything[offset:offset + 20], offset, 30))
    postings, asked = run("himalayas", Board("himalayas", "all", "x"), respond)
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
    postings, asked = run("himalayas", Board("himalayas", "all", "x"), respond)
    assert len(asked) == himalayas.MAX_PAGES and len(postings) == 20 * himalayas.MAX_PAGES
