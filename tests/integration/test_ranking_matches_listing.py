"""`jobtracker matches` prints from light rows (ranking/matches.py: MatchRow): `--json`
writes each object field by field with the stored parts as they are, and the table
reads the rows without a Match each. Both must print exactly what the Match objects
print, for every shape a row can take."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from jobtracker import cli, store
from jobtracker.cli.matches import format_table
from jobtracker.contacts.people import company_key
from jobtracker.ranking.matches import json_text, load_listing, load_matches
from jobtracker.workspace import Workspace
from tests import matches_seed

NOW = matches_seed.NOW

# Parts as a store may hold them: scoring.py's own text, one with a letter json.dumps
# escaped, one with a name `why` does not know, one part without points and one with
# points null, a point stored as an integer, and an empty object.
ODD_PARTS = {
    1: None,      # scoring.py's own
    2: json.dumps({"fit": {"basis": "Zürich — “near”", "points": 0.5, "value": 1.0,
                           "weight": 0.5}}, sort_keys=True),
    3: json.dumps({"fit": {"points": 1.0}, "mystery": {"points": 0.25}}, sort_keys=True),
    6: json.dumps({"fit": {"basis": "x", "value": 1}, "remote": {"points": None}}),
    7: json.dumps({"fit": {"points": 1}, "salary": {"points": -0.1}}, sort_keys=True),
    8: "{}",
}

# id, company, title, location, aggregator board, closed
MORE = [
    (6, "Acme", 'Senior "Quoted" \\ Back\tslash Engineer', "Berlin", False, False),
    (7, "Zeta Ltd.", "Senior Engineer, München", "Remote\u00a0EU", False, False),
    (8, "Acme, Inc.", "Senior  Platform   Engineer ", "Berlin\n", True, False),
    (9, "Acme", "Senior Backend Engineer", "Berlin", False, False),   # same text as 1
]


async def _seed(ws: Workspace) -> None:
    await matches_seed._seed(ws.home)
    profile = ws.profile()
    async with store.connect(ws.db) as conn, store.write(conn):
        await conn.execute("INSERT INTO boards (id, source, token, company, aggregator) "
                           "VALUES (2, 'feed', 'copies', '', 1)")
        for pid, company, title, location, copy, closed in MORE:
            description = "Senior Backend Engineer: Python." if pid == 9 else f"{title}: Go."
            await conn.execute(
                "INSERT INTO postings (id, board_id, external_id, company, title, location, "
                "remote, url, description, title_level, first_seen, last_seen, closed_at) "
                "VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, 'senior', ?, ?, ?)",
                (pid, 2 if copy else 1, f"e{pid}", company, title, location,
                 f"https://jobs.example/{pid}", description, NOW, NOW,
                 NOW if closed else None))
            await conn.execute(
                "INSERT INTO rankings (posting_id, unit_key, prose_hash, description_hash, "
                "verdict, reasons, model, ranked_at) VALUES (?, 'k', ?, ?, 'good', '[]', '', ?)",
                (pid, profile.prose_hash, store.description_hash(description), NOW))
            await conn.execute(
                "INSERT INTO scores (posting_id, score, parts, scored_at) VALUES (?, ?, '{}', ?)",
                (pid, 0.5 + pid / 100, NOW))
        for pid, parts in ODD_PARTS.items():
            if parts is not None:
                await conn.execute("UPDATE scores SET parts = ? WHERE posting_id = ?",
                                   (parts, pid))
        await conn.execute("UPDATE scores SET score = 1 WHERE posting_id = 7")
        await conn.execute("UPDATE preranks SET score = 0.125 WHERE posting_id = 1")
        # Groups: a repost of 1 on its board, a company board's copy of the aggregator's 8.
        await conn.execute(
            "INSERT INTO postings (id, board_id, external_id, company, title, location, url, "
            "first_seen, last_seen, lead_id) VALUES (20, 1, 'r1', 'Acme', 'Senior Backend "
            "Engineer', 'Berlin', 'https://jobs.example/20', ?, ?, 1), (21, 1, 'c8', "
            "'Acme', 'Senior Platform Engineer', 'Berlin', 'https://acme.example/21', ?, ?, 8)",
            (NOW, NOW, NOW, NOW))
        # A job alert's card with no description yet.
        await conn.execute(
            "INSERT INTO postings (id, board_id, external_id, company, title, location, url, "
            "title_level, first_seen, last_seen, description_source) VALUES (30, 2, 'a30', "
            "'Card Co', 'Senior Card Engineer', 'Berlin', 'javascript:alert(1)', 'senior', "
            "?, ?, 'alert')", (NOW, NOW))
        await conn.execute(
            "INSERT INTO contacts (source, name, company, company_key, position, line, "
            "imported_at) VALUES ('linkedin', 'Dana Lee', 'ACME inc', ?, 'Staff \"E\"', 2, ?)",
            (company_key("ACME inc"), NOW))
        await conn.execute("INSERT INTO applications (posting_id, company, status, created_at, "
                           "updated_at) VALUES (6, 'Acme', 'applied', ?, ?)", (NOW, NOW))
        await conn.execute("INSERT INTO dismissals (posting_id, reason, note, verdict, "
                           "dismissed_at) VALUES (9, 'company', 'no \x1b[31mthanks', 'good', ?)",
                           (NOW,))


@pytest.fixture
def listed_ws(ws: Workspace) -> Workspace:
    asyncio.run(_seed(ws))
    return ws


@pytest.mark.parametrize("dismissed", [False, True])
def test_the_rows_print_what_the_matches_print(listed_ws: Workspace, dismissed: bool) -> None:
    profile = listed_ws.profile()
    rows = asyncio.run(load_listing(listed_ws.db, profile, dismissed=dismissed,
                                    undescribed=not dismissed, now=NOW))
    matches = asyncio.run(load_matches(listed_ws.db, profile, dismissed=dismissed,
                                       undescribed=not dismissed, now=NOW))
    assert [row.match() for row in rows] == matches
    assert {m.id for m in matches} == ({9} if dismissed else {1, 2, 3, 6, 7, 8, 30})
    assert json_text(rows) == json.dumps([m.to_json() for m in matches], ensure_ascii=False)
    assert format_table(rows, dismissed=dismissed) == format_table(matches, dismissed=dismissed)


def test_odd_parts_keep_their_values_and_why(listed_ws: Workspace) -> None:
    found = {m["id"]: m for m in json.loads(json_text(asyncio.run(load_listing(
        listed_ws.db, listed_ws.profile(), undescribed=True, now=NOW))))}
    assert found[2]["parts"]["fit"]["basis"] == "Zürich — “near”"
    assert found[3]["why"]["mystery"] == 0.25 and found[3]["why"]["verdict"] == 1.0
    assert found[6]["why"]["remote"] is None and found[6]["why"]["verdict"] == 0.0
    assert found[7]["why"]["verdict"] == 1 and found[7]["why"]["salary"] == -0.1
    assert found[7]["score"] == 1.0
    assert found[8]["why"] == dict.fromkeys(found[8]["why"], 0.0) and found[8]["parts"] == {}
    assert found[30]["described"] is False and found[30]["url"] is None
    assert found[8]["url"] == "https://acme.example/21"
    assert found[8]["contacts"]["count"] == 1


def test_the_command_prints_the_rows(listed_ws: Workspace,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    matches = asyncio.run(load_matches(listed_ws.db, listed_ws.profile(), undescribed=True))
    assert cli.main(["--home", str(listed_ws.home), "matches", "--json"]) == 0
    assert capsys.readouterr().out == json.dumps(
        [m.to_json() for m in matches], ensure_ascii=False) + "\n"
    assert cli.main(["--home", str(listed_ws.home), "matches"]) == 0
    assert capsys.readouterr().out == format_table(matches) + "\n"


def test_unreadable_parts_fail_the_read(listed_ws: Workspace, tmp_path: Path) -> None:
    async def spoil() -> None:
        async with store.connect(listed_ws.db) as conn, store.write(conn):
            await conn.execute("UPDATE scores SET parts = '{not json' WHERE posting_id = 1")

    asyncio.run(spoil())
    with pytest.raises(Exception, match=r"(?i)json"):
        asyncio.run(load_listing(listed_ws.db, listed_ws.profile(), now=NOW))
