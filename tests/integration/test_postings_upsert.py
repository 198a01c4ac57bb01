"""Storing a listing: close what vanished, reopen what came back, the same job once,
updates, and feeds sharing rows with ATS boards."""

from __future__ import annotations

import json

import aiosqlite
import pytest
from fetch_world import Clock, fetcher, gh, rows
from servers.boards import (
    BoardServer,
    greenhouse_board,
    greenhouse_job,
)
from servers.shapes import (
    Item,
    atom,
    json_feed,
    rss,
)

from jobtracker import store
from jobtracker.config import Feed, Sources

CLOCK = Clock()        # one for the whole module: later fetches are always later
fetch = fetcher(CLOCK)


async def test_vanished_posting_is_closed_and_the_rest_stay_open(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    board = gh(server)
    server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "A"), greenhouse_job(2, "B")]))
    await fetch(conn, Sources(boards=(board,)))
    server.set("/gh/acme", greenhouse_board([greenhouse_job(2, "B")]))
    result = (await fetch(conn, Sources(boards=(board,))))["greenhouse:acme"]
    assert (result.new, result.updated, result.closed, result.unchanged) == (0, 0, 1, 1)
    by_id = {r["external_id"]: r for r in await rows(conn)}
    assert by_id["1"]["closed_at"] is not None
    assert by_id["2"]["closed_at"] is None


async def test_a_returning_posting_is_reopened(server: BoardServer,
                                               conn: aiosqlite.Connection) -> None:
    board = gh(server)
    server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "A")]))
    await fetch(conn, Sources(boards=(board,)))
    [first] = await rows(conn)
    server.set("/gh/acme", greenhouse_board([]))                     # an empty board
    assert (await fetch(conn, Sources(boards=(board,))))["greenhouse:acme"].closed == 1
    server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "A")]))
    result = (await fetch(conn, Sources(boards=(board,))))["greenhouse:acme"]
    assert (result.new, result.updated, result.reopened) == (0, 1, 1)
    [again] = await rows(conn)
    assert again["id"] == first["id"]
    assert again["closed_at"] is None
    assert again["first_seen"] == first["first_seen"]


async def test_the_same_job_twice_on_one_board_is_stored_once(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    job = greenhouse_job(1, "Senior Engineer")
    server.set("/gh/acme", greenhouse_board([job, job, greenhouse_job(2, "Other")]))
    result = (await fetch(conn, Sources(boards=(gh(server),))))["greenhouse:acme"]
    assert result.new == 2
    assert [r["external_id"] for r in await rows(conn)] == ["1", "2"]


async def test_the_same_job_id_on_two_boards_is_two_postings(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "A")]))
    server.set("/gh/bolt", greenhouse_board([greenhouse_job(1, "A")]))
    await fetch(conn, Sources(boards=(gh(server), gh(server, "/gh/bolt", "bolt"))))
    assert len(await rows(conn)) == 2


async def test_a_changed_posting_is_updated_and_an_unchanged_one_only_seen(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    board = gh(server)
    server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "Engineer"),
                                             greenhouse_job(2, "Designer")]))
    await fetch(conn, Sources(boards=(board,)))
    before = {r["external_id"]: r for r in await rows(conn)}
    server.set("/gh/acme", greenhouse_board([
        greenhouse_job(1, "Staff Engineer", content_html="<p>New text.</p>"),
        greenhouse_job(2, "Designer")]))
    result = (await fetch(conn, Sources(boards=(board,))))["greenhouse:acme"]
    assert (result.updated, result.unchanged) == (1, 1)
    after = {r["external_id"]: r for r in await rows(conn)}
    assert (after["1"]["title_level"], after["1"]["description"]) == ("staff", "New text.")
    assert after["2"]["description"] == before["2"]["description"]
    assert after["2"]["last_seen"] > before["2"]["last_seen"]
    hashes = await conn.execute_fetchall(
        "SELECT description_hash(description) FROM postings ORDER BY id")
    assert hashes[0][0] == store.description_hash("New text.")


def feed_item(job_id: int, title: str = "Senior Engineer", token: str = "acme") -> Item:
    return Item(f"guid-{job_id}", title, f"https://boards.greenhouse.io/{token}/jobs/{job_id}"
                f"?utm_source=feed", blurb_html="<p>A <b>short</b> blurb.</p>")


@pytest.mark.parametrize("render", [rss, atom, lambda items: json.dumps(json_feed(items))],
                         ids=["rss", "atom", "json-feed"])
async def test_feed_blurb_is_replaced_by_ats_prose(server: BoardServer,
                                                   conn: aiosqlite.Connection, render) -> None:
    server.set("/feed", render([feed_item(42)]))
    server.set("/gh/acme", greenhouse_board([greenhouse_job(42, "Senior Engineer",
                                                            content_html="<p>Full prose.</p>")]))
    feed = Feed("jobs", server.url("/feed"))
    board = gh(server)
    sources = Sources(boards=(board,), feeds=(feed,))
    result = (await fetch(conn, sources, only="jobs"))["feed:jobs"]
    assert result.new == 1
    [blurb] = await rows(conn)
    assert (blurb["source"], blurb["token"], blurb["external_id"]) == ("greenhouse", "acme", "42")
    assert (blurb["description"], blurb["description_source"]) == ("A short blurb.", "feed")
    assert blurb["company"] == "Acme"                # the configured board's company
    result = (await fetch(conn, sources, only="greenhouse:acme"))["greenhouse:acme"]
    assert (result.new, result.updated) == (0, 1)
    [prose] = await rows(conn)
    assert prose["id"] == blurb["id"]
    assert (prose["description"], prose["description_source"]) == ("Full prose.", "ats")
    # A later feed fetch never puts the blurb back.
    await fetch(conn, sources, only="jobs")
    [still] = await rows(conn)
    assert (still["description"], still["description_source"]) == ("Full prose.", "ats")


async def test_feed_items_without_an_ats_link_live_on_the_feed(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    server.set("/feed", rss([Item("x-1", "Staff Engineer", "https://example.org/jobs/1",
                                  author="Dove")]))
    await fetch(conn, Sources(feeds=(Feed("jobs", server.url("/feed")),)))
    [row] = await rows(conn)
    assert (row["source"], row["token"], row["external_id"]) == ("feed", "jobs", "x-1")
    assert (row["company"], row["title_level"]) == ("Dove", "staff")


async def test_a_blurb_the_feed_drops_is_closed_and_reopened_when_back(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    sources = Sources(feeds=(Feed("jobs", server.url("/feed")),))
    server.set("/feed", rss([feed_item(1), Item("x", "Designer", "https://example.org/x")]))
    await fetch(conn, sources)
    server.set("/feed", rss([]))
    assert (await fetch(conn, sources))["feed:jobs"].closed == 2
    assert all(r["closed_at"] for r in await rows(conn))
    server.set("/feed", rss([feed_item(1), Item("x", "Designer", "https://example.org/x")]))
    result = (await fetch(conn, sources))["feed:jobs"]
    assert (result.new, result.reopened) == (0, 2)
    assert not any(r["closed_at"] for r in await rows(conn))


async def test_once_its_board_was_fetched_a_feed_neither_closes_nor_reopens_a_job(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    feed, board = Feed("jobs", server.url("/feed")), gh(server)
    sources = Sources(boards=(board,), feeds=(feed,))
    server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "A")]))
    server.set("/feed", rss([feed_item(1)]))
    await fetch(conn, sources)
    server.set("/feed", rss([]))                         # the feed forgets it: still open
    await fetch(conn, sources, only="jobs")
    [row] = await rows(conn)
    assert row["closed_at"] is None
    server.set("/gh/acme", greenhouse_board([]))         # the board closes it
    server.set("/feed", rss([feed_item(1)]))             # a stale feed cannot reopen it
    await fetch(conn, sources)
    [row] = await rows(conn)
    assert row["closed_at"] is not None
