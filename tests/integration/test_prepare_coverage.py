"""Keyword coverage in a packet (jobtracker/prepare/coverage.py): `coverage.md`, its line
in answers.md and `prepare --json`'s `coverage`, compared as the pre-rank compares
words; diagnostic only, nothing is added to the resume."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from jobtracker import cli, store
from jobtracker.prepare.coverage import coverage, words
from jobtracker.workspace import Workspace
from tests import prepare_world
from tests.prepare_world import judge_everything, packet, run_prepare
from tests.servers.boards import BoardServer, greenhouse_board, greenhouse_job

POSTING = ("<p>We build data pipelines in Python and Go on Kubernetes, with Terraform "
           "and PostgreSQL. Kubernetes operators a plus.</p>")
RESUME = "# Ada Lovelace\n\n## Work\n\n- Built a data pipeline in Python on PostgreSQL.\n"


@pytest.fixture
def server() -> Iterator[BoardServer]:
    with BoardServer() as running:
        running.set("/gh/acme", greenhouse_board([
            greenhouse_job(11, "Staff Engineer", content_html=POSTING),
            greenhouse_job(12, "Staff Data Engineer",
                           content_html="<p>Spark and Airflow, [x](javascript:y) `tick`</p>")]))
        running.set("/gh/acme/11?questions=true", "gone", status=404)
        running.set("/gh/acme/12?questions=true", "gone", status=404)
        yield running


@pytest.fixture
def home(ws: Workspace, server: BoardServer) -> Workspace:
    (ws.home / "sources.yaml").write_text(
        f"boards:\n  - {{ats: greenhouse, token: acme, company: Acme, "
        f"url: '{server.url('/gh/acme')}'}}\n")
    (ws.home / "profile.yaml").write_text("prose: Backend engineer\nlevels: [staff]\n")
    (ws.home / "resume.md").write_text(RESUME)
    (ws.home / "keywords.yaml").write_text("keywords: [python, kubernetes, rust]\n")
    (ws.home / "answers.yaml").write_text(prepare_world.ANSWERS)
    assert cli.main(["--home", str(ws.home), "fetch"]) == 0
    judge_everything(ws)
    return ws


def test_the_packet_says_what_the_posting_asks_that_the_resume_does_not(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    done = {item["title"]: item for item in run_prepare(home, capsys)}
    staff = done["Staff Engineer"]
    cover = staff["coverage"]
    assert cover["resume"] == "resume.md"
    # keywords.yaml's terms the posting names, then its strongest words.
    assert {"python", "postgresql", "pipelines", "data"} <= set(cover["present"])
    assert {"kubernetes", "terraform", "go"} <= set(cover["missing"])
    assert "rust" not in cover["present"] + cover["missing"]     # the posting never says it
    assert cover["in_keywords"] == ["kubernetes"]
    folder = packet(home, staff)
    text = (folder / "coverage.md").read_text()
    assert "- `kubernetes` (keywords.yaml lists it: tailoring may add it)" in text
    assert "- `terraform`\n" in text
    assert "Diagnostic only" in text
    answers = (folder / "answers.md").read_text()
    line = next(x for x in answers.splitlines() if x.startswith("Keyword coverage:"))
    assert "terms are in resume.md; not in it: kubernetes" in line
    # Nothing was added to the resume the packet holds.
    assert (folder / "resume.md").read_text() == RESUME


def test_employer_words_in_coverage_stay_text(home: Workspace,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    done = {item["title"]: item for item in run_prepare(home, capsys)}
    folder = packet(home, done["Staff Data Engineer"])
    text = (folder / "coverage.md").read_text()
    assert "javascript" not in text.replace("`javascript`", "")   # a word, in a code span
    assert "](" not in text


def test_words_and_stems_meet_as_the_pre_rank_reads_them(tmp_path) -> None:
    assert words("Node.js, C++ and C#; pipelines.") == ["node.js", "c++", "and", "c#",
                                                        "pipelines"]

    async def check() -> tuple[tuple[str, ...], tuple[str, ...]]:
        async with store.connect(tmp_path / "db") as conn:
            found = await coverage(conn, title="Engineer", description="Pipelines, testing",
                                   company="X", resume="pipeline and tests",
                                   keywords=["pipelines"])
            return found.present, found.missing
    present, missing = asyncio.run(check())
    assert "pipelines" in present and "testing" in present and missing == ()
