"""Posting signals (jobtracker/ranking/signals.py): reposts, days open, own board, the
same text under other employers and the apply page, in `matches --json`, the table and
the `filters.signals` rules — all derived from the postings, nothing stored."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path

import pytest

from jobtracker import cli, store
from jobtracker.config import ConfigError, load_profile
from jobtracker.ranking import scoring, signals
from jobtracker.workspace import Workspace
from tests import matches_seed
from tests.matches_seed import NOW, matches_json

seeded = matches_seed.seeded
TEXT = "Senior Platform Engineer: Python, Kubernetes."


async def _more(home: Path) -> None:
    """Beside the seeded five: a repost of Acme's job on its board, an aggregator's copy
    of Bolt's, and two aggregator-only jobs whose text is the same under two names."""
    profile = load_profile(home / "profile.yaml")
    async with store.connect(home / "jobtracker.db") as conn, store.write(conn):
        await conn.execute("INSERT INTO boards (id, source, token, company, aggregator) "
                           "VALUES (2, 'feed', 'copies', '', 1)")
        rows = [
            (6, 1, "Acme", "Senior Backend Engineer", "https://jobs.example/6",
             "Senior Backend Engineer: Python.", 1, "2026-10-01T00:00:00Z"),
            (7, 2, "Bolt", "Staff Engineer", "https://jobs.copycat.example/7",
             "Staff Engineer: Python.", 2, NOW),
            (8, 2, "Fjord", "Senior Platform Engineer", "https://jobs.copycat.example/8",
             TEXT, None, NOW),
            (9, 2, "Gale Staffing", "Senior Platform Engineer",
             "https://careers.galestaffing.example/9", TEXT, None, NOW),
        ]
        for pid, board, company, title, url, text, lead, seen in rows:
            await conn.execute(
                "INSERT INTO postings (id, board_id, external_id, company, title, location, "
                "remote, url, description, title_level, first_seen, last_seen, lead_id) "
                "VALUES (?, ?, ?, ?, ?, 'Berlin', 0, ?, ?, 'senior', ?, ?, ?)",
                (pid, board, f"e{pid}", company, title, url, text, seen, seen, lead))
            if lead is None:
                await conn.execute(
                    "INSERT INTO rankings (posting_id, unit_key, prose_hash, description_hash, "
                    "verdict, reasons, model, ranked_at) VALUES (?, 'k', ?, ?, 'strong', "
                    "'[\"r\"]', 'm', ?)", (pid, profile.prose_hash, store.description_hash(text),
                                          NOW))
        await scoring.score_postings(conn, profile, NOW)


@pytest.fixture
def world(seeded: Workspace) -> Workspace:
    asyncio.run(_more(seeded.home))
    return seeded


def test_each_signal_in_matches_json(world: Workspace,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    by_id = {m["id"]: m["signals"] for m in matches_json(world, capsys)}
    assert by_id[1]["reposts"] == 1                # posting 6: a new id on Acme's board
    assert by_id[2]["reposts"] == 0                # a copy elsewhere is no repost
    assert (by_id[1]["own_board"], by_id[2]["own_board"]) == (True, True)
    assert (by_id[8]["own_board"], by_id[9]["own_board"]) == (False, False)
    assert (by_id[8]["same_text"], by_id[9]["same_text"]) == (1, 1)
    assert by_id[1]["same_text"] == 0
    assert by_id[1]["apply_page"] == "company"     # the company's own board's page
    assert by_id[8]["apply_page"] == "elsewhere"   # an aggregator's page
    assert by_id[9]["apply_page"] == "company"     # a host that names the company
    assert all(isinstance(s["days_open"], int) and s["days_open"] >= 0
               for s in by_id.values())


def test_the_table_says_what_is_worth_a_look_under_the_match(
        world: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--home", str(world.home), "matches"]) == 0
    lines = capsys.readouterr().out.splitlines()
    fjord = next(i for i, line in enumerate(lines) if "Fjord" in line)
    assert lines[fjord + 1].strip() == ("only on aggregators, same text at 1 other "
                                        "employer(s), apply page not the company's")
    acme = next(i for i, line in enumerate(lines) if " Acme " in line)
    assert lines[acme + 1].strip() == "reposted 1x"


def _profile(ws: Workspace, filters: str) -> None:
    path = ws.home / "profile.yaml"
    path.write_text(path.read_text(encoding="utf-8") + filters, encoding="utf-8")


def test_the_signal_filters_keep_postings_out_and_say_why(
        world: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    _profile(world, "\nfilters:\n  signals:\n    max_reposts: 0\n    own_board: required\n")
    ids = {m["id"] for m in matches_json(world, capsys)}
    assert 1 not in ids and 8 not in ids and 9 not in ids
    assert 2 in ids
    assert cli.main(["--home", str(world.home), "matches", "--filtered", "--json"]) == 0
    caught = {p["id"]: p["filtered_by"] for p in json.loads(capsys.readouterr().out)}
    assert caught[1] == [{"rule": "reposts", "reason": "reposted 1 time(s), more than 0"}]
    assert caught[8] == [{"rule": "own_board",
                          "reason": "only on aggregators and in job alerts"}]


@pytest.mark.parametrize(("value", "message"), [
    ("{max_reposts: -1}", "filters.signals.max_reposts: must be a whole number from 0"),
    ("{own_board: maybe}", "filters.signals.own_board: must be one of: required, any"),
    ("{reposts: 2}", "filters.signals.reposts: unknown key"),
])
def test_a_wrong_signal_filter_names_its_line_and_field(ws: Workspace, value: str,
                                                        message: str) -> None:
    _profile(ws, f"\nfilters:\n  signals: {value}\n")
    with pytest.raises(ConfigError, match=r"profile\.yaml:") as caught:
        load_profile(ws.home / "profile.yaml")
    assert message in str(caught.value)


def test_the_reposts_sql_and_its_python_twin_agree(tmp_path: Path) -> None:
    """Random groups over three boards: the filter's SQL and the list's count agree."""
    db = tmp_path / "jobtracker.db"
    asyncio.run(store.check_usable(db))
    rng = random.Random(43)
    with sqlite3.connect(db) as conn:
        conn.create_function("description_hash", 1, store.description_hash,
                             deterministic=True)
        conn.executemany("INSERT INTO boards (id, source, token) VALUES (?, 'greenhouse', ?)",
                         [(b, f"b{b}") for b in (1, 2, 3)])
        pid = 0
        leaders = []
        for _ in range(60):
            pid += 1
            leader = pid
            leaders.append(leader)
            rows = [(leader, rng.randint(1, 3), None)]
            for _ in range(rng.randint(0, 5)):
                pid += 1
                rows.append((pid, rng.randint(1, 3), leader))
            conn.executemany(
                "INSERT INTO postings (id, board_id, external_id, title, first_seen, last_seen,"
                " lead_id) VALUES (?, ?, ?, 't', ?, ?, ?)",
                [(i, b, f"e{i}", NOW, NOW, lead) for i, b, lead in rows])
        conn.row_factory = sqlite3.Row
        for leader in leaders:
            by_sql = conn.execute(f"SELECT {signals.REPOSTS_SQL} FROM postings AS p "
                                  "WHERE p.id = ?", (leader,)).fetchone()[0]
            board = conn.execute("SELECT board_id FROM postings WHERE id = ?",
                                 (leader,)).fetchone()[0]
            members = conn.execute("SELECT id, board_id FROM postings WHERE lead_id = ? "
                                   "ORDER BY id DESC", (leader,)).fetchall()
            assert by_sql == signals.reposts_in(board, members), leader


@pytest.mark.parametrize(("url", "company", "own", "expected"), [
    ("https://boards.greenhouse.io/acme/jobs/1", "Acme", False, "ats"),
    ("https://jobs.lever.co/acme/1", "Acme", False, "ats"),
    ("https://evil-lever.co/acme/1", "Acme", False, "elsewhere"),
    ("https://careers.acme-robotics.example/1", "Acme Robotics, Inc.", False, "company"),
    ("https://jobs.example/1", "Acme", True, "company"),
    ("https://www.linkedin.com/jobs/view/1/", "Acme", False, "elsewhere"),
    ("", "Acme", False, "elsewhere"),
])
def test_whose_page_it_is(url: str, company: str, own: bool, expected: str) -> None:
    assert signals.apply_page(url, company, own) == expected
