"""Postings from a hostile board: pages kept whole, endless listings, unbounded fields,
pages that are not web pages, ids that walk up a path, hosts that only look right."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

import pytest
from servers.shapes import (
    answer_plan,
    himalayas_job,
    himalayas_page,
    hn_search,
    smartrecruiters_page,
    smartrecruiters_posting,
    workable_job,
    workable_page,
    workday_job,
    workday_page,
)

from jobtracker.config import Board
from jobtracker.sources import REGISTRY, SourceError, base, identify
from jobtracker.sources.base import FIELD_CHARS, NormalizedPosting, Request, Response
from jobtracker.text import web_url


def ok(data: Any) -> Response:
    return Response(200, data if isinstance(data, bytes) else json.dumps(data).encode())


BOARDS = {
    "workday": Board(ats="workday", token="acme.wd5/Careers", company="Acme"),
    "smartrecruiters": Board(ats="smartrecruiters", token="acme", company="Acme"),
    "workable": Board(ats="workable", token="acme", company="Acme"),
    "himalayas": Board(ats="himalayas", token="all", company=""),
}
PAGE_JOBS = 20


def junk(n: int) -> str:
    return "x" * n


def paged(ats: str, pages: int, junk_bytes: int) -> Callable[[Request], Response]:
    """A board of `pages` full pages whose every job carries `junk_bytes` of a field no
    source reads (`extra`): the page is big, the postings read from it are small."""
    def job(i: int) -> dict[str, Any]:
        make = {"workday": lambda: workday_job(f"R{i}", f"Engineer {i}"),
                "smartrecruiters": lambda: smartrecruiters_posting(str(i), f"Engineer {i}"),
                "workable": lambda: workable_job(f"W{i}", f"Engineer {i}"),
                "himalayas": lambda: himalayas_job(f"j{i}", f"Engineer {i}")}[ats]()
        return {**make, "extra": junk(junk_bytes)}

    def respond(request: Request) -> Response:
        total = pages * PAGE_JOBS
        if request.method == "POST" and ats == "workday":
            offset = request.json["offset"]
        elif request.method == "POST":                  # workable pages by token
            offset = int((request.json or {}).get("token") or 0)
        elif "offset=" in request.url:
            offset = int(request.url.rsplit("offset=", 1)[1].split("&")[0])
        else:
            return Response(404, b"")                   # a description: none
        if offset >= total:
            return ok({"jobPostings": [], "content": [], "results": [], "jobs": [],
                       "total": total, "totalFound": total, "totalCount": total})
        jobs = [job(i) for i in range(offset, offset + PAGE_JOBS)]
        page = {"workday": lambda: workday_page(jobs, total),
                "smartrecruiters": lambda: smartrecruiters_page(jobs, offset, total),
                "workable": lambda: workable_page(
                    jobs, str(offset + PAGE_JOBS) if offset + PAGE_JOBS < total else None),
                "himalayas": lambda: himalayas_page(jobs, offset, total)}[ats]()
        return ok(page)
    return respond


def run(ats: str, respond: Callable[[Request], Response]) -> tuple[list, list[Request]]:
    board = BOARDS[ats]
    return answer_plan(REGISTRY[ats].start(board, REGISTRY[ats].default_url(board.token),
                                           base.LISTING_ONLY), respond)


@pytest.mark.parametrize("ats", sorted(BOARDS))
def test_a_paged_board_keeps_postings_not_its_pages(ats: str) -> None:
    pages, junk_bytes = 15, 50_000                 # 15 pages of ~1 MB each
    respond = paged(ats, pages, junk_bytes)
    tracemalloc.start()
    try:
        postings, _ = run(ats, respond)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(postings) == pages * PAGE_JOBS
    page_bytes = PAGE_JOBS * junk_bytes
    # One page in flight (its text and its parse) at a time, never all of them.
    assert peak < 5 * page_bytes, f"peak {peak:,} B for pages of {page_bytes:,} B"


@pytest.mark.parametrize("ats", sorted(BOARDS))
def test_a_board_listing_more_than_the_cap_fails_rather_than_growing(
        ats: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(base, "MAX_ITEMS", 50)
    with pytest.raises(SourceError, match="more than 50 jobs listed"):
        run(ats, paged(ats, 10, 10))


@pytest.mark.parametrize("ats", ["greenhouse", "lever", "ashby", "remotive", "remoteok"])
def test_a_single_listing_past_the_cap_fails_too(ats: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(base, "MAX_ITEMS", 30)
    items = [{"id": i, "title": f"E{i}"} for i in range(31)]
    body = {"greenhouse": {"jobs": items}, "ashby": {"jobs": items}, "remotive": {"jobs": items},
            "lever": items, "remoteok": items}[ats]
    with pytest.raises(SourceError, match="more than 30 jobs listed"):
        REGISTRY[ats].parse(json.dumps(body).encode(), Board(ats=ats, token="t", company="C"))


# --- every stored field bounded -------------------------------------------------------------

@pytest.mark.parametrize("field", sorted(FIELD_CHARS))
@pytest.mark.parametrize("size", [FIELD_CHARS["description"] + 10, 3_500_000])
def test_no_field_of_a_posting_is_longer_than_its_bound(field: str, size: int) -> None:
    posting = NormalizedPosting(**{"external_id": "1", "title": "t", field: "a" * size})
    assert len(getattr(posting, field)) <= FIELD_CHARS[field]


def offices(n: int) -> list[dict[str, Any]]:
    return [{"id": i, "name": f"Office number {i}"} for i in range(n)]


@pytest.mark.parametrize(("ats", "job"), [
    ("greenhouse", {"id": 1, "title": "E", "absolute_url": "https://x.example/1",
                    "location": {"name": ""}, "offices": offices(30_000),
                    "departments": offices(30_000)}),
    ("himalayas", None),
    ("workable", None),
    ("lever", {"id": "abc", "text": "E", "hostedUrl": "https://jobs.lever.co/t/abc",
               "categories": {"location": "x" * 100_000, "team": "y" * 100_000,
                              "allLocations": ["z" * 1000] * 3000}}),
])
def test_a_field_joined_from_a_long_list_is_bounded(ats: str, job: dict | None) -> None:
    if ats == "himalayas":
        item = himalayas_job("j", "E", locations=[f"Country {i}" for i in range(30_000)])
        body = {"jobs": [{**item, "companyName": "C" * 100_000}]}
    elif ats == "workable":
        body = {"results": [workable_job("W1", "E", department=[f"Team {i}" for i in
                                                                range(30_000)])]}
    else:
        body = {"jobs": [job]} if ats == "greenhouse" else [job]
    [posting] = REGISTRY[ats].parse(json.dumps(body).encode(),
                                    Board(ats=ats, token="t", company="C"))
    for field, limit in FIELD_CHARS.items():
        value = getattr(posting, field)
        assert value is None or len(value) <= limit, field


# --- pages that are not web pages -----------------------------------------------------------

NOT_WEB = ["javascript:alert(1)", "JavaScript:alert(document.cookie)", " javascript:x",
           "\tjavascript:x", "file:///etc/passwd", "data:text/html,<script>x</script>",
           "vbscript:msgbox", "ftp://files.example/x", "//evil.example/x", "http:///nohost",
           "https://", "mailto:a@b.example", "http://[::1", "about:blank"]


@pytest.mark.parametrize("url", NOT_WEB)
def test_a_page_that_is_not_http_is_never_kept(url: str) -> None:
    assert web_url(url) == ""
    assert NormalizedPosting(external_id="1", title="t", url=url).url == ""


@pytest.mark.parametrize("url", ["https://jobs.example/1", "HTTP://Jobs.Example/1?a=b#c",
                                 "http://127.0.0.1:8000/x"])
def test_a_web_page_is_kept_as_it_is(url: str) -> None:
    assert NormalizedPosting(external_id="1", title="t", url=url).url == url


@pytest.mark.parametrize("url", NOT_WEB[:6])
@pytest.mark.parametrize("ats", ["greenhouse", "remotive", "remoteok"])
def test_no_source_stores_a_page_that_is_not_http(ats: str, url: str) -> None:
    item = {"greenhouse": {"id": 1, "title": "E", "absolute_url": url},
            "remotive": {"id": 1, "title": "E", "url": url, "company_name": "C"},
            "remoteok": {"id": "1", "position": "E", "url": url, "apply_url": url,
                         "company": "C"}}[ats]
    body = {"greenhouse": {"jobs": [item]}, "remotive": {"jobs": [item]},
            "remoteok": [{"legal": "x"}, item]}[ats]
    postings = REGISTRY[ats].parse(json.dumps(body).encode(),
                                   Board(ats=ats, token="t", company="C"))
    assert postings and all(p.url == "" or p.url.startswith("http") for p in postings)


# --- ids as path segments -------------------------------------------------------------------

HOSTILE_IDS = ["../../admin?x=1#", "..", ".", "a/../../b", "x?y=1", "x#y", "%2e%2e",
               "..%2f..%2fadmin", "a b", "q/../..", "\u2215etc"]


def detail_requests(ats: str, ids: list[str]) -> list[Request]:
    board = BOARDS[ats]
    list_url = REGISTRY[ats].default_url(board.token)

    def respond(request: Request) -> Response:
        if request.method == "POST" or "offset=" in request.url:
            jobs: list[dict[str, Any]] = []
            for i in ids:
                if ats == "workday":
                    jobs.append({**workday_job("R1", "Engineer"), "externalPath": f"/job/{i}"})
                elif ats == "smartrecruiters":
                    jobs.append(smartrecruiters_posting(i, "Engineer"))
                else:
                    jobs.append(workable_job(i, "Engineer"))
            if (request.json or {}).get("offset", 0) or (request.json or {}).get("token") \
                    or ("offset=0" not in request.url and request.method == "GET"):
                jobs = []
            page = {"workday": lambda: workday_page(jobs, len(jobs)),
                    "smartrecruiters": lambda: smartrecruiters_page(jobs, 0, len(jobs)),
                    "workable": lambda: workable_page(jobs)}[ats]()
            return ok(page)
        return Response(404, b"")

    _, asked = answer_plan(REGISTRY[ats].start(board, list_url, {}), respond)
    return [r for r in asked if r.method == "GET" and "offset=" not in r.url]


@pytest.mark.parametrize("ats", ["workday", "smartrecruiters", "workable"])
@pytest.mark.parametrize("job_id", HOSTILE_IDS)
def test_a_detail_request_stays_below_the_boards_own_path(ats: str, job_id: str) -> None:
    import httpx

    for request in detail_requests(ats, [job_id]):
        url = httpx.URL(request.url)      # as httpx sends it: dot segments resolved
        below = {"workday": "/wday/cxs/acme/Careers/job/",
                 "smartrecruiters": "/v1/companies/acme/postings/",
                 "workable": "/api/v2/accounts/acme/jobs/"}[ats]
        assert url.path.startswith(below) and url.path != below, request.url
        assert not url.query and not url.fragment, request.url
        segments = [unquote(part) for part in url.raw_path.decode().split("/")]
        assert "." not in segments and ".." not in segments, request.url


@pytest.mark.parametrize("story", ["1/../../admin?x=1", "../items", "12#x", "٣٤"])
def test_a_hacker_news_thread_id_that_is_not_a_number_is_not_followed(story: str) -> None:
    board = Board(ats="hackernews", token="x", company="")
    url = REGISTRY["hackernews"].default_url("")
    search = hn_search((1, "Ask HN: Who is hiring? (December 2026)"))
    search["hits"][0]["objectID"] = story
    with pytest.raises(SourceError, match="no \"Who is hiring"):
        answer_plan(REGISTRY["hackernews"].start(board, url, {}), lambda r: ok(search))


# --- hosts that only look right -------------------------------------------------------------

GENUINE = [
    "https://boards.greenhouse.io/stripe/jobs/123",
    "https://boards.greenhouse.io/embed/job_app?for=stripe&token=123",
    "https://jobs.lever.co/plaid/0b5a2a3e-1c0b-4a52-9b1f-3f0a6c1c2d3e",
    "https://jobs.ashbyhq.com/linear/0b5a2a3e-1c0b-4a52-9b1f-3f0a6c1c2d3e",
    "https://apply.workable.com/acme/j/ABC123/",
    "https://jobs.smartrecruiters.com/acme/743999",
    "https://acme.jobs.personio.de/job/12345",
    "https://acme.wd5.myworkdayjobs.com/Careers/job/Berlin/Engineer_R1",
]


def lookalikes(url: str) -> list[str]:
    scheme, rest = url.split("://", 1)
    host, path = rest.split("/", 1)
    domain = ".".join(host.split(".")[-2:])
    glued = host.replace(domain, "evil" + domain)
    return [f"{scheme}://{glued}/{path}",
            f"{scheme}://{host}.evil.example/{path}",
            f"{scheme}://{host}@evil.example/{path}",
            f"{scheme}://evil.example\\@{host}/{path}",
            f"{scheme}://evil.example/{host}/{path}",
            f"{scheme}://evil.example/?u={url}",
            f"{scheme}://{host.replace('.', '-')}.example/{path}",
            f"javascript://{host}/{path}"]


def test_the_genuine_pages_are_recognised() -> None:
    assert all(identify(url) is not None for url in GENUINE)


@pytest.mark.parametrize("genuine", GENUINE)
def test_a_host_that_only_looks_like_the_ats_is_not_it(genuine: str) -> None:
    for url in lookalikes(genuine):
        assert identify(url) is None, url


@pytest.mark.parametrize("domain", ["greenhouse.io", "lever.co"])
def test_host_is_matches_by_whole_labels(domain: str) -> None:
    assert base.host_is(f"https://{domain}/x", domain)
    assert base.host_is(f"https://a.b.{domain.upper()}./x", domain)
    for host in [f"evil{domain}", f"{domain}.evil.com", f"x-{domain}", f"{domain}x"]:
        assert not base.host_is(f"https://{host}/x", domain), host
    assert not base.host_is(f"https://evil.com\\@{domain}/", domain)
