"""`jobtracker save`: a careers page's JSON-LD, an ATS job page through its API, pasted
text with and without a model; each one judged match, kept through later fetches."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from servers.boards import BoardServer, greenhouse_board, greenhouse_job

from jobtracker.cli import main
from jobtracker.workspace import Workspace
from tests.db import raw_connect
from tests.servers.model import ModelServer

PROFILE = "prose: Backend engineer who likes Python\nlevels: [senior, staff]\nlocations: [Berlin]\n"
PLUGINS = ("tasks: {level: false, judge: true, inbox: false, tailor: false, answer: false, "
           "coverletter: false}\n")
DESCRIPTION = ("<p>Lumen builds the grid software that keeps cities lit.</p><ul><li>Python and "
               "Postgres</li><li>On call one week in six</li></ul><p>We hire people who write "
               "things down and test what they build. Apply with a resume.</p>")


def careers_page(*postings: dict[str, Any]) -> str:
    blocks = "".join('<script type="application/ld+json">'
                     + json.dumps(p).replace("</", "<\\/") + "</script>" for p in postings)
    return (f"<!doctype html><html><head><title>Careers</title>{blocks}</head>"
            "<body><h1>Join us</h1><script>track()</script></body></html>")


def lumen_posting(title: str = "Senior Grid Engineer", **extra: Any) -> dict[str, Any]:
    return {"@context": "https://schema.org", "@type": "JobPosting", "title": title,
            "hiringOrganization": {"@type": "Organization", "name": "Lumen Grid GmbH",
                                   "sameAs": "https://lumen.example/"},
            "jobLocation": {"@type": "Place", "address": {
                "@type": "PostalAddress", "addressLocality": "Hamburg",
                "addressCountry": "DE"}},
            "baseSalary": {"@type": "MonetaryAmount", "currency": "EUR", "value": {
                "@type": "QuantitativeValue", "minValue": 70000, "maxValue": 90000,
                "unitText": "YEAR"}},
            "datePosted": "2026-11-20", "description": DESCRIPTION, **extra}


def judge_answer(body: dict[str, Any]) -> dict[str, Any]:
    task = body["response_format"]["json_schema"]["name"]
    assert task == "judge", task
    return {"verdict": "good", "reasons": ["grid software in Python"], "meets": [],
            "misses": []}


def workspace(tmp_path: Path, llm_url: str = "http://127.0.0.1:9",
              sources: str = "boards: []\n") -> Workspace:
    ws = Workspace(tmp_path / "home")
    ws.init()
    (ws.home / "profile.yaml").write_text(PROFILE)
    (ws.home / "plugins.yaml").write_text(PLUGINS)
    (ws.home / "config.yaml").write_text(
        f"llm:\n  url: {llm_url}\n  model: test-model\n  retries: 1\n  timeout: 5\n")
    (ws.home / "sources.yaml").write_text(sources)
    return ws


def run(ws: Workspace, capsys: pytest.CaptureFixture[str], *args: str,
        stdin: bytes | None = None, monkeypatch: pytest.MonkeyPatch | None = None
        ) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code = main(["--home", str(ws.home), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def matches(ws: Workspace, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    code, out, _ = run(ws, capsys, "matches", "--json")
    assert code == 0
    return json.loads(out)


def rank(ws: Workspace, capsys: pytest.CaptureFixture[str], url: str) -> None:
    code, _, err = run(ws, capsys, "rank", "--llm-url", url)
    assert code == 0, err


def rows(ws: Workspace, sql: str) -> list[tuple[Any, ...]]:
    with raw_connect(ws.db) as conn:
        return [tuple(row) for row in conn.execute(sql)]


# --- a careers page with JSON-LD ------------------------------------------------------------

def test_a_careers_page_becomes_one_judged_match(tmp_path: Path, server: BoardServer,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # The board server answers a path with its query exactly as given.
    server.set("/careers/grid-engineer?utm_source=newsletter&utm_medium=mail",
               careers_page(lumen_posting()), content_type="text/html; charset=utf-8")
    page = server.url("/careers/grid-engineer?utm_source=newsletter&utm_medium=mail#apply")
    with ModelServer(answer=judge_answer) as model:
        ws = workspace(tmp_path)
        code, out, err = run(ws, capsys, "save", page)
        assert code == 0, err
        assert "saved: posting 1, Lumen Grid GmbH - Senior Grid Engineer (Hamburg, DE)" in out
        # The page was asked for once, by its own address, and nothing else was asked.
        assert [r.path for r in server.requests] == [
            "/careers/grid-engineer?utm_source=newsletter&utm_medium=mail"]
        rank(ws, capsys, model.url)
        assert [r.json["response_format"]["json_schema"]["name"]
                for r in model.chat_requests] == ["judge"]
    found = matches(ws, capsys)
    assert len(found) == 1
    match = found[0]
    canonical = server.url("/careers/grid-engineer")
    assert (match["company"], match["title"], match["location"], match["url"],
            match["verdict"], match["saved"]) == (
        "Lumen Grid GmbH", "Senior Grid Engineer", "Hamburg, DE", canonical, "good", True)
    # Hamburg is not in profile.locations: a saved job is a match all the same, marked.
    code, table, _ = run(ws, capsys, "matches")
    assert "Senior Grid Engineer (saved)" in table
    stored = rows(ws, "SELECT salary_min, salary_max, salary_currency, description "
                      "FROM postings")
    assert stored[0][:3] == (70000.0, 90000.0, "EUR")
    assert "keeps cities lit" in stored[0][3] and "track()" not in stored[0][3]


def test_saving_the_same_page_twice_is_one_posting(tmp_path: Path, server: BoardServer,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    for path in ("/job/1", "/job/1?gclid=abc"):
        server.set(path, careers_page(lumen_posting()), content_type="text/html")
    ws = workspace(tmp_path)
    assert run(ws, capsys, "save", server.url("/job/1?gclid=abc"))[0] == 0
    code, out, _ = run(ws, capsys, "save", server.url("/job/1"))
    assert code == 0 and "saved again" in out and "posting 1" in out
    assert rows(ws, "SELECT COUNT(*) FROM postings") == [(1,)]
    assert rows(ws, "SELECT source, token, aggregator FROM boards") == [("saved", "user", 1)]


def test_dry_run_stores_nothing_and_json_says_what_would_be(
        tmp_path: Path, server: BoardServer, capsys: pytest.CaptureFixture[str]) -> None:
    server.set("/job/1", careers_page(lumen_posting()), content_type="text/html")
    ws = workspace(tmp_path)
    code, out, _ = run(ws, capsys, "save", server.url("/job/1"), "--dry-run", "--json")
    assert code == 0
    shown = json.loads(out)
    assert (shown["dry_run"], shown["id"], shown["company"], shown["origin"]) == (
        True, None, "Lumen Grid GmbH", "JSON-LD")
    code, out, _ = run(ws, capsys, "save", server.url("/job/1"), "--dry-run")
    assert "would save: Lumen Grid GmbH - Senior Grid Engineer" in out
    assert "salary: EUR 70,000-90,000 a year" in out
    assert not ws.db.exists() or rows(ws, "SELECT COUNT(*) FROM postings") == [(0,)]


def test_several_postings_are_listed_and_pick_chooses(
        tmp_path: Path, server: BoardServer, capsys: pytest.CaptureFixture[str]) -> None:
    server.set("/jobs", careers_page({"@graph": [lumen_posting(), lumen_posting("Data Analyst")]}),
               content_type="text/html")
    ws = workspace(tmp_path)
    code, _, err = run(ws, capsys, "save", server.url("/jobs"))
    assert code == 2
    assert "lists 2 postings; choose one with --pick N" in err
    assert "1. Senior Grid Engineer | Lumen Grid GmbH | Hamburg, DE" in err
    assert "2. Data Analyst" in err
    code, out, _ = run(ws, capsys, "save", server.url("/jobs"), "--pick", "2")
    assert code == 0 and "Lumen Grid GmbH - Data Analyst" in out
    assert run(ws, capsys, "save", server.url("/jobs"), "--pick", "3")[0] == 2


def test_a_page_without_a_posting_is_exit_2_pointing_at_paste(
        tmp_path: Path, server: BoardServer, capsys: pytest.CaptureFixture[str]) -> None:
    server.set("/about", "<html><body>We are hiring!</body></html>", content_type="text/html")
    ws = workspace(tmp_path)
    code, _, err = run(ws, capsys, "save", server.url("/about"))
    assert code == 2
    assert "states no schema.org JobPosting" in err and "jobtracker save -" in err
    assert not ws.db.exists() or rows(ws, "SELECT COUNT(*) FROM postings") == [(0,)]


def test_a_page_that_fails_is_exit_1_and_not_asked_again(
        tmp_path: Path, server: BoardServer, capsys: pytest.CaptureFixture[str]) -> None:
    server.set("/gone", "no", status=404)
    server.set("/busy", "slow down", status=429, headers={"Retry-After": "0"})
    ws = workspace(tmp_path)
    code, _, err = run(ws, capsys, "save", server.url("/gone"))
    assert code == 1 and "HTTP 404" in err and "nothing saved" in err
    code, _, err = run(ws, capsys, "save", server.url("/busy"))
    assert code == 1 and "HTTP 429" in err
    assert [r.path for r in server.requests] == ["/gone", "/busy"]   # no retry


@pytest.mark.parametrize("address", ["javascript:alert(1)", "file:///etc/passwd",
                                     "ftp://example.org/job", "not a url"])
def test_only_web_addresses(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                            address: str) -> None:
    ws = workspace(tmp_path)
    code, _, err = run(ws, capsys, "save", address)
    assert code == 2 and "not an http(s) address" in err


def test_a_page_naming_no_company_needs_company(
        tmp_path: Path, server: BoardServer, capsys: pytest.CaptureFixture[str]) -> None:
    server.set("/job", careers_page({"@type": "JobPosting", "title": "Welder"}),
               content_type="text/html")
    ws = workspace(tmp_path)
    code, _, err = run(ws, capsys, "save", server.url("/job"))
    assert code == 2 and "names no company" in err and "--company" in err
    code, out, _ = run(ws, capsys, "save", server.url("/job"), "--company", "Forge Ltd")
    assert code == 0 and "Forge Ltd - Welder" in out


# --- an ATS job page -------------------------------------------------------------------------

def test_an_ats_job_url_is_read_through_the_api_and_joins_its_board(
        tmp_path: Path, server: BoardServer, capsys: pytest.CaptureFixture[str]) -> None:
    jobs = [greenhouse_job(7, "Senior Backend Engineer", location="Berlin",
                           content_html=DESCRIPTION),
            greenhouse_job(8, "Office Manager", content_html="<p>Keeps the office.</p>")]
    api = server.set("/gh/acme", greenhouse_board(jobs))
    ws = workspace(tmp_path, sources=(
        f"boards:\n  - {{ats: greenhouse, token: acme, company: Acme, url: '{api}'}}\n"))
    page = "https://boards.greenhouse.io/acme/jobs/7?gh_src=friend"
    with ModelServer(answer=judge_answer) as model:
        code, out, err = run(ws, capsys, "save", page)
        assert code == 0, err
        assert "Acme - Senior Backend Engineer (Berlin)" in out
        assert "read from: greenhouse API" in out
        assert "jobtracker add" not in out                # the board is listed already
        assert [r.path for r in server.requests] == ["/gh/acme"]
        rank(ws, capsys, model.url)
        # The board itself is fetched later: its posting of job 7 is the same job.
        assert run(ws, capsys, "fetch")[0] == 0
        rank(ws, capsys, model.url)
    found = matches(ws, capsys)
    senior = [m for m in found if m["title"] == "Senior Backend Engineer"]
    assert len(senior) == 1 and senior[0]["saved"] is True
    assert senior[0]["url"] == "https://boards.greenhouse.io/acme/jobs/7"
    assert rows(ws, "SELECT b.source, p.external_id, p.lead_id FROM postings p "
                    "JOIN boards b ON b.id = p.board_id WHERE p.title = "
                    "'Senior Backend Engineer' ORDER BY p.id") == [
        ("saved", "https://boards.greenhouse.io/acme/jobs/7", None), ("greenhouse", "7", 1)]
    # The board stops listing the job: the saved posting stays open and listed.
    server.set("/gh/acme", greenhouse_board(jobs[1:]))
    assert run(ws, capsys, "fetch")[0] == 0
    assert rows(ws, "SELECT closed_at IS NULL FROM postings WHERE external_id = "
                    "'https://boards.greenhouse.io/acme/jobs/7'") == [(1,)]
    assert [m["title"] for m in matches(ws, capsys)].count("Senior Backend Engineer") == 1


def test_an_ats_job_not_listed_by_its_board(tmp_path: Path, server: BoardServer,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    api = server.set("/gh/acme", greenhouse_board([greenhouse_job(8, "Office Manager")]))
    ws = workspace(tmp_path, sources=(
        f"boards:\n  - {{ats: greenhouse, token: acme, company: Acme, url: '{api}'}}\n"))
    code, _, err = run(ws, capsys, "save", "https://boards.greenhouse.io/acme/jobs/7")
    assert code == 1 and "does not list job '7'" in err


# --- pasted text ---------------------------------------------------------------------------

PASTED = """Staff Data Engineer at Northwind Traders
Location: Berlin, Germany (remote within the EU)

Northwind Traders moves spices across the world. You will own our data platform:
Python, Spark and a warehouse that answers questions quickly. Salary: EUR 95,000 - 120,000.
https://www.linkedin.com/jobs/view/4317109784/?trackingId=abc&refId=xyz
"""


def save_answer(body: dict[str, Any]) -> dict[str, Any]:
    task = body["response_format"]["json_schema"]["name"]
    if task == "judge":
        return judge_answer(body)
    assert task == "save"
    # Right but for the maximum: 150,000 is not in the text (never stored).
    return {"title": "Staff Data Engineer", "company": "Northwind Traders",
            "location": "Berlin, Germany", "remote": True, "salary_min": 95000,
            "salary_max": 150000, "salary_currency": "EUR"}


def test_pasted_text_read_by_the_model_and_checked_against_the_text(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    with ModelServer(answer=save_answer) as model:
        ws = workspace(tmp_path, llm_url=model.url)
        code, out, err = run(ws, capsys, "save", "-", stdin=PASTED.encode(),
                             monkeypatch=monkeypatch)
        assert code == 0, err
        assert "Northwind Traders - Staff Data Engineer (Berlin, Germany), remote" in out
        assert "not in the text, left empty: salary_max" in out
        asked = model.chat_requests[0].json
        assert "Northwind Traders moves spices" in json.dumps(asked["messages"])
        rank(ws, capsys, model.url)
    found = matches(ws, capsys)
    assert [(m["company"], m["title"], m["url"], m["saved"], m["verdict"]) for m in found] == [
        ("Northwind Traders", "Staff Data Engineer",
         "https://www.linkedin.com/jobs/view/4317109784/", True, "good")]
    assert rows(ws, "SELECT salary_min, salary_max, remote, external_id FROM postings") == [
        (95000.0, None, 1, "https://www.linkedin.com/jobs/view/4317109784/")]


def test_pasted_text_without_a_model_needs_company_and_title(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    ws = workspace(tmp_path)          # its model server does not answer
    code, _, err = run(ws, capsys, "save", "-", stdin=b"Some job. Apply now.",
                       monkeypatch=monkeypatch)
    assert code == 2
    assert "no model is configured or reachable; give --company and --title" in err
    code, out, err = run(ws, capsys, "save", "-", "--company", "Initech", "--title",
                         "TPS Analyst", stdin=b"Some job. Apply now.", monkeypatch=monkeypatch)
    assert code == 0, err
    assert "Initech - TPS Analyst" in out and "no model read the text" in out
    assert rows(ws, "SELECT description, url FROM postings") == [("Some job. Apply now.", "")]


def test_a_pasted_eml_and_a_pasted_page(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    ws = workspace(tmp_path)
    eml = (b"From: Recruiter <r@agency.example>\r\nTo: me@example.org\r\n"
           b"Subject: Role: Platform Engineer\r\nContent-Type: text/plain; charset=utf-8\r\n"
           b"\r\nHi! A platform role at Globex in Springfield.\r\n")
    code, out, err = run(ws, capsys, "save", "-", "--company", "Globex", "--title",
                         "Platform Engineer", stdin=eml, monkeypatch=monkeypatch)
    assert code == 0, err
    described = rows(ws, "SELECT description FROM postings")[0][0]
    assert "platform role at Globex" in described and "From:" not in described
    page = careers_page(lumen_posting("Grid Operator")).encode()
    code, out, err = run(ws, capsys, "save", "-", stdin=page, monkeypatch=monkeypatch)
    assert code == 0, err
    assert "Lumen Grid GmbH - Grid Operator (Hamburg, DE)" in out
    assert "read from: pasted page, JSON-LD" in out
