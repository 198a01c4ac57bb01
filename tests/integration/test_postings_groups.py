"""One posting per job: real boards on 127.0.0.1, fetched, grouped, judged once, listed once."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
from postings_world import LEDGER, MOBILE, TITLE, World, gh_job, rok_job
from samejob_samples import BENEFITS, ROLES
from servers.boards import BoardServer

from jobtracker import applications, store
from jobtracker.config import Config, Profile
from jobtracker.postings import groups, upsert
from jobtracker.ranking import scoring
from jobtracker.ranking.matches import load_matches
from jobtracker.sources import NormalizedPosting
from jobtracker.tasks import Context
from jobtracker.tasks.judge import JudgeTask
from jobtracker.tasks.level import LevelTask

PROFILE = Profile(prose="Senior backend engineer. Python, PostgreSQL.",
                  levels=("senior",), locations=("remote", "berlin"), exists=True)


JUDGE = JudgeTask()


def ctx(now: str = "2026-10-01T00:00:00Z") -> Context:
    return Context(home=Path("/nonexistent"), config=Config(), profile=PROFILE, now=now)


async def leads(conn: aiosqlite.Connection) -> dict[str, int | None]:
    """external id -> the external id of its leader (None: it leads)."""
    rows = await conn.execute_fetchall(
        "SELECT p.external_id, l.external_id FROM postings AS p "
        "LEFT JOIN postings AS l ON l.id = p.lead_id")
    return {row[0]: row[1] for row in rows}


async def posting_id(conn: aiosqlite.Connection, external_id: str) -> int:
    row = await (await conn.execute(
        "SELECT id FROM postings WHERE external_id = ?", (external_id,))).fetchone()
    return int(row[0])


async def judge_and_score(conn: aiosqlite.Connection) -> int:
    units = await JUDGE.pending(conn, ctx())
    async with store.write(conn):
        for unit in units:
            result = JUDGE.parse(unit, {"verdict": "good", "reasons": ["Python"], "meets": [],
                                        "misses": []}, ctx())
            await JUDGE.apply(conn, unit, result, ctx(), "test-model")
        await scoring.score_postings(conn, PROFILE, ctx().now)
    return len(units)


async def test_aggregator_item_and_ats_posting_are_one_job(
        server: BoardServer, db: Path, conn: aiosqlite.Connection) -> None:
    world = World(server)
    world.serve(gh=[gh_job(11)], rok=[rok_job("901", LEDGER + "\n\nVia Remote OK: link")])
    await world.fetch(conn)
    assert await leads(conn) == {"11": None, "901": "11"}
    # Judged once: the member is in no task's queue.
    assert await JUDGE.count(conn, ctx()) == 1
    assert await LevelTask().count(conn, ctx()) == 0
    assert await judge_and_score(conn) == 1
    found = await load_matches(db, PROFILE)
    assert [m.id for m in found] == [await posting_id(conn, "11")]
    match = found[0]
    assert match.url == "https://boards.greenhouse.io/acme/jobs/11"
    assert match.also_on == ["https://remoteOK.com/remote-jobs/remote-901"]
    assert match.reposted is None
    data = match.to_json()
    for key in ("id", "score", "verdict", "company", "title", "location", "url", "status"):
        assert key in data
    assert data["also_on"] == match.also_on


async def test_the_level_task_reads_a_group_once(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    world = World(server)
    # "Backend Engineer" names no level: the level task would read each posting.
    world.serve(gh=[gh_job(11, title="Backend Engineer")],
                rok=[rok_job("901", title="Backend Engineer"),
                     rok_job("904", MOBILE, title="Backend Engineer")])
    await world.fetch(conn)
    assert await leads(conn) == {"11": None, "901": "11", "904": None}
    units = await LevelTask().pending(conn, ctx())
    assert sorted(unit.data["posting_id"] for unit in units) == sorted(
        [await posting_id(conn, "11"), await posting_id(conn, "904")])
    assert await LevelTask().count(conn, ctx()) == 2


async def test_same_title_at_another_company_is_not_merged(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    world = World(server)
    world.serve(gh=[gh_job(11)], rok=[rok_job("902", company="Bolt")])
    await world.fetch(conn)
    assert await leads(conn) == {"11": None, "902": None}


async def test_another_job_under_the_same_title_is_not_merged(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    world = World(server)
    world.serve(gh=[gh_job(11)], rok=[rok_job("903", MOBILE)])
    await world.fetch(conn)
    assert await leads(conn) == {"11": None, "903": None}
    assert await JUDGE.count(conn, ctx()) == 2


async def test_one_board_listing_the_text_twice_at_once_is_two_openings(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    world = World(server)
    world.serve(gh=[gh_job(11), gh_job(12)], rok=[])
    await world.fetch(conn)
    assert await leads(conn) == {"11": None, "12": None}


async def test_a_repost_keeps_verdict_application_and_history(
        server: BoardServer, db: Path, conn: aiosqlite.Connection) -> None:
    world = World(server)
    world.serve(gh=[gh_job(11)], rok=[])
    await world.fetch(conn)
    await judge_and_score(conn)
    first = await posting_id(conn, "11")
    async with store.write(conn):
        await applications.set_status(conn, "applied", "2026-09-02T00:00:00Z",
                                      applications.HAND, posting_id=first)
    # The job closes, and comes back under a new id with its date line edited.
    world.serve(gh=[], rok=[])
    await world.fetch(conn)
    assert await load_matches(db, PROFILE) == []
    world.serve(gh=[gh_job(12, LEDGER + "\n\nApply by 30 November.")], rok=[])
    await world.fetch(conn)
    assert await leads(conn) == {"11": None, "12": "11"}
    assert await JUDGE.count(conn, ctx()) == 0          # the verdict stands: no new question
    found = await load_matches(db, PROFILE)
    assert [(m.id, m.status, m.verdict) for m in found] == [(first, "applied", "good")]
    assert found[0].url == "https://boards.greenhouse.io/acme/jobs/12"
    assert found[0].reposted == "2026-09-05"     # the third fetch (a day per board)
    history = await conn.execute_fetchall(
        "SELECT COUNT(*) FROM applications WHERE posting_id = ?", (first,))
    assert history[0][0] == 1


async def test_a_closed_job_shows_its_repost_before_an_aggregator_copy(
        server: BoardServer, db: Path, conn: aiosqlite.Connection) -> None:
    """Back under a new id on its board and copied by an aggregator a day later: the
    employer's page is the one shown, the copy is listed beside it."""
    world = World(server)
    world.serve(gh=[gh_job(11)], rok=[])
    await world.fetch(conn)
    await judge_and_score(conn)
    world.serve(gh=[], rok=[])
    await world.fetch(conn)
    world.serve(gh=[gh_job(12)], rok=[rok_job("901")])
    await world.fetch(conn)
    assert await leads(conn) == {"11": None, "12": "11", "901": "11"}
    (match,) = await load_matches(db, PROFILE)
    assert match.url == "https://boards.greenhouse.io/acme/jobs/12"
    assert match.reposted == "2026-09-05"
    assert match.also_on == ["https://remoteOK.com/remote-jobs/remote-901"]


async def test_a_repost_listed_beside_the_old_posting_joins_when_the_old_one_closes(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    world = World(server)
    world.serve(gh=[gh_job(11)], rok=[])
    await world.fetch(conn)
    world.serve(gh=[gh_job(11), gh_job(12)], rok=[])
    await world.fetch(conn)
    assert await leads(conn) == {"11": None, "12": None}
    world.serve(gh=[gh_job(12)], rok=[])
    await world.fetch(conn)
    assert await leads(conn) == {"11": None, "12": "11"}
    row = await (await conn.execute(
        "SELECT job_open FROM postings WHERE external_id = '11'")).fetchone()
    assert row[0] == 1       # closed itself, but it stands for the open job


async def test_split_by_hand_keeps_postings_apart_on_later_fetches(
        server: BoardServer, db: Path, conn: aiosqlite.Connection) -> None:
    world = World(server)
    world.serve(gh=[gh_job(11)], rok=[rok_job("901")])
    await world.fetch(conn)
    member = await posting_id(conn, "901")
    async with store.write(conn):
        done = await groups.split(conn, member)
    assert (done.leader, done.rest_leader) == (await posting_id(conn, "11"),) * 2
    assert await leads(conn) == {"11": None, "901": None}
    # A changed text is looked at again; the split still holds.
    world.serve(gh=[gh_job(11, LEDGER + "\n\nNew line.")], rok=[rok_job("901")])
    await world.fetch(conn)
    assert await leads(conn) == {"11": None, "901": None}
    assert await JUDGE.count(conn, ctx()) == 2


async def test_splitting_the_leader_leaves_the_rest_together(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    world = World(server)
    world.serve(gh=[gh_job(11)],
                rok=[rok_job("901"), rok_job("902", title=TITLE)])
    await world.fetch(conn)
    assert await leads(conn) == {"11": None, "901": "11", "902": "11"}
    async with store.write(conn):
        await groups.split(conn, await posting_id(conn, "11"))
    assert await leads(conn) == {"11": None, "901": None, "902": "901"}


class _Counts:
    new = updated = reopened = closed = unchanged = 0


def _normalized(external_id: str, text: str, company: str = "Acme") -> NormalizedPosting:
    return NormalizedPosting(external_id=external_id, title=TITLE, company=company,
                             url=f"https://x.test/{external_id}", description=text)


async def _store(conn: aiosqlite.Connection, token: str, *items: NormalizedPosting) -> None:
    """One board's listing, as fetch stores it, without the pass that runs after."""
    async with store.write(conn):
        board = await upsert.ensure_board(conn, "greenhouse", token, "Acme", configured=True)
        await upsert.apply_board(conn, groups.BoardGroups(conn, board), "Acme", items,
                                 "2026-10-01T00:00:00Z", _Counts())


async def _queued(conn: aiosqlite.Connection) -> list[int]:
    return [row[0] for row in await conn.execute_fetchall(
        "SELECT posting_id FROM grouping_todo ORDER BY posting_id")]


async def test_a_new_posting_is_stored_in_its_group_and_not_queued(
        conn: aiosqlite.Connection) -> None:
    """A board's new postings are compared as they are stored: the copy is written
    pointing at its leader (no pass, no second write of its row)."""
    await _store(conn, "acme", _normalized("11", LEDGER), _normalized("12", MOBILE))
    await _store(conn, "jobs", _normalized("901", LEDGER + "\n\nVia Jobs: link"),
                 _normalized("902", "Something else entirely " * 10, company="Bolt"))
    assert await _queued(conn) == []
    assert await leads(conn) == {"11": None, "12": None, "901": "11", "902": None}
    rows = await conn.execute_fetchall(
        "SELECT external_id, job_open FROM postings ORDER BY external_id")
    assert [tuple(r) for r in rows] == [("11", 1), ("12", 1), ("901", 0), ("902", 1)]


async def test_a_near_copy_joins_one_opening_and_leaves_the_two_apart(
        conn: aiosqlite.Connection) -> None:
    """One board listing the text twice is two openings (two groups); a copy elsewhere
    is a copy of the first: it joins that one, and the two openings stay two, now and
    when the copy changes and the pass looks at it again."""
    await _store(conn, "acme", _normalized("11", LEDGER), _normalized("12", LEDGER))
    await _store(conn, "jobs", _normalized("901", LEDGER))
    assert await leads(conn) == {"11": None, "12": None, "901": "11"}
    assert await _queued(conn) == []
    await _store(conn, "jobs", _normalized("901", LEDGER + "\n\nVia Jobs: link"))
    assert await _queued(conn) == [await posting_id(conn, "901")]
    async with store.write(conn):
        await groups.assign(conn)
    assert await leads(conn) == {"11": None, "12": None, "901": "11"}


async def test_a_new_posting_similar_to_two_groups_is_left_to_the_pass(
        conn: aiosqlite.Connection) -> None:
    """A text that is no near copy but the same job as two groups (an aggregator that
    dropped the company's introduction) joins the first, and the pass merges the
    second into it, as it would have without placing."""
    await _store(conn, "acme", _normalized("11", LEDGER))
    await _store(conn, "jobs", _normalized("12", LEDGER))
    async with store.write(conn):                  # apart (say a wrong split, undone)
        await groups.split(conn, await posting_id(conn, "12"))
        await conn.execute("DELETE FROM postings_apart")
    assert await leads(conn) == {"11": None, "12": None}
    shortened = f"{ROLES['ledger']}\n\n{BENEFITS}"
    await _store(conn, "feed", _normalized("801", shortened))
    assert await leads(conn) == {"11": None, "12": None, "801": "11"}
    assert await _queued(conn) == [await posting_id(conn, "801")]
    async with store.write(conn):
        await groups.assign(conn)
    assert await leads(conn) == {"11": None, "12": "11", "801": "11"}
    assert await _queued(conn) == []


async def test_a_new_posting_joins_a_group_through_any_of_its_members(
        conn: aiosqlite.Connection) -> None:
    """Placing reads one text per group first (its oldest candidate); a group whose
    first text differs is still joined through another member that matches."""
    await _store(conn, "acme", _normalized("11", LEDGER))
    await _store(conn, "feed", _normalized("801", MOBILE))
    async with store.write(conn):   # a group whose members differ (joined by hand, say)
        await conn.execute("UPDATE postings SET lead_id = ?, job_open = 0 WHERE id = ?",
                           (await posting_id(conn, "11"), await posting_id(conn, "801")))
    await _store(conn, "jobs", _normalized("901", MOBILE + "\n\nVia Jobs: link"))
    assert await leads(conn) == {"11": None, "801": "11", "901": "11"}
    assert await _queued(conn) == []


async def test_a_posting_stored_without_its_key_is_queued_and_grouped(
        conn: aiosqlite.Connection) -> None:
    """A writer that knows nothing of grouping (no job_key) still gets its rows grouped:
    the schema queues them, and the pass makes the key."""
    await _store(conn, "acme", _normalized("11", LEDGER))
    await _store(conn, "jobs")
    async with store.write(conn):
        await conn.execute(
            "INSERT INTO postings (board_id, external_id, company, title, description, "
            "first_seen, last_seen) VALUES (2, 'raw', 'Acme Inc', ?, ?, 't', 't')",
            (TITLE, LEDGER))
        assert await _queued(conn) == [await posting_id(conn, "raw")]
        await groups.assign(conn)
    assert await leads(conn) == {"11": None, "raw": "11"}


async def test_a_fetch_groups_what_another_writer_left_even_when_nothing_changed(
        server: BoardServer, conn: aiosqlite.Connection) -> None:
    """Boards whose listing left the pass nothing do not run it; the fetch still runs
    it once, as its first board is written, for rows other writers put on the work
    list."""
    world = World(server)
    world.serve(gh=[gh_job(11)], rok=[])
    await world.fetch(conn)
    async with store.write(conn):               # on a board this fetch does not read
        other = await upsert.ensure_board(conn, "lever", "other", "Acme", configured=False)
        await conn.execute(
            "INSERT INTO postings (board_id, external_id, company, title, description, "
            "first_seen, last_seen) VALUES (?, 'raw', 'Acme Inc', ?, ?, 't', 't')",
            (other, TITLE, LEDGER))
    await world.fetch(conn)                     # the same listings: nothing changed
    assert await leads(conn) == {"11": None, "raw": "11"}
    assert await _queued(conn) == []


def test_the_table_says_reposted_and_never_cuts_the_note() -> None:
    from jobtracker.cli.matches import format_table
    from jobtracker.ranking.matches import Match
    match = Match(id=1, score=0.9, verdict="good", company="Acme", title="X" * 80,
                  location="Berlin", url="https://example.org/12", status="applied",
                  stale=False, parts={}, reposted="2026-09-05")
    line = format_table([match]).splitlines()[1]
    assert "(reposted 2026-09-05)" in line and "https://example.org/12" in line
