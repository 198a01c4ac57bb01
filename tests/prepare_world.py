"""The world the `prepare` tests share: a loopback Greenhouse board that serves its
forms (one good, one failing, one not a form) and a Lever board, a workspace with
answers.yaml and resume.md and a model server that is down, every posting fetched and
judged; and the helpers that read packets back.

A test file takes the fixtures by binding them by name (`home, server =
prepare_world.home, prepare_world.server`); its own would take precedence."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from jobtracker import cli
from jobtracker.config import load_profile
from jobtracker.workspace import Workspace
from tests.db import raw_connect
from tests.servers.boards import (
    BoardServer,
    greenhouse_board,
    greenhouse_form,
    greenhouse_job,
    lever_posting,
)

NOW = "2026-11-30T06:00:00Z"


ANSWERS = """\
identity:
  first_name: Ada
  last_name: Lovelace
  email: ada@example.org
  phone: "+44 20 7946 0000"
  location: London, UK
  links: {linkedin: https://www.linkedin.com/in/ada, github: https://github.com/ada}
work_authorization: "Yes"
requires_sponsorship: "No"
salary_expectation: "95,000 GBP"
notice_period: "4 weeks"
relocation: "No"
eeo: decline
questions:
  - {match: "how did you hear", answer: "Your careers page"}
"""


RESUME = "# Ada Lovelace\n\nBuilt services in Python.\nLed a team of three.\n"


JOBS = {11: "Staff Engineer", 12: "Senior Platform Engineer", 13: "Senior Data Engineer"}


@pytest.fixture
def server() -> Iterator[BoardServer]:
    with BoardServer() as running:
        running.set("/gh/acme", greenhouse_board([greenhouse_job(i, t) for i, t in JOBS.items()]))
        running.set("/gh/acme/11?questions=true", greenhouse_form(11, JOBS[11]))
        running.set("/gh/acme/12?questions=true", "oops", status=500)
        running.set("/gh/acme/13?questions=true", "<html>not a form</html>")
        running.set("/lv/kite", [lever_posting("k1", "Senior Backend Engineer", token="kite")])
        yield running


@pytest.fixture
def home(ws: Workspace, server: BoardServer) -> Workspace:
    (ws.home / "sources.yaml").write_text(
        f"boards:\n  - {{ats: greenhouse, token: acme, company: Acme, "
        f"url: '{server.url('/gh/acme')}'}}\n"
        f"  - {{ats: lever, token: kite, company: Kite, url: '{server.url('/lv/kite')}'}}\n")
    (ws.home / "profile.yaml").write_text("prose: Backend engineer\nlevels: [senior, staff]\n")
    (ws.home / "answers.yaml").write_text(ANSWERS)
    (ws.home / "resume.md").write_text(RESUME)
    (ws.home / "config.yaml").write_text("llm: {url: 'http://127.0.0.1:9', retries: 1, "
                                         "timeout: 2}\n")
    assert cli.main(["--home", str(ws.home), "fetch"]) == 0
    judge_everything(ws)
    return ws


def judge_everything(ws: Workspace) -> None:
    """A verdict for every posting, as the judge would leave it (no model here)."""
    prose = load_profile(ws / "profile.yaml").prose_hash
    with raw_connect(ws.db) as conn:
        verdicts = {"Staff Engineer": "strong", "Senior Backend Engineer": "good"}
        for pid, title, digest in conn.execute(
                "SELECT id, title, description_hash FROM postings").fetchall():
            conn.execute(
                "INSERT OR REPLACE INTO rankings (posting_id, unit_key, prose_hash, "
                "description_hash, verdict, model, ranked_at) VALUES (?, 'k', ?, ?, ?, 'm', ?)",
                (pid, prose, digest, verdicts.get(title, "partial"), NOW))


def posting_id(ws: Workspace, title: str) -> int:
    with raw_connect(ws.db) as conn:
        return conn.execute("SELECT id FROM postings WHERE title = ?", (title,)).fetchone()[0]


def run_prepare(ws: Workspace, capsys: pytest.CaptureFixture[str], *args: str) -> list[dict]:
    assert cli.main(["--home", str(ws.home), "prepare", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def packet(ws: Workspace, item: dict) -> Path:
    return ws.home / item["path"]
