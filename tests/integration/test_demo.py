"""`jobtracker init --demo` and the shipped data set: every file, nothing overwritten,
proposals that can be accepted, an answer bank that fills a packet."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from jobtracker import store
from jobtracker.cli import main as cli_main
from jobtracker.demo import DEMO_FILES, MAILDIR
from jobtracker.run.setup import config_of, plugins_of
from jobtracker.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]


def init_demo(home: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert cli_main(["--home", str(home), "init", "--demo"]) == 0
    return capsys.readouterr().out


def rows(db: Path, sql: str, *params: object) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, params).fetchall()


def run_tui(*args: str, latency: str = "0.02") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "JOBTRACKER_DEMO_LATENCY": latency, "PYTHONPATH": str(ROOT)}
    env.pop("JOBTRACKER_HOME", None)
    return subprocess.run([sys.executable, "-m", "tui", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=120)


def proposals_json(home: Path, capsys: pytest.CaptureFixture[str]) -> list[dict]:
    capsys.readouterr()
    assert cli_main(["--home", str(home), "proposals", "list", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_init_demo_creates_every_file_and_a_private_maildir(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "demo"
    out = init_demo(home, capsys)
    for name in (*DEMO_FILES, "jobtracker.db"):
        assert (home / name).is_file(), name
        assert f"created {home / name}" in out
    ws = Workspace(home)
    config = config_of(ws)
    # The demo reads its own copy of the replies, never the user's mail.
    assert config.maildir == home / MAILDIR
    assert config.llm.url is None and config.llm.model == "jobtracker-demo"
    assert len(list((home / MAILDIR / "new").iterdir())) == 5
    assert plugins_of(ws)["coverletter"] is True
    assert "Sam Rivera" in (home / "resume.md").read_text()


def test_init_demo_never_overwrites_and_loads_postings_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "demo"
    init_demo(home, capsys)
    (home / "resume.md").write_text("my own resume\n")
    (home / MAILDIR / "new" / "demo-01-acknowledgement").write_text("edited\n")
    before = rows(home / "jobtracker.db", "SELECT COUNT(*) FROM postings")[0][0]
    out = init_demo(home, capsys)
    assert "nothing changed" in out and "created" not in out
    assert (home / "resume.md").read_text() == "my own resume\n"
    assert (home / MAILDIR / "new" / "demo-01-acknowledgement").read_text() == "edited\n"
    assert rows(home / "jobtracker.db", "SELECT COUNT(*) FROM postings")[0][0] == before


def test_init_demo_on_a_workspace_with_postings_adds_files_but_no_sample_postings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "real"
    home.mkdir()
    (home / "profile.yaml").write_text("prose: mine\n")

    async def one_posting() -> None:
        async with store.connect(home / "jobtracker.db") as conn, store.write(conn):
            await conn.execute("INSERT INTO boards (source, token, company) "
                               "VALUES ('greenhouse', 'acme', 'Acme')")
            await conn.execute(
                "INSERT INTO postings (board_id, external_id, title, first_seen, last_seen) "
                "VALUES (1, '1', 'Engineer', '2025-01-01', '2025-01-01')")

    asyncio.run(one_posting())
    out = init_demo(home, capsys)
    assert (home / "profile.yaml").read_text() == "prose: mine\n"
    assert f"created {home / 'resume.md'}" in out
    assert f"created {home / 'jobtracker.db'}" not in out
    assert rows(home / "jobtracker.db", "SELECT title FROM postings") == [("Engineer",)]


def test_demo_proposals_can_be_accepted_into_a_tailored_resume_and_a_status(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "demo"
    assert run_tui("--demo", "--run", "--home", str(home)).returncode == 0
    proposals = proposals_json(home, capsys)
    edits = [p for p in proposals if p["kind"] == "resume_edit"]
    letters = [p for p in proposals if p["kind"] == "letter"]
    # Every best match gets at least one grounded edit, and (coverletter is on in the
    # demo) a letter draft.
    assert len(edits) >= 8 and {p["task"] for p in edits} == {"tailor"}
    assert len(letters) >= 8 and {p["task"] for p in letters} == {"coverletter"}
    resume = (home / "resume.md").read_bytes()
    edit = edits[0]
    invite = next(p for p in proposals if "→ interviewing" in p["summary"])
    assert cli_main(["--home", str(home), "proposals", "accept", str(edit["id"]),
                     str(invite["id"])]) == 0
    written = list((home / "tailored").glob(f"{edit['posting']}-*.md"))
    assert len(written) == 1
    assert edit["payload"]["replacement"].encode() in written[0].read_bytes()
    assert (home / "resume.md").read_bytes() == resume
    capsys.readouterr()
    assert cli_main(["--home", str(home), "matches", "--json"]) == 0
    statuses = {m["id"]: m["status"] for m in json.loads(capsys.readouterr().out)}
    assert statuses[invite["posting"]] == "interviewing"


def test_the_demo_ships_an_answer_bank_that_fills_a_packet(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "demo"
    init_demo(home, capsys)
    from jobtracker.prepare.answer_bank import load_answers

    bank = load_answers(home / "answers.yaml")
    assert bank.get("identity.first_name") == "Sam"
    result = run_tui("--demo", "--run", "--home", str(home))
    assert result.returncode == 0, result.stderr
    packets = sorted((home / "applications").glob("*/answers.json"))
    assert packets, result.stdout
    fields = json.loads(packets[0].read_text())["fields"]
    # The employer's form (the demo's Greenhouse jobs ship one) or the standard set.
    answered = {f["label"].lower(): f["answer"] for f in fields if f["resolved"]}
    assert answered.get("first name") == "Sam" and answered.get("email") == "sam.rivera@example.org"


def test_prepare_on_the_demo_after_its_session_asks_no_network(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The demo's Greenhouse forms are kept when it loads, and no loopback address of
    its server is kept as a board's: `prepare` afterwards reads the employer's form
    from the cache and tries no port (nothing listens on the demo's any more)."""
    home = tmp_path / "demo"
    init_demo(home, capsys)
    with sqlite3.connect(home / "jobtracker.db") as conn:
        kept = conn.execute("SELECT url FROM boards WHERE url LIKE 'http://127.0.0.1:%'")
        assert kept.fetchall() == []
        (posting,) = conn.execute(
            "SELECT p.id FROM postings AS p JOIN boards AS b ON b.id = p.board_id "
            "WHERE b.source = 'greenhouse' ORDER BY p.id LIMIT 1").fetchone()
    capsys.readouterr()
    assert cli_main(["--home", str(home), "prepare", str(posting), "--json"]) == 0
    (packet,) = json.loads(capsys.readouterr().out)
    answers = json.loads(next((home / "applications").glob(f"{posting}-*/answers.json"))
                         .read_text())
    assert answers["form"] == "greenhouse", answers.get("form_error")
    assert "127.0.0.1" not in json.dumps(packet) + json.dumps(answers)
