"""`jobtracker proposals`: list, --json, show, accept, reject, undo, as a user runs them."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from conftest import run_cli

from jobtracker import proposals, store
from jobtracker.workspace import Workspace

NOW = "2026-09-12T12:00:00Z"
KEYS = {"id", "kind", "task", "state", "posting", "summary"}


async def _seed(db: Path) -> None:
    """Acme (applied) with a rejection and an interview proposal; Bolt's posting with
    an offer proposal and no application; one proposal whose summary is hostile."""
    async with store.connect(db) as conn, store.write(conn):
        await conn.execute(
            "INSERT INTO boards (id, source, token, company) VALUES (1, 'greenhouse', 'x', 'X')")
        for pid, company in ((1, "Acme"), (2, "Bolt")):
            await conn.execute(
                "INSERT INTO postings (id, board_id, external_id, company, title, first_seen,"
                " last_seen) VALUES (?, 1, ?, ?, 'Engineer', ?, ?)",
                (pid, str(pid), company, NOW, NOW))
        await conn.execute(
            "INSERT INTO applications (id, posting_id, company, status, created_at, "
            "updated_at) VALUES (1, 1, 'Acme', 'applied', ?, ?)", (NOW, NOW))
        for unit, posting, company, target, evidence in (
                ("m:rej", 1, "Acme", "rejected", "we will not move forward"),
                ("m:inv", 1, "Acme", "interviewing", "we would like to invite you"),
                ("m:offer", 2, "Bolt", "offer", "we are happy to offer you the role")):
            await proposals.create(
                conn, kind="status", task="inbox", unit_key=unit, now=NOW, posting_id=posting,
                summary=f"{company}: → {target} ({evidence})",
                payload={"to_status": target, "from_status": None, "company": company,
                         "evidence": evidence})


@pytest.fixture
def home(ws: Workspace) -> Path:
    asyncio.run(_seed(ws.db))
    return ws.home


def _status(home: Path, posting: int) -> str | None:
    async def read() -> str | None:
        async with store.connect(home / "jobtracker.db") as conn:
            row = await (await conn.execute(
                "SELECT status FROM applications WHERE posting_id = ?", (posting,))).fetchone()
            return row[0] if row else None
    return asyncio.run(read())


def _listed(home: Path) -> dict[int, dict]:
    done = run_cli("proposals", "list", "--json", "--home", str(home))
    assert done.returncode == 0, done.stderr
    return {item["id"]: item for item in json.loads(done.stdout)}


def test_list_json_has_the_contract_keys(home: Path) -> None:
    items = _listed(home)
    assert len(items) == 3
    for item in items.values():
        assert set(item) >= KEYS
        assert item["kind"] == "status" and item["task"] == "inbox"
        assert item["state"] == "pending"
    assert {item["posting"] for item in items.values()} == {1, 2}


@pytest.mark.parametrize("args", [
    ["--home", "{home}", "proposals"],
    ["proposals", "--home", "{home}", "--json"],
    ["proposals", "--json", "list", "--home", "{home}"],
])
def test_home_and_json_work_before_or_after_the_action(home: Path, args: list[str]) -> None:
    done = run_cli(*[a.format(home=home) for a in args])
    assert done.returncode == 0, done.stderr
    if "--json" in args:
        assert len(json.loads(done.stdout)) == 3
    else:
        assert "Acme: → rejected" in done.stdout and "3 pending" in done.stdout


def test_show_prints_one_proposal_with_its_evidence(home: Path) -> None:
    done = run_cli("proposals", "show", "1", "--home", str(home))
    assert done.returncode == 0, done.stderr
    assert "proposal 1: pending" in done.stdout
    assert "we will not move forward" in done.stdout
    as_json = json.loads(run_cli("proposals", "show", "1", "--json", "--home",
                                 str(home)).stdout)
    assert as_json["id"] == 1 and as_json["payload"]["to_status"] == "rejected"
    missing = run_cli("proposals", "show", "99", "--home", str(home))
    assert missing.returncode == 2 and "99" in missing.stderr


def test_accept_applies_and_makes_the_contradicting_proposal_stale(home: Path) -> None:
    done = run_cli("proposals", "accept", "2", "--home", str(home))   # interviewing
    assert done.returncode == 0, done.stderr
    assert "accepted 2" in done.stdout
    assert _status(home, 1) == "interviewing"
    items = _listed(home)
    assert items[2]["state"] == "accepted" and items[1]["state"] == "pending"
    # Bolt has no application: accepting its offer creates it.
    assert _status(home, 2) is None
    assert run_cli("proposals", "accept", "3", "--home", str(home)).returncode == 0
    assert _status(home, 2) == "offer"


def test_accepting_a_stale_proposal_exits_2_naming_it(home: Path) -> None:
    # Accepting `rejected` makes the other status proposal about the application moot:
    # it is resolved with the accept (named in its message), and undone with it.
    done = run_cli("proposals", "accept", "1", "--home", str(home))
    assert done.returncode == 0 and "resolved 2 (" in done.stdout, done.stdout
    assert _listed(home)[2]["state"] == "rejected"
    done = run_cli("proposals", "accept", "2", "--home", str(home))
    assert done.returncode == 2 and "proposal 2 was rejected" in done.stderr
    assert _status(home, 1) == "rejected"
    assert run_cli("proposals", "undo", "--home", str(home)).returncode == 0
    assert (_listed(home)[1]["state"], _listed(home)[2]["state"]) == ("pending", "pending")
    # Stale without an accept to resolve it (the status set by hand): refused, named.
    assert run_cli("status", "1", "rejected", "--home", str(home)).returncode == 0
    assert _listed(home)[2]["state"] == "stale"
    done = run_cli("proposals", "accept", "2", "--home", str(home))
    assert done.returncode == 2
    assert "proposal 2 is stale" in done.stderr


def test_unknown_ids_exit_2_and_decide_nothing(home: Path) -> None:
    done = run_cli("proposals", "accept", "1", "42", "--home", str(home))
    assert done.returncode == 2
    assert "42" in done.stderr
    assert _status(home, 1) == "applied"
    assert _listed(home)[1]["state"] == "pending"


def test_reject_then_undo(home: Path) -> None:
    done = run_cli("proposals", "reject", "1", "3", "--home", str(home))
    assert done.returncode == 0, done.stderr
    items = _listed(home)
    assert (items[1]["state"], items[3]["state"]) == ("rejected", "rejected")
    assert _status(home, 1) == "applied"
    # One command decided both: one undo takes both back, and says so.
    undo = run_cli("proposals", "undo", "--home", str(home))
    assert undo.returncode == 0
    assert "undid rejecting 2 proposals decided together: 1, 3" in undo.stdout
    assert (_listed(home)[1]["state"], _listed(home)[3]["state"]) == ("pending", "pending")


def test_undo_of_an_accept_restores_the_status(home: Path) -> None:
    run_cli("proposals", "accept", "1", "--home", str(home))
    assert _status(home, 1) == "rejected"
    undo = run_cli("proposals", "undo", "--home", str(home))
    assert undo.returncode == 0, undo.stderr
    assert _status(home, 1) == "applied"


def test_empty_workspace_lists_nothing(ws: Workspace) -> None:
    done = run_cli("proposals", "--home", str(ws.home))
    assert done.returncode == 0 and "no proposals" in done.stdout
    assert json.loads(run_cli("proposals", "--json", "--home", str(ws.home)).stdout) == []
    assert "nothing to undo" in run_cli("proposals", "undo", "--home", str(ws.home)).stdout


async def _seed_hostile(db: Path) -> int:
    async with store.connect(db) as conn, store.write(conn):
        return await proposals.create(
            conn, kind="status", task="inbox", unit_key="m:hostile", now=NOW, posting_id=2,
            summary="Bolt: \x1b[2J\x1b]8;;http://e.x\x07click\x1b]8;;\x07 → offer",
            payload={"to_status": "offer", "from_status": None, "company": "Bolt",
                     "evidence": "line one\n\x1b[31mred\x1b[0m line two"})


def test_list_and_show_never_print_escape_sequences(home: Path) -> None:
    """Cleaned on the way in by every task; cleaned again on the way out, whatever the
    route a text took into the database."""
    pid = asyncio.run(_seed_hostile(home / "jobtracker.db"))
    for args in (("proposals", "list"), ("proposals", "show", str(pid))):
        result = run_cli("--home", str(home), *args)
        assert result.returncode == 0, result.stderr
        assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    shown = run_cli("--home", str(home), "proposals", "show", str(pid)).stdout
    assert "line one\n" in shown, "line breaks in a payload's text are kept"


def test_show_marks_the_changed_words_of_a_resume_edit(ws: Workspace) -> None:
    bullet = ("- Built and ran the billing service in Python, handling 40k requests per "
              "second across three regions")

    async def seed() -> None:
        async with store.connect(ws.db) as conn, store.write(conn):
            await proposals.create(
                conn, kind="resume_edit", task="tailor", unit_key="p1:e", now=NOW,
                posting_id=None, summary="add Kafka",
                payload={"original": bullet, "replacement": bullet + " with Kafka",
                         "reason": "the posting asks for Kafka"})

    asyncio.run(seed())
    done = run_cli("proposals", "show", "1", "--home", str(ws.home))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    at = lines.index("  diff")
    assert lines[at + 1:at + 3] == [f"    - {bullet}", f"    + {bullet}{{+ with Kafka+}}"]
