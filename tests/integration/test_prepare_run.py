"""`jobtracker prepare` against a loopback Greenhouse board that serves its forms, and
a Lever board (the standard set): packets, the form cache, failures, the picks, and no
model asked."""

from __future__ import annotations

import asyncio
import json

import pytest

from jobtracker import cli, proposals, store
from jobtracker.prepare.answer_bank import load_answers
from jobtracker.prepare.run import prepare
from jobtracker.workspace import Workspace
from tests import prepare_world
from tests.db import raw_connect
from tests.prepare_world import JOBS, NOW, RESUME, packet, posting_id, run_prepare
from tests.servers.boards import (
    BoardServer,
    greenhouse_form,
)

# The shared fixtures, bound here by name so that pytest finds them in this file.
home, server = prepare_world.home, prepare_world.server


def form_requests(server: BoardServer) -> list[str]:
    return [r.path for r in server.requests if "questions=true" in r.path]


def test_packets_are_filled_from_the_employers_form_and_answers_yaml(
        home: Workspace, server: BoardServer, capsys: pytest.CaptureFixture[str]) -> None:
    done = run_prepare(home, capsys)
    by_title = {item["title"]: item for item in done}
    assert done[0]["title"] == "Staff Engineer", "best match first"
    assert set(by_title) == set(JOBS.values()) | {"Senior Backend Engineer"}
    staff = by_title["Staff Engineer"]
    assert staff["form"] == "greenhouse" and staff["form_error"] is None
    folder = packet(home, staff)
    assert folder.name == f"{staff['posting']}-acme-staff-engineer"
    assert sorted(p.name for p in folder.iterdir()) == [
        "answers.json", "answers.md", "coverage.md", "posting.md", "resume.md",
        "resume.pdf"]   # no letter
    assert (folder / "resume.md").read_text() == RESUME
    data = json.loads((folder / "answers.json").read_text())
    assert data["posting"] == staff["posting"]
    assert data["url"] == "https://boards.greenhouse.io/acme/jobs/11"
    fields = {f["label"]: f for f in data["fields"]}
    assert set(data["fields"][0]) >= {"label", "name", "type", "required", "answer", "source",
                                      "resolved"}
    assert (fields["First Name"]["answer"], fields["First Name"]["source"]) == (
        "Ada", "identity.first_name")
    assert fields["Resume/CV"]["answer"] == "resume.pdf"   # render.formats: [pdf], the default
    assert fields["Resume/CV"]["files"] == ["resume.pdf", "resume.md"]
    assert fields["Resume/CV"]["source"] == "resume"
    assert data["documents"][0]["file"] == "resume.pdf"
    assert data["documents"][0]["check"]["ok"] is True
    assert fields["Cover Letter"]["resolved"] is False
    assert fields["Are you legally authorized to work in Germany?"]["answer"] == "Yes"
    assert fields["Will you now or in the future require sponsorship for a work visa?"][
        "answer"] == "No"
    assert fields["How did you hear about this job?"]["source"] == "questions[0]"
    assert fields["Location (City)"]["answer"] == "London, UK"
    assert fields["Gender"]["answer"] == "Decline To Self Identify"
    assert fields["Veteran Status"]["answer"] == "I don't wish to answer"
    assert fields["What are your pronouns?"]["answer"] == ["I prefer not to answer"]
    assert fields["Which languages do you write?"]["resolved"] is False
    assert "Hidden" not in fields
    assert data["unresolved_required"] == ["Why do you want to work at Acme?"]
    text = (folder / "answers.md").read_text()
    assert text.index("## Needs you") < text.index("## Fields")
    assert "- ✗ Why do you want to work at Acme? (required)" in text
    assert "Apply: https://boards.greenhouse.io/acme/jobs/11" in text
    kite = by_title["Senior Backend Engineer"]
    assert kite["form"] == "standard" and kite["form_error"] is None
    assert kite["unresolved_required"] == []
    assert sorted(form_requests(server)) == [f"/gh/acme/{i}?questions=true" for i in JOBS]


def test_a_failed_form_is_recorded_and_that_posting_gets_the_standard_set(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    done = {item["title"]: item for item in run_prepare(home, capsys)}
    assert done["Senior Platform Engineer"]["form"] == "standard"
    assert "HTTP 500" in done["Senior Platform Engineer"]["form_error"]
    assert done["Senior Data Engineer"]["form"] == "standard"
    assert "JSON" in done["Senior Data Engineer"]["form_error"]
    with raw_connect(home.db) as conn:
        errors = dict(conn.execute("SELECT posting_id, error FROM forms WHERE form IS NULL"))
    assert "HTTP 500" in errors[posting_id(home, "Senior Platform Engineer")]
    answers = packet(home, done["Senior Platform Engineer"]) / "answers.md"
    assert "the employer's form could not be read: HTTP 500" in answers.read_text()


def test_a_hanging_form_fails_that_posting_only(home: Workspace, server: BoardServer) -> None:
    server.set("/gh/acme/12?questions=true", greenhouse_form(12, JOBS[12]), delay=3)
    bank = load_answers(home / "answers.yaml")

    async def go() -> list:
        _, done = await prepare(home.home, home.db, home.profile(), bank, NOW, top=5,
                                deadline=0.5)
        return done

    done = {item.posting.title: item for item in asyncio.run(go())}
    assert "deadline" in (done["Senior Platform Engineer"].form_error or "")
    assert done["Staff Engineer"].resolution.kind == "greenhouse"


def test_forms_are_cached_and_read_again_when_the_description_changes(
        home: Workspace, server: BoardServer, capsys: pytest.CaptureFixture[str]) -> None:
    staff = posting_id(home, "Staff Engineer")
    run_prepare(home, capsys, str(staff))
    run_prepare(home, capsys, str(staff))
    assert form_requests(server) == ["/gh/acme/11?questions=true"], "the second read the cache"
    with raw_connect(home.db) as conn:
        conn.execute("UPDATE postings SET description = 'A new text.' WHERE id = ?", (staff,))
    run_prepare(home, capsys, str(staff))
    assert len(form_requests(server)) == 2


def test_the_packet_resume_has_the_postings_accepted_edits(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    staff = posting_id(home, "Staff Engineer")

    async def accept_an_edit() -> None:
        async with store.connect(home.db) as conn:
            async with store.write(conn):
                pid = await proposals.create(
                    conn, kind="resume_edit", task="tailor", unit_key="t1", summary="edit",
                    now=NOW, posting_id=staff,
                    payload={"original": "Built services in Python.",
                             "replacement": "Built distributed services in Python.",
                             "company": "Acme", "title": "Staff Engineer",
                             "posting_id": staff})
            await proposals.accept(conn, [pid], NOW, home.home)

    asyncio.run(accept_an_edit())
    folder = packet(home, run_prepare(home, capsys, str(staff))[0])
    assert "Built distributed services in Python." in (folder / "resume.md").read_text()
    assert (home.home / "resume.md").read_text() == RESUME, "the master is never touched"


def test_prepare_says_when_edits_for_the_posting_wait_in_review(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    """The packet is made from the master resume while edits wait: the output, the
    packet's answers.md and answers.json say how many, and where to review them."""
    staff = posting_id(home, "Staff Engineer")

    async def propose_two() -> None:
        async with store.connect(home.db) as conn, store.write(conn):
            for item, (original, replacement) in enumerate((
                    ("Built services in Python.", "Built distributed services in Python."),
                    ("Led a team of three.", "Led a team of three engineers."))):
                await proposals.create(
                    conn, kind="resume_edit", task="tailor", unit_key="t1", item=item,
                    summary="edit", now=NOW, posting_id=staff,
                    payload={"original": original, "replacement": replacement,
                             "company": "Acme", "title": "Staff Engineer",
                             "posting_id": staff})

    asyncio.run(propose_two())
    capsys.readouterr()
    assert cli.main(["--home", str(home.home), "prepare", str(staff)]) == 0
    out = capsys.readouterr().out
    assert "2 resume edits waiting in review: jobtracker proposals list" in out
    folder = next((home.home / "applications").glob(f"{staff}-*"))
    assert "Waiting: 2 resume edits waiting in review" in (folder / "answers.md").read_text()
    data = json.loads((folder / "answers.json").read_text())
    assert data["waiting"] == {"resume_edit": 2, "letter": 0}
    assert (folder / "resume.md").read_text() == RESUME, "made from the master"
    assert cli.main(["--home", str(home.home), "prepare", str(staff), "--json"]) == 0
    (item,) = json.loads(capsys.readouterr().out)
    assert item["waiting"] == {"resume_edit": 2, "letter": 0}


def test_picks_skip_applications_beyond_saved_and_honour_top(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    staff, kite = posting_id(home, "Staff Engineer"), posting_id(home, "Senior Backend Engineer")
    assert cli.main(["--home", str(home.home), "status", str(staff), "applied"]) == 0
    assert cli.main(["--home", str(home.home), "status", str(kite), "saved"]) == 0
    capsys.readouterr()
    done = run_prepare(home, capsys, "--top", "1")
    assert [item["posting"] for item in done] == [kite]


def test_prepare_asks_no_model_even_when_one_is_up(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.servers.model import ModelServer

    with ModelServer() as model:
        (home.home / "config.yaml").write_text(f"llm: {{url: '{model.url}'}}\n")
        assert len(run_prepare(home, capsys)) == 4
        assert model.requests == [], "prepare neither probes nor calls a model"


def test_check_validates_answers_yaml_and_init_keeps_an_existing_one(
        ws: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    assert "# identity:" in (ws.home / "answers.yaml").read_text(), "init wrote the example"
    (ws.home / "answers.yaml").write_text("relocation: [no]\n")
    assert cli.main(["--home", str(ws.home), "check"]) == 2
    assert "answers.yaml:1: relocation: must be text" in capsys.readouterr().err
    assert cli.main(["--home", str(ws.home), "init"]) == 0
    assert (ws.home / "answers.yaml").read_text() == "relocation: [no]\n"
