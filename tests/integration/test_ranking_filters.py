"""profile.yaml's filters end to end: the judge's queue, `matches`, `matches --filtered`,
`work --dry-run`; derived, so editing them re-asks nothing and loses no verdict."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from pathlib import Path

from conftest import run_cli

from jobtracker import runner, store
from jobtracker.clock import iso, now, now_iso
from jobtracker.ranking import prerank, scoring
from jobtracker.tasks.judge import JudgeTask
from jobtracker.workspace import Workspace

PROSE = "prose: Senior backend engineer. Python, distributed systems.\nlevels: [senior]\n"
FILTERS = """\
filters:
  companies: [{name: "Staffing Co", reason: agency}]
  salary_min: {amount: 120000, currency: USD}
  remote: required
  sponsorship: required
  max_age_days: 45
"""
# First seen relative to the clock: `matches` dates max_age_days by the clock's time.
RECENT = iso(now() - timedelta(days=2))
OLD = iso(now() - timedelta(days=200))

# id, company, title, location, remote, salary (max, currency), first seen, text
POSTINGS = [
    (1, "Acme", "Senior Backend Engineer", "Remote", 1, None, RECENT,
     "Python backend, distributed systems."),
    (2, "staffing co ", "Senior Backend Engineer", "Remote", 1, None, RECENT,
     "Python backend for our client."),
    (3, "Bolt", "Senior Backend Engineer", "Remote", 1, (90000, "USD"), RECENT,
     "Python backend."),
    (4, "Crane", "Senior Backend Engineer", "Berlin", 0, None, RECENT, "Python backend."),
    (5, "Dove", "Senior Backend Engineer", "Remote", 1, None, RECENT,
     "Python backend. We do not offer visa sponsorship."),
    (6, "Eel", "Senior Backend Engineer", "Remote", 1, None, OLD, "Python backend."),
    (7, "Fjord", "Senior Backend Engineer", "Remote", 1, (60, "USD"), RECENT,
     "Python backend, an hourly contract."),                 # 60 an hour: 124,800 a year
    (8, "Granite", "Senior Backend Engineer", "Remote", 1, (100000, "EUR"), RECENT,
     "Python backend."),                                     # about 108,000 USD
    (9, "Harbor", "Junior Backend Engineer", "Remote", 1, (1, "USD"), RECENT, "Python."),
]
FILTERED = {2: ["company"], 3: ["salary"], 4: ["remote"], 5: ["sponsorship"], 6: ["age"],
            8: ["salary"]}


def seed(ws: Workspace, profile_text: str) -> None:
    (ws.home / "profile.yaml").write_text(profile_text, encoding="utf-8")

    async def write() -> None:
        async with store.connect(ws.db) as conn:
            async with store.write(conn):
                await conn.execute("INSERT INTO boards (id, source, token) "
                                   "VALUES (1, 'greenhouse', 'x')")
                for pid, company, title, location, remote, salary, seen, text in POSTINGS:
                    high, code = salary or (None, None)
                    await conn.execute(
                        "INSERT INTO postings (id, board_id, external_id, company, title, "
                        "location, remote, url, title_level, salary_max, salary_currency, "
                        "description, first_seen, last_seen, job_key) VALUES (?, 1, ?, ?, ?, ?, "
                        "?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (pid, f"e{pid}", company, title, location, remote,
                         f"https://jobs.example/{pid}",
                         "junior" if title.startswith("Junior") else "senior", high, code,
                         text, seen, seen, f"k{pid}"))
            await prerank.refresh(conn, prerank.workspace_query(ws.home, ws.profile()))
    asyncio.run(write())


def pending(ws: Workspace) -> list[int]:
    async def ask() -> list[int]:
        setup = runner.load_setup(ws)
        async with store.connect(ws.db) as conn:
            return [int(u.subject) for u in await JudgeTask().pending(
                conn, setup.context(now_iso()))]
    return asyncio.run(ask())


def judge_everything(ws: Workspace) -> None:
    """Write a verdict for every open senior posting, as the judge would have."""
    async def write() -> None:
        profile = ws.profile()
        async with store.connect(ws.db) as conn, store.write(conn):
            for pid, *_ in POSTINGS[:8]:
                await conn.execute(
                    "INSERT INTO rankings (posting_id, unit_key, prose_hash, description_hash, "
                    "verdict, reasons, model, ranked_at) SELECT id, 'k', ?, description_hash, "
                    "'good', '[\"r\"]', 'm', 't' FROM postings WHERE id = ?",
                    (profile.prose_hash, pid))
            await scoring.score_postings(conn, profile, now_iso())
    asyncio.run(write())


def test_filtered_postings_are_not_judged(ws: Workspace) -> None:
    seed(ws, PROSE + FILTERS)
    assert sorted(pending(ws)) == [1, 7]


def test_without_filters_every_match_is_judged(ws: Workspace) -> None:
    seed(ws, PROSE)
    assert sorted(pending(ws)) == [1, 2, 3, 4, 5, 6, 7, 8]


def test_matches_filtered_lists_each_with_its_rule(ws: Workspace) -> None:
    seed(ws, PROSE + FILTERS)
    done = run_cli("--home", str(ws.home), "matches", "--filtered", "--json")
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)
    assert {item["id"]: [c["rule"] for c in item["filtered_by"]] for item in listed} == FILTERED
    why = {item["id"]: item["filtered_by"][0]["reason"] for item in listed}
    assert why[2] == "Staffing Co: agency"
    assert "below USD 120,000" in why[3]
    assert why[5] == "says: We do not offer visa sponsorship"
    assert all(item["prerank"] is not None for item in listed)
    table = run_cli("--home", str(ws.home), "matches", "--filtered")
    assert "company: Staffing Co: agency" in table.stdout
    lines = table.stdout.splitlines()
    assert lines[0].split()[:2] == ["id", "prerank"]
    assert [int(line.split()[0]) for line in lines[1:]] == [item["id"] for item in listed]
    # Every column starts where its header does: the rules' text never runs into the URL.
    url_at = lines[0].index("url")
    assert all(line[url_at:].startswith("http") for line in lines[1:]), table.stdout


def test_dry_run_prints_the_filtered_line_before_what_it_would_work(ws: Workspace) -> None:
    seed(ws, PROSE + FILTERS)
    done = run_cli("--home", str(ws.home), "work", "--dry-run")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    line = next(text for text in lines if text.strip().startswith("filtered"))
    assert "6 posting(s) kept from the model" in line
    assert "company 1, salary 2, remote 1, sponsorship 1, age 1" in line
    assert lines[-1].startswith("Would work:")


def test_editing_filters_re_asks_nothing_and_a_posting_back_keeps_its_verdict(
        ws: Workspace) -> None:
    seed(ws, PROSE)
    judge_everything(ws)
    assert pending(ws) == []
    listed = run_cli("--home", str(ws.home), "matches", "--json")
    assert sorted(m["id"] for m in json.loads(listed.stdout)) == [1, 2, 3, 4, 5, 6, 7, 8]
    (ws.home / "profile.yaml").write_text(PROSE + FILTERS, encoding="utf-8")
    assert pending(ws) == []
    kept = json.loads(run_cli("--home", str(ws.home), "matches", "--json").stdout)
    assert sorted(m["id"] for m in kept) == [1, 7]
    filtered = json.loads(run_cli("--home", str(ws.home), "matches", "--filtered",
                                  "--json").stdout)
    assert {item["id"]: item["verdict"] for item in filtered} == dict.fromkeys(FILTERED, "good")
    (ws.home / "profile.yaml").write_text(PROSE, encoding="utf-8")
    assert pending(ws) == []
    back = json.loads(run_cli("--home", str(ws.home), "matches", "--json").stdout)
    assert sorted(m["id"] for m in back) == [1, 2, 3, 4, 5, 6, 7, 8]
    with_prerank = {m["id"]: m["prerank"] for m in back}
    assert all(value is not None for value in with_prerank.values())


def test_the_judge_asks_in_pre_rank_order(ws: Workspace) -> None:
    seed(ws, PROSE)
    order = pending(ws)
    scores = asyncio.run(_scores(ws.db))
    assert order[0] == 1                      # the one that names distributed systems too
    assert [scores[i] for i in order] == sorted(scores[i] for i in order)[::-1]


async def _scores(db: Path) -> dict[int, float]:
    async with store.connect(db) as conn:
        return {int(r[0]): float(r[1]) for r in await conn.execute_fetchall(
            "SELECT posting_id, score FROM preranks")}


def test_no_filters_says_so(ws: Workspace) -> None:
    seed(ws, PROSE)
    done = run_cli("--home", str(ws.home), "matches", "--filtered")
    assert done.returncode == 0 and "no filters in profile.yaml" in done.stdout
