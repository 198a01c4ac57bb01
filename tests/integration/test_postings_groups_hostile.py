"""An aggregator's copy of a job the employer closed: it never reopens the job (with the
user's verdict and status) nor becomes its page. Only the employer's own board listing
it again does."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest
from postings_world import LEDGER, World, gh_job, rok_job
from servers.boards import BoardServer

from jobtracker import applications, store
from jobtracker.ranking.matches import load_matches
from tests.integration.test_postings_groups import PROFILE, judge_and_score, posting_id

COPIES = {
    "exact": lambda: rok_job("901"),
    "via line": lambda: rok_job("902", LEDGER + "\n\nVia Remote OK: apply here"),
    "other company spelling": lambda: rok_job("903", company="ACME Inc"),
    "a date line changed": lambda: rok_job("904", LEDGER + "\n\nPosted 3 days ago."),
}


async def applied_then_closed(world: World, conn: aiosqlite.Connection,
                              rok: list[dict]) -> int:
    world.serve(gh=[gh_job(11)], rok=rok)
    await world.fetch(conn)
    await judge_and_score(conn)
    first = await posting_id(conn, "11")
    async with store.write(conn):
        await applications.set_status(conn, "applied", "2026-09-02T00:00:00Z",
                                      applications.HAND, posting_id=first)
    return first


@pytest.mark.parametrize("copy", sorted(COPIES))
async def test_a_copy_after_the_job_closed_never_reopens_it(
        server: BoardServer, db: Path, conn: aiosqlite.Connection, copy: str) -> None:
    world = World(server)
    await applied_then_closed(world, conn, rok=[])
    world.serve(gh=[], rok=[])
    await world.fetch(conn)
    world.serve(gh=[], rok=[COPIES[copy]()])          # the aggregator copies the old job
    await world.fetch(conn)
    found = await load_matches(db, PROFILE)
    assert all("remoteok" not in (m.url or "").lower() for m in found)
    assert [m.status for m in found] == [], found


@pytest.mark.parametrize("copy", sorted(COPIES))
async def test_a_copy_listed_while_open_does_not_keep_the_closed_job_open(
        server: BoardServer, db: Path, conn: aiosqlite.Connection, copy: str) -> None:
    world = World(server)
    job = COPIES[copy]()
    await applied_then_closed(world, conn, rok=[job])
    world.serve(gh=[], rok=[job])                     # the employer closes it; the copy stays
    await world.fetch(conn)
    assert await load_matches(db, PROFILE) == []


async def test_the_employers_own_repost_still_reopens_it_with_its_page(
        server: BoardServer, db: Path, conn: aiosqlite.Connection) -> None:
    world = World(server)
    first = await applied_then_closed(world, conn, rok=[])
    world.serve(gh=[], rok=[])
    await world.fetch(conn)
    world.serve(gh=[gh_job(12)], rok=[rok_job("901")])
    await world.fetch(conn)
    (match,) = await load_matches(db, PROFILE)
    assert (match.id, match.status) == (first, "applied")
    assert match.url == "https://boards.greenhouse.io/acme/jobs/12"


async def test_a_database_from_before_is_put_right_by_the_migration(tmp_path: Path) -> None:
    """The rule holds for groups stored under the old one: a closed leader kept open by
    a copy on another board is closed by migration 0020, and boards of aggregator
    sources are marked."""
    from jobtracker.store import _split_statements, connect, list_migrations
    from tests.db import raw_connect

    db = tmp_path / "old.db"
    raw = raw_connect(db)
    for version, _, sql in list_migrations():
        if version <= 19:
            for statement in _split_statements(sql):
                raw.execute(statement)
    raw.execute("PRAGMA user_version = 19")
    raw.execute("INSERT INTO boards (id, source, token) VALUES (1, 'greenhouse', 'a'), "
                "(2, 'remoteok', 'all')")
    raw.execute("INSERT INTO postings (id, board_id, external_id, title, first_seen, "
                "last_seen, closed_at) VALUES (1, 1, '11', 't', 'x', 'x', 'y')")
    raw.execute("INSERT INTO postings (id, board_id, external_id, title, first_seen, "
                "last_seen, lead_id) VALUES (2, 2, '901', 't', 'x', 'x', 1)")
    assert raw.execute("SELECT job_open FROM postings WHERE id = 1").fetchone() == (1,)
    raw.commit()
    raw.close()
    async with connect(db) as conn:
        rows = await conn.execute_fetchall("SELECT id, job_open FROM postings ORDER BY id")
        marked = await conn.execute_fetchall("SELECT source, aggregator FROM boards")
    assert [tuple(r) for r in rows] == [(1, 0), (2, 0)]
    assert dict(tuple(r) for r in marked) == {"greenhouse": 0, "remoteok": 1}


async def test_a_job_first_seen_on_an_aggregator_is_led_by_the_companys_board(
        server: BoardServer, db: Path, conn: aiosqlite.Connection) -> None:
    """Copied by Remote OK before the employer's board listed it: the employer's page is
    the job's, and the job stays open after the copy is gone."""
    world = World(server)
    world.serve(gh=[], rok=[rok_job("901")])
    await world.fetch(conn)
    world.serve(gh=[gh_job(11)], rok=[rok_job("901")])
    await world.fetch(conn)
    await judge_and_score(conn)
    (match,) = await load_matches(db, PROFILE)
    assert match.url == "https://boards.greenhouse.io/acme/jobs/11"
    world.serve(gh=[gh_job(11)], rok=[])              # the copy drops off the aggregator
    await world.fetch(conn)
    (match,) = await load_matches(db, PROFILE)
    assert match.url == "https://boards.greenhouse.io/acme/jobs/11"
    world.serve(gh=[], rok=[])                         # and the employer closes it
    await world.fetch(conn)
    assert await load_matches(db, PROFILE) == []
