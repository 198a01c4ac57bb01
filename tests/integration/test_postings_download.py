"""Every source shape fetched from real loopback servers, and the fetch's bounds:
a board that drips bytes, a rate limit, an unreadable item, an invalid byte."""

from __future__ import annotations

import json
import time
from typing import Any

import aiosqlite
import pytest
from conftest import run_cli
from servers.boards import (
    BoardServer,
    greenhouse_board,
    greenhouse_job,
    lever_posting,
)
from servers.shapes import (
    REMOTEOK_LEGAL,
    Item,
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
    rss,
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

from jobtracker.config import Board, Feed, Sources
from jobtracker.postings.fetch import BoardResult, fetch_all, make_client
from jobtracker.workspace import Workspace

UUID_A = "0b5a1b2c-1234-4abc-9def-0123456789ab"
UUID_B = "1c6b2c3d-2345-4bcd-8ef0-123456789abc"


async def fetch(conn: aiosqlite.Connection, sources: Sources,
                **kwargs: Any) -> dict[str, BoardResult]:
    async with make_client() as client:
        results = await fetch_all(conn, sources, client, **kwargs)
    return {result.name: result for result in results}


async def stored(conn: aiosqlite.Connection, source: str) -> list[dict[str, Any]]:
    found = await conn.execute_fetchall(
        "SELECT p.* FROM postings p JOIN boards b ON b.id = p.board_id WHERE b.source = ? "
        "ORDER BY p.id", (source,))
    return [dict(row) for row in found]


def serve_every_shape(server: BoardServer) -> Sources:
    """One board of each new source, each with its own quirks, all on loopback."""
    wk = server.set("/wk/acme/jobs", workable_page([workable_job("AAA111", "Backend Engineer")],
                                                   next_page="p2"), post={})
    server.set("/wk/acme/jobs", workable_page([workable_job("BBB222", "Designer")]),
               post={"token": "p2"})
    for code in ("AAA111", "BBB222"):
        server.set(f"/wk/acme/jobs/{code}", workable_detail(code, "x"))
    sr = server.url("/sr/acme/postings")
    server.set("/sr/acme/postings?limit=100&offset=0", smartrecruiters_page(
        [smartrecruiters_posting("7001", "Java Engineer")]))
    server.set("/sr/acme/postings/7001", smartrecruiters_detail("7001", "Java Engineer"))
    rc = server.set("/rc/offers", {"offers": [recruitee_offer(11, "Rails Engineer")]})
    ps = server.set("/personio/xml", personio_xml([personio_position(42, "Data Engineer")]))
    wd = server.set("/wday/cxs/acme/External/jobs",
                    workday_page([workday_job("R1", "Platform Engineer")], 1),
                    post={"appliedFacets": {}, "limit": 20, "offset": 0, "searchText": ""})
    server.set("/wday/cxs/acme/External/job/Berlin/Platform-Engineer_R1",
               workday_detail("R1", "Platform Engineer"))
    hn = server.set("/hn/api/v1/search_by_date?tags=story,author_whoishiring",
                    hn_search((2, "Ask HN: Who is hiring? (November 2026)")))
    server.set("/hn/api/v1/items/2", hn_thread(2, [hn_comment(21, "Acme | SRE | Remote")]))
    rok = server.set("/rok", [REMOTEOK_LEGAL, remoteok_job("901", "Go Developer")])
    rmt = server.set("/rmt", remotive_board([remotive_job(5, "Python Developer")]))
    hm = server.url("/hm")
    server.set("/hm?limit=20&offset=0", himalayas_page([himalayas_job("j1", "Staff SRE")], 0, 1))
    return Sources(boards=(
        Board("workable", "acme", "Acme", wk), Board("smartrecruiters", "acme", "Acme", sr),
        Board("recruitee", "acme", "Acme", rc), Board("personio", "acme", "Acme", ps),
        Board("workday", "acme.wd5/External", "Acme", wd),
        Board("hackernews", "whoishiring", "Hacker News", hn),
        Board("remoteok", "all", "Remote OK", rok), Board("remotive", "all", "Remotive", rmt),
        Board("himalayas", "all", "Himalayas", hm)))


async def test_every_new_source_shape_is_fetched_and_stored(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    results = await fetch(conn, serve_every_shape(server))
    assert {name: (r.error, r.new) for name, r in results.items()} == {
        "workable:acme": (None, 2), "smartrecruiters:acme": (None, 1),
        "recruitee:acme": (None, 1), "personio:acme": (None, 1),
        "workday:acme.wd5/External": (None, 1), "hackernews:whoishiring": (None, 1),
        "remoteok:all": (None, 1), "remotive:all": (None, 1), "himalayas:all": (None, 1)}
    for source in ("workable", "smartrecruiters", "recruitee", "personio", "workday",
                   "hackernews", "remoteok", "remotive", "himalayas"):
        rows = await stored(conn, source)
        assert rows and all(row["description"] for row in rows), source
    [hn] = await stored(conn, "hackernews")
    assert (hn["company"], hn["title"], hn["remote"]) == ("Acme", "SRE", 1)
    [wd] = await stored(conn, "workday")
    assert wd["posted_at"] == "2026-09-01T00:00:00Z"      # a date without a zone: UTC


async def test_a_second_fetch_asks_no_description_again_and_keeps_what_is_stored(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    sources = serve_every_shape(server)
    await fetch(conn, sources)
    before = len(server.requests)
    results = await fetch(conn, sources)
    again = [r.path for r in server.requests[before:] if r.method == "GET"]
    assert not any(path.startswith(("/wk/acme/jobs/", "/sr/acme/postings/", "/wday/"))
                   for path in again)
    assert all(r.ok and r.new == r.updated == r.closed == 0 for r in results.values())
    for source in ("workable", "smartrecruiters", "workday"):
        assert all(row["description"] for row in await stored(conn, source)), source
    [wd] = await stored(conn, "workday")
    assert wd["posted_at"] == "2026-09-01T00:00:00Z"      # the detail's date is kept too


# --- bounds: no board can stall the fetch ----------------------------------------------

async def test_a_board_dripping_one_byte_every_two_seconds_fails_alone_at_the_deadline(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    server.set("/gh/slow", greenhouse_board([greenhouse_job(1, "A")]), drip=2.0)
    server.set("/gh/fine", greenhouse_board([greenhouse_job(2, "B")]))
    sources = Sources(boards=(Board("greenhouse", "slow", "Slow", server.url("/gh/slow")),
                              Board("greenhouse", "fine", "Fine", server.url("/gh/fine"))))
    started = time.monotonic()
    results = await fetch(conn, sources, deadline=1.0)
    assert time.monotonic() - started < 5
    assert results["greenhouse:slow"].error == \
        "no complete answer within the 1 s download deadline"
    assert results["greenhouse:fine"].ok and results["greenhouse:fine"].new == 1
    board = await (await conn.execute(
        "SELECT last_error FROM boards WHERE token = 'slow'")).fetchone()
    assert "deadline" in board["last_error"]


async def test_a_dripping_feed_fails_alone_too(server: BoardServer,
                                               conn: aiosqlite.Connection) -> None:
    server.set("/feed", rss([Item("g1", "Engineer", "https://example.org/1")]), drip=2.0)
    server.set("/gh/fine", greenhouse_board([greenhouse_job(2, "B")]))
    sources = Sources(boards=(Board("greenhouse", "fine", "Fine", server.url("/gh/fine")),),
                      feeds=(Feed("slow", server.url("/feed")),))
    results = await fetch(conn, sources, deadline=1.0)
    assert "deadline" in (results["feed:slow"].error or "")
    assert results["greenhouse:fine"].ok


async def test_a_long_retry_after_fails_that_board_at_once(server: BoardServer,
                                                           conn: aiosqlite.Connection) -> None:
    server.set("/wk/acme/jobs", b"slow down", status=429, headers={"Retry-After": "3600"},
               post=None)
    server.set("/gh/fine", greenhouse_board([greenhouse_job(2, "B")]))
    sources = Sources(boards=(Board("workable", "acme", "Acme", server.url("/wk/acme/jobs")),
                              Board("greenhouse", "fine", "Fine", server.url("/gh/fine"))))
    started = time.monotonic()
    results = await fetch(conn, sources)
    assert time.monotonic() - started < 5
    assert results["workable:acme"].error.startswith("rate limited: HTTP 429 asks to wait 3600 s")
    assert results["greenhouse:fine"].ok


async def test_a_short_retry_after_is_honoured_a_few_times_then_the_board_fails(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    server.set("/gh/busy", b"busy", status=503, headers={"Retry-After": "0"})
    results = await fetch(conn, Sources(boards=(
        Board("greenhouse", "busy", "Busy", server.url("/gh/busy")),)))
    assert results["greenhouse:busy"].error == "HTTP 503 Service Unavailable"
    assert sum(r.path == "/gh/busy" for r in server.requests) == 4     # 1 + 3 retries


async def test_a_workday_token_without_a_site_fails_that_board_only(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    server.set("/gh/fine", greenhouse_board([greenhouse_job(2, "B")]))
    results = await fetch(conn, Sources(boards=(
        Board("workday", "acme", "Acme"),
        Board("greenhouse", "fine", "Fine", server.url("/gh/fine")))))
    assert results["workday:acme"].error.startswith("no address: 'acme'")
    assert results["greenhouse:fine"].ok


# --- bad items are skipped and counted; only a bad envelope fails a board ---------------

async def test_one_bad_lever_item_is_skipped_and_counted(server: BoardServer,
                                                         conn: aiosqlite.Connection) -> None:
    odd = {**lever_posting(UUID_A, "Engineer"), "lists": 5}
    server.set("/lever", [odd, 5, lever_posting(UUID_B, "Designer")])
    results = await fetch(conn, Sources(boards=(
        Board("lever", "acme", "Acme", server.url("/lever")),)))
    result = results["lever:acme"]
    assert result.ok and result.new == 2 and result.skipped == 1
    titles = [row["title"] for row in await stored(conn, "lever")]
    assert titles == ["Engineer", "Designer"]


async def test_a_bad_envelope_still_fails_the_board(server: BoardServer,
                                                    conn: aiosqlite.Connection) -> None:
    server.set("/lever", {"postings": []})
    results = await fetch(conn, Sources(boards=(
        Board("lever", "acme", "Acme", server.url("/lever")),)))
    assert results["lever:acme"].error == "not a Lever postings list: expected a JSON array"


async def test_one_invalid_utf8_byte_fails_nothing(server: BoardServer,
                                                   conn: aiosqlite.Connection) -> None:
    body = json.dumps(greenhouse_board([greenhouse_job(1, "Engineer BADBYTE"),
                                        greenhouse_job(2, "Designer")])).encode()
    server.set("/gh/acme", body.replace(b"BADBYTE", b"\xff"))
    feed = rss([Item("g1", "Writer BADBYTE", "https://example.org/1"),
                Item("g2", "Editor", "https://example.org/2")]).encode()
    server.set("/feed", feed.replace(b"BADBYTE", b"\xfe\xff"))
    results = await fetch(conn, Sources(
        boards=(Board("greenhouse", "acme", "Acme", server.url("/gh/acme")),),
        feeds=(Feed("jobs", server.url("/feed")),)))
    assert results["greenhouse:acme"].ok and results["greenhouse:acme"].new == 2
    assert results["feed:jobs"].ok and results["feed:jobs"].new == 2
    titles = [row["title"] for row in await stored(conn, "greenhouse")]
    assert titles == ["Engineer \ufffd", "Designer"]


def test_cli_fetch_says_how_many_items_it_skipped(server: BoardServer, ws: Workspace) -> None:
    server.set("/lever", [lever_posting(UUID_A, "Engineer"), "not a posting"])
    (ws / "sources.yaml").write_text(
        f"boards:\n  - {{ats: lever, token: acme, url: '{server.url('/lever')}'}}\n",
        encoding="utf-8")
    done = run_cli("--home", str(ws.home), "fetch")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith(
        "[1/1] lever:acme  ok, 1 new, 0 updated, 0 closed, 1 unreadable skipped")
    assert "Traceback" not in done.stderr


def test_cli_fetch_takes_its_deadline_from_config(server: BoardServer, ws: Workspace) -> None:
    server.set("/gh/slow", greenhouse_board([greenhouse_job(1, "A")]), drip=2.0)
    (ws / "sources.yaml").write_text(
        f"boards:\n  - {{ats: greenhouse, token: slow, url: '{server.url('/gh/slow')}'}}\n",
        encoding="utf-8")
    (ws / "config.yaml").write_text("fetch:\n  deadline: 1\n", encoding="utf-8")
    started = time.monotonic()
    done = run_cli("--home", str(ws.home), "fetch")
    assert time.monotonic() - started < 15
    assert done.returncode == 1, done.stderr
    assert "within the 1 s download deadline" in done.stdout


async def test_a_board_error_that_quotes_its_address_keeps_the_token_out(
        server: BoardServer, conn: aiosqlite.Connection,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import jobtracker.postings.fetch as fetch_module
    from jobtracker.postings.download import DownloadError

    secret = "s3cr3t-board-token-1234"
    url = server.url(f"/gh/acme?api_key={secret}")

    async def failing(*args: Any, **kwargs: Any) -> Any:
        raise DownloadError(f"cannot read {url} (token {secret})")

    monkeypatch.setattr(fetch_module, "download", failing)
    sources = Sources(boards=(Board("greenhouse", "acme", "Acme", url),))
    results = await fetch(conn, sources)
    error = results["greenhouse:acme"].error or ""
    assert error.startswith("cannot read") and secret not in error
    board = await (await conn.execute("SELECT last_error FROM boards")).fetchone()
    assert secret not in board["last_error"]
