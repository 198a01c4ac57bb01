"""Fetching real HTTP boards on 127.0.0.1: each ATS, failures that stop only their board,
sources.yaml order, concurrency, conditional requests."""

from __future__ import annotations

import asyncio
import dataclasses
import time

import aiosqlite
import httpx
import pytest
from fetch_world import Clock, fetcher, gh, rows
from servers.boards import (
    BoardServer,
    ashby_board,
    ashby_job,
    greenhouse_board,
    greenhouse_job,
    lever_posting,
)
from servers.shapes import (
    Item,
    rss,
)

from jobtracker.config import Board, Feed, Profile, Sources
from jobtracker.postings.fetch import (
    USER_AGENT,
    BoardResult,
    UnknownSource,
    make_client,
    select_targets,
)
from jobtracker.ranking import matching

UUID_A = "0b5a1b2c-1234-4abc-9def-0123456789ab"


UUID_B = "1c6b2c3d-2345-4bcd-8ef0-123456789abc"


CLOCK = Clock()        # one for the whole module: later fetches are always later
fetch = fetcher(CLOCK)


async def test_each_ats_shape_is_fetched_and_stored(server: BoardServer,
                                                    conn: aiosqlite.Connection) -> None:
    server.set("/gh", greenhouse_board([greenhouse_job(1, "Senior Engineer")]))
    server.set("/lever", [lever_posting(UUID_A, "Software Engineer II")])
    server.set("/ashby", ashby_board([ashby_job(UUID_B, "Staff Engineer",
                                                salary=(90000, 120000, "EUR"))]))
    sources = Sources(boards=(
        Board("greenhouse", "acme", "Acme", server.url("/gh")),
        Board("lever", "bolt", "Bolt", server.url("/lever")),
        Board("ashby", "crane", "Crane", server.url("/ashby")),
    ))
    results = await fetch(conn, sources)
    assert {name: (r.ok, r.new) for name, r in results.items()} == {
        "greenhouse:acme": (True, 1), "lever:bolt": (True, 1), "ashby:crane": (True, 1)}
    stored = await rows(conn)
    assert [(r["source"], r["company"], r["title"], r["title_level"]) for r in stored] == [
        ("greenhouse", "Acme", "Senior Engineer", "senior"),
        ("lever", "Bolt", "Software Engineer II", "mid"),
        ("ashby", "Crane", "Staff Engineer", "staff"),
    ]
    assert stored[0]["description"] == "About the role."
    assert stored[1]["remote"] == 1
    assert stored[2]["salary_max"] == 120000.0
    assert all(r["first_seen"] == r["last_seen"] and r["closed_at"] is None for r in stored)


async def test_requests_carry_the_user_agent(server: BoardServer,
                                             conn: aiosqlite.Connection) -> None:
    server.set("/gh/acme", greenhouse_board([]))
    await fetch(conn, Sources(boards=(gh(server),)))
    assert server.requests[0].headers["user-agent"] == USER_AGENT
    assert USER_AGENT.startswith("jobtracker/") and "(+personal job search)" in USER_AGENT


async def test_fetched_postings_take_part_in_matching(server: BoardServer,
                                                      conn: aiosqlite.Connection) -> None:
    server.set("/gh/acme", greenhouse_board([
        greenhouse_job(1, "Senior Engineer", location="Berlin"),
        greenhouse_job(2, "Junior Engineer", location="Berlin"),
        greenhouse_job(3, "Senior Crypto Engineer", location="Berlin"),
    ]))
    await fetch(conn, Sources(boards=(gh(server),)))
    profile = Profile(levels=("senior",), locations=("berlin",), exclude=("crypto",))
    where, params = matching.match_where(profile)
    found = await conn.execute_fetchall(
        f"SELECT p.title FROM {matching.FROM_POSTINGS} WHERE {where}", params)
    assert [row[0] for row in found] == ["Senior Engineer"]


@pytest.mark.parametrize(("status", "body", "delay"), [
    (404, b"Not Found", 0.0),                      # the board is gone (Ashby's plain 404)
    (200, b'{"jobs": [ truncated', 0.0),           # a malformed body
    (200, b'{"ok": false, "error": "Document not found"}', 0.0),   # not this shape
    (500, b"oops", 0.0),
    (200, b"late", 2.0),                            # slower than the client's timeout
], ids=["404", "malformed", "wrong-shape", "500", "timeout"])
async def test_a_failed_fetch_closes_nothing_and_stops_no_other_board(
        server: BoardServer, conn: aiosqlite.Connection, status: int, body: bytes,
        delay: float) -> None:
    acme, bolt = gh(server), gh(server, "/gh/bolt", "bolt")
    server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "A")]))
    server.set("/gh/bolt", greenhouse_board([greenhouse_job(2, "B")]))
    sources = Sources(boards=(acme, bolt))
    await fetch(conn, sources)
    server.set("/gh/acme", body, status=status, delay=delay)
    server.set("/gh/bolt", greenhouse_board([greenhouse_job(2, "B"), greenhouse_job(3, "C")]))
    async with make_client(timeout=httpx.Timeout(0.5)) as client:
        results = await fetch(conn, sources, client=client)
    assert not results["greenhouse:acme"].ok
    assert results["greenhouse:acme"].closed == 0
    assert results["greenhouse:bolt"].ok and results["greenhouse:bolt"].new == 1
    assert [r["closed_at"] for r in await rows(conn)] == [None, None, None]
    board = await (await conn.execute(
        "SELECT last_error, last_ok, last_fetched FROM boards WHERE token = 'acme'")).fetchone()
    assert board["last_error"] == results["greenhouse:acme"].error
    assert board["last_ok"] != board["last_fetched"]        # the failure did not count as ok


@pytest.mark.parametrize("url", ["http://127.0.0.1:1/closed", "http://256.1.1.1:99999/x",
                                 "ftp://example.org/jobs"])
async def test_unreachable_or_invalid_addresses_fail_only_their_board(
        server: BoardServer, conn: aiosqlite.Connection, url: str) -> None:
    server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "A")]))
    sources = Sources(boards=(Board("greenhouse", "bad", "Bad", url), gh(server)))
    results = await fetch(conn, sources)
    assert not results["greenhouse:bad"].ok and results["greenhouse:bad"].error
    assert results["greenhouse:acme"].ok


async def test_timeout_error_says_so(server: BoardServer, conn: aiosqlite.Connection) -> None:
    server.set("/gh/acme", greenhouse_board([]), delay=1.0)
    async with make_client(timeout=httpx.Timeout(0.2)) as client:
        result = (await fetch(conn, Sources(boards=(gh(server),)), client=client))
    assert result["greenhouse:acme"].error == "timed out"


async def test_a_huge_description_is_stored_bounded(server: BoardServer,
                                                    conn: aiosqlite.Connection) -> None:
    huge = "<p>" + "responsibility " * 200_000 + "</p>"              # ~3 MB of HTML
    server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "Engineer", content_html=huge)]))
    result = (await fetch(conn, Sources(boards=(gh(server),))))["greenhouse:acme"]
    assert result.ok
    [row] = await rows(conn)
    assert 90_000 < len(row["description"]) < 110_000


async def test_writes_follow_sources_order_whoever_answers_first(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    boards = []
    for index in range(6):
        # The first boards answer last.
        server.set(f"/gh/b{index}", greenhouse_board([greenhouse_job(index, f"Job {index}")]),
                   delay=0.05 * (6 - index))
        boards.append(gh(server, f"/gh/b{index}", f"b{index}"))
    done: list[BoardResult] = []
    await fetch(conn, Sources(boards=tuple(boards)), done=done)
    assert [r.name for r in done] == [f"greenhouse:b{i}" for i in range(6)]
    assert [r["token"] for r in await rows(conn)] == [f"b{i}" for i in range(6)]


async def test_at_most_four_requests_at_once(server: BoardServer,
                                             conn: aiosqlite.Connection) -> None:
    boards = []
    for index in range(10):
        server.set(f"/gh/b{index}", greenhouse_board([]), delay=0.2)
        boards.append(gh(server, f"/gh/b{index}", f"b{index}"))
    results = await fetch(conn, Sources(boards=tuple(boards)))
    assert all(r.ok for r in results.values())
    assert 2 <= server.peak_in_flight <= 4


async def test_only_one_source_by_name(server: BoardServer, conn: aiosqlite.Connection) -> None:
    server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "A")]))
    server.set("/gh/bolt", greenhouse_board([greenhouse_job(2, "B")]))
    sources = Sources(boards=(gh(server), gh(server, "/gh/bolt", "bolt")))
    results = await fetch(conn, sources, only="BOLT")
    assert list(results) == ["greenhouse:bolt"]
    assert [r["token"] for r in await rows(conn)] == ["bolt"]
    with pytest.raises(UnknownSource, match="greenhouse:acme"):
        select_targets(sources, "nope")


def test_a_full_name_picks_one_source_and_a_token_or_company_every_board_it_names() -> None:
    sources = Sources(
        boards=(Board("greenhouse", "acme", "Acme"), Board("lever", "acme", "Acme"),
                Board("ashby", "acme-labs", "Acme"), Board("greenhouse", "bolt", "Bolt")),
        feeds=(Feed("acme", "https://example.org/acme.rss"),))
    def names(only: str) -> list[str]:
        return [t.name for t in select_targets(sources, only)]

    assert names("greenhouse:acme") == ["greenhouse:acme"]
    assert names("feed:acme") == ["feed:acme"]
    assert names("acme") == ["feed:acme"], "a feed's own name picks the feed"
    assert names("ACME-LABS") == ["ashby:acme-labs"]
    assert names("Bolt") == ["greenhouse:bolt"]
    sources = dataclasses.replace(sources, feeds=())
    assert names("acme") == ["greenhouse:acme", "lever:acme", "ashby:acme-labs"]


async def test_an_interrupted_fetch_keeps_what_was_written(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    server.set("/gh/fast", greenhouse_board([greenhouse_job(1, "A")]))
    # The slow board answers only after the test is over (its server's threads are
    # daemons): the fast board's rows are waited for as long as a busy machine needs,
    # and the slow one can never land first.
    server.set("/gh/slow", greenhouse_board([greenhouse_job(2, "B")]), delay=3600)
    sources = Sources(boards=(gh(server, "/gh/fast", "fast"), gh(server, "/gh/slow", "slow")))
    task = asyncio.create_task(fetch(conn, sources))
    deadline = time.monotonic() + 60
    while not await rows(conn):
        assert time.monotonic() < deadline, "the fast board's rows never arrived"
        await asyncio.sleep(0.02)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert [r["token"] for r in await rows(conn)] == ["fast"]
    assert not conn.in_transaction


async def test_an_unchanged_board_answers_304_and_nothing_moves_but_last_seen(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    board = gh(server)
    server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "A")]), etag='"v1"',
               last_modified="Tue, 01 Sep 2026 10:00:00 GMT")
    await fetch(conn, Sources(boards=(board,)))
    result = (await fetch(conn, Sources(boards=(board,))))["greenhouse:acme"]
    assert result.not_modified and result.ok
    assert (result.new, result.updated, result.closed, result.unchanged) == (0, 0, 0, 1)
    second = server.requests[-1].headers
    assert second["if-none-match"] == '"v1"'
    assert second["if-modified-since"] == "Tue, 01 Sep 2026 10:00:00 GMT"
    assert "if-none-match" not in server.requests[0].headers
    [row] = await rows(conn)
    assert row["closed_at"] is None and row["last_seen"] > row["first_seen"]


async def test_a_new_etag_brings_the_new_listing(server: BoardServer,
                                                 conn: aiosqlite.Connection) -> None:
    board = gh(server)
    server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "A")]), etag='"v1"')
    await fetch(conn, Sources(boards=(board,)))
    server.set("/gh/acme", greenhouse_board([greenhouse_job(2, "B")]), etag='"v2"')
    result = (await fetch(conn, Sources(boards=(board,))))["greenhouse:acme"]
    assert (result.new, result.closed) == (1, 1)
    etag = await (await conn.execute("SELECT etag FROM boards")).fetchone()
    assert etag[0] == '"v2"'


async def test_validators_are_not_sent_to_a_different_address(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "A")]), etag='"v1"')
    server.set("/mirror/acme", greenhouse_board([greenhouse_job(1, "A")]), etag='"v1"')
    await fetch(conn, Sources(boards=(gh(server),)))
    await fetch(conn, Sources(boards=(gh(server, "/mirror/acme"),)))
    assert "if-none-match" not in server.requests[-1].headers


async def test_a_failed_fetch_keeps_the_last_good_etag(server: BoardServer,
                                                       conn: aiosqlite.Connection) -> None:
    board = gh(server)
    server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "A")]), etag='"v1"')
    await fetch(conn, Sources(boards=(board,)))
    server.set("/gh/acme", b"broken", etag='"v2"')
    assert not (await fetch(conn, Sources(boards=(board,))))["greenhouse:acme"].ok
    etag = await (await conn.execute("SELECT etag FROM boards")).fetchone()
    assert etag[0] == '"v1"'


def feed_item(job_id: int, title: str = "Senior Engineer", token: str = "acme") -> Item:
    return Item(f"guid-{job_id}", title, f"https://boards.greenhouse.io/{token}/jobs/{job_id}"
                f"?utm_source=feed", blurb_html="<p>A <b>short</b> blurb.</p>")


async def test_a_failed_feed_closes_nothing(server: BoardServer,
                                            conn: aiosqlite.Connection) -> None:
    sources = Sources(feeds=(Feed("jobs", server.url("/feed")),))
    server.set("/feed", rss([feed_item(1)]))
    await fetch(conn, sources)
    server.set("/feed", "<rss><channel><item>", status=200)
    assert not (await fetch(conn, sources))["feed:jobs"].ok
    [row] = await rows(conn)
    assert row["closed_at"] is None
