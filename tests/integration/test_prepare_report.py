"""The packets at the end of a nightly run: made with the model down, switched off by
prepare.top 0, a bad answers.yaml said in one line."""

from __future__ import annotations

from collections.abc import Iterator

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
from tui.cli import main as tui_main

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


def test_the_nightly_run_prepares_packets_with_the_model_server_down(
        home: Workspace, server: BoardServer, capsys: pytest.CaptureFixture[str]) -> None:
    (home.home / "config.yaml").write_text(
        "llm: {url: 'http://127.0.0.1:9', retries: 1, timeout: 2}\nprepare: {top: 2}\n")
    assert tui_main(["--home", str(home.home), "--run"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1].startswith("No model: "), "the run's close stays last"
    assert out.index("acme-staff-engineer/  the employer's form") < out.index("No model: ")
    folders = sorted(p.name for p in (home.home / "applications").iterdir())
    assert len(folders) == 2 and any(name.endswith("acme-staff-engineer") for name in folders)


def test_prepare_top_0_switches_the_nightly_prepare_off(home: Workspace) -> None:
    (home.home / "config.yaml").write_text("llm: {url: null}\nprepare: {top: 0}\n")
    assert tui_main(["--home", str(home.home), "--run"]) == 0
    assert not (home.home / "applications").exists()


def test_a_bad_answers_yaml_at_the_end_of_a_run_is_one_timestamped_line(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    (home.home / "answers.yaml").write_text("eeo: male\n")
    assert tui_main(["--home", str(home.home), "--run"]) == 0
    out = capsys.readouterr().out
    line = next(text for text in out.splitlines() if " prepare " in text)
    assert "prepare not done: " in line and "answers.yaml:1: eeo: unknown value" in line
    assert not (home.home / "applications").exists()
