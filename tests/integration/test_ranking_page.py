"""One job, one page (jobtracker/ranking/page.py): an aggregator's copy seen before the
company's own board, then the board; `matches`, `prepare` (its Apply line, posting.md,
the form) and the digest all send the user to the board's page and form."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from jobtracker import cli
from jobtracker.config import load_profile
from jobtracker.workspace import Workspace
from tests.db import raw_connect
from tests.prepare_world import ANSWERS, RESUME
from tests.samejob_samples import posting
from tests.servers.boards import BoardServer, greenhouse_board, greenhouse_form, greenhouse_job
from tests.servers.shapes import remoteok_job

TEXT = posting("ledger")
TITLE = "Senior Backend Engineer"
BOARD_PAGE = "https://boards.greenhouse.io/acme/jobs/11"
COPY_PAGE = "https://remoteOK.com/remote-jobs/remote-901"


def html(text: str) -> str:
    return "".join(f"<p>{part}</p>" for part in text.split("\n\n"))


@pytest.fixture
def server() -> Iterator[BoardServer]:
    with BoardServer() as running:
        yield running


def _copy() -> dict:
    job = remoteok_job("901", f"{TITLE} (Remote)", company="Acme, Inc.")
    job["description"] = html(TEXT + "\n\nVia Remote OK: link")
    return job


@pytest.fixture
def home(ws: Workspace, server: BoardServer) -> Workspace:
    """The copy is fetched first (it leads the group), the company's board a day later."""
    (ws.home / "sources.yaml").write_text(
        "boards:\n"
        f"  - {{ats: greenhouse, token: acme, company: Acme, url: '{server.url('/gh')}'}}\n"
        f"  - {{ats: remoteok, token: all, company: Remote OK, url: '{server.url('/rok')}'}}\n")
    (ws.home / "profile.yaml").write_text("prose: Backend engineer\nlevels: [senior]\n")
    (ws.home / "answers.yaml").write_text(ANSWERS)
    (ws.home / "resume.md").write_text(RESUME)
    (ws.home / "config.yaml").write_text("llm: {url: 'http://127.0.0.1:9', retries: 1, "
                                         "timeout: 2}\nrender: {formats: []}\n")
    server.set("/gh", greenhouse_board([]))
    server.set("/rok", [{"legal": "link back to Remote OK"}, _copy()])
    assert cli.main(["--home", str(ws.home), "fetch"]) == 0
    job = greenhouse_job(11, TITLE, content_html=html(TEXT), location="Berlin")
    server.set("/gh", greenhouse_board([job]))
    server.set("/gh/11?questions=true", greenhouse_form(11, TITLE))
    assert cli.main(["--home", str(ws.home), "fetch"]) == 0
    prose = load_profile(ws / "profile.yaml").prose_hash
    with raw_connect(ws.db) as conn:
        rows = conn.execute("SELECT id, lead_id, url, description_hash FROM postings "
                            "ORDER BY id").fetchall()
        assert [(r[1], r[2]) for r in rows] == [(None, COPY_PAGE), (rows[0][0], BOARD_PAGE)], \
            "the copy leads, the board's posting is its member"
        conn.execute("INSERT INTO rankings (posting_id, unit_key, prose_hash, description_hash, "
                     "verdict, model, ranked_at) VALUES (?, 'k', ?, ?, 'strong', 'm', "
                     "'2026-11-30T06:00:00Z')", (rows[0][0], prose, rows[0][3]))
    return ws


def _json(ws: Workspace, capsys: pytest.CaptureFixture[str], *args: str) -> object:
    capsys.readouterr()
    assert cli.main(["--home", str(ws.home), *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_matches_prepare_and_the_digest_send_the_user_to_the_boards_page_and_form(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    (packed,) = _json(home, capsys, "prepare", "--json")
    (listed,) = _json(home, capsys, "matches", "--json")
    digest = _json(home, capsys, "digest", "--json")
    assert listed["id"] == packed["posting"] == digest["matches"][0]["id"]
    assert listed["url"] == packed["url"] == digest["matches"][0]["url"] == BOARD_PAGE
    assert listed["also_on"] == [COPY_PAGE]
    # The employer's own form, read from the board that gives the page.
    assert packed["form"] == "greenhouse" and packed["form_error"] is None
    folder = home.home / packed["path"]
    answers = json.loads((folder / "answers.json").read_text())
    assert answers["url"] == BOARD_PAGE and answers["form"] == "greenhouse"
    assert f"Apply: {BOARD_PAGE}" in (folder / "posting.md").read_text()
    assert "Apply: https://boards.greenhouse.io/acme/jobs/11" in \
        (folder / "answers.md").read_text().replace("\\", "")


def test_a_page_that_is_no_web_address_is_never_the_jobs_page(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    """A member stored before pages were checked holding `javascript:` gives no page:
    the copy's own page stands, in every caller."""
    with raw_connect(home.db) as conn:
        conn.execute("UPDATE postings SET url = 'javascript:alert(1)' WHERE lead_id IS NOT NULL")
    (packed,) = _json(home, capsys, "prepare", "--json")
    (listed,) = _json(home, capsys, "matches", "--json")
    digest = _json(home, capsys, "digest", "--json")
    assert listed["url"] == packed["url"] == digest["matches"][0]["url"] == COPY_PAGE
    assert packed["form"] == "standard"
