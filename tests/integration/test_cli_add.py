"""`jobtracker add URL`: every recognised shape, the file's text kept, duplicates refused."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import run_cli
from servers.boards import BoardServer, greenhouse_board, greenhouse_job

from jobtracker.cli import main
from jobtracker.cli.add import recognise, shapes
from jobtracker.run.setup import sources_of
from jobtracker.sources import REGISTRY
from jobtracker.sources.listfile import appended
from jobtracker.workspace import Workspace

SHAPE_CASES = [
    ("https://boards.greenhouse.io/stripe", "greenhouse", "stripe"),
    ("https://boards.greenhouse.io/stripe/jobs/123?gh_src=x", "greenhouse", "stripe"),
    ("https://job-boards.greenhouse.io/acme", "greenhouse", "acme"),
    ("https://job-boards.eu.greenhouse.io/acme/jobs/4", "greenhouse", "acme"),
    ("https://jobs.lever.co/plaid", "lever", "plaid"),
    ("jobs.lever.co/plaid/0b5a1b2c-1234-4abc-9def-0123456789ab", "lever", "plaid"),
    ("https://jobs.ashbyhq.com/linear", "ashby", "linear"),
    ("https://apply.workable.com/acme/j/AB12CD/", "workable", "acme"),
    ("https://careers.smartrecruiters.com/AcmeCorp", "smartrecruiters", "AcmeCorp"),
    ("https://acme.recruitee.com/", "recruitee", "acme"),
    ("https://acme.recruitee.com/o/backend-engineer", "recruitee", "acme"),
    ("https://acme-gmbh.jobs.personio.de/job/123", "personio", "acme-gmbh"),
    ("https://acme.wd5.myworkdayjobs.com/External", "workday", "acme.wd5/External"),
    ("https://Acme.wd12.myworkdayjobs.com/en-US/Careers_Site/job/Berlin/X_R1", "workday",
     "acme.wd12/Careers_Site"),
]

SOURCES_TEXT = """\
# My boards. Keep this comment!
boards:
  - {ats: greenhouse, token: stripe, company: Stripe}   # the first one

  # a lever board, commented out for now
  # - {ats: lever, token: old}
  - ats: ashby
    token: linear
    company: Linear

feeds:    # feeds come last
  - {name: remote, url: "https://example.org/jobs.rss"}
"""


def add(ws: Workspace, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["--home", str(ws.home), "add", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_every_shape_the_contract_names_is_covered() -> None:
    assert {shape for _ats, shape, _ in shapes()} >= {
        "boards.greenhouse.io/TOKEN", "job-boards.greenhouse.io/TOKEN", "jobs.lever.co/TOKEN",
        "jobs.ashbyhq.com/TOKEN", "apply.workable.com/TOKEN",
        "careers.smartrecruiters.com/TOKEN", "TOKEN.recruitee.com", "TOKEN.jobs.personio.de",
        "TOKEN.wdN.myworkdayjobs.com/SITE"}


@pytest.mark.parametrize(("url", "ats", "token"), SHAPE_CASES)
def test_each_recognised_shape_is_added_and_loads(ws: Workspace, capsys, url: str, ats: str,
                                                  token: str) -> None:
    text = SOURCES_TEXT.replace("stripe", "bolt").replace("linear", "crane")
    (ws / "sources.yaml").write_text(text, encoding="utf-8")
    code, out, _ = add(ws, capsys, url)
    assert code == 0 and f"added {ats}:{token}" in out
    boards = sources_of(ws).boards
    assert (boards[-1].ats, boards[-1].token) == (ats, token)
    assert (ws / "sources.yaml").read_text(encoding="utf-8").startswith(
        text.split("\n\nfeeds:")[0])
    assert REGISTRY[ats].default_url(token)            # a token its source can address


def test_the_file_keeps_every_byte_and_gains_one_line(ws: Workspace, capsys) -> None:
    (ws / "sources.yaml").write_text(SOURCES_TEXT, encoding="utf-8")
    add(ws, capsys, "https://jobs.lever.co/plaid", "--company", "Plaid, Inc.")
    after = (ws / "sources.yaml").read_text(encoding="utf-8")
    new = '  - {ats: lever, token: plaid, company: "Plaid, Inc."}\n'
    assert after == SOURCES_TEXT.replace("    company: Linear\n",
                                         "    company: Linear\n" + new)
    assert sources_of(ws).boards[-1].company == "Plaid, Inc."
    assert sources_of(ws).feeds[0].name == "remote"


def test_a_listed_board_is_refused_and_nothing_changes(ws: Workspace, capsys) -> None:
    (ws / "sources.yaml").write_text(SOURCES_TEXT, encoding="utf-8")
    code, out, _ = add(ws, capsys, "https://boards.greenhouse.io/STRIPE/jobs/9")
    assert code == 0
    assert "greenhouse:STRIPE is already in" in out and "nothing changed" in out
    assert (ws / "sources.yaml").read_text(encoding="utf-8") == SOURCES_TEXT


def test_an_unknown_url_exits_2_listing_the_shapes(ws: Workspace, capsys) -> None:
    (ws / "sources.yaml").write_text(SOURCES_TEXT, encoding="utf-8")
    code, out, err = add(ws, capsys, "https://example.org/careers")
    assert code == 2 and out == ""
    assert "not a board URL" in err
    for _ats, shape, _ in shapes():
        assert shape in err
    assert "feeds:" in err, "the message says where a feed goes"
    assert (ws / "sources.yaml").read_text(encoding="utf-8") == SOURCES_TEXT


@pytest.mark.parametrize("url", ["https://acme.teamtailor.com/jobs.rss",
                                 "https://example.org/careers/feed",
                                 "https://example.org/jobs.atom",
                                 "https://example.org/jobs?format=rss"])
def test_a_feed_url_is_told_to_go_under_feeds(ws: Workspace, capsys, url: str) -> None:
    code, _, err = add(ws, capsys, url)
    assert code == 2
    assert "looks like a feed" in err and "add it under feeds:" in err
    assert f"- {{name: NAME, url: {url}}}" in err or f'url: "{url}"' in err


@pytest.mark.parametrize("url", [
    "https://jobs.eu.lever.co/acme", "https://jobs.smartrecruiters.com/Acme/1234",
    "https://job-boards.eu.greenhouse.io/acme", "https://boards.eu.greenhouse.io/acme",
    "https://acme.jobs.personio.com/job/1"])
def test_the_list_of_shapes_names_every_form_add_accepts(url: str) -> None:
    assert recognise(url) is not None
    host = url.split("//", 1)[1].split("/", 1)[0]
    named = {shape.split("/", 1)[0].replace("TOKEN", "acme") for _ats, shape, _ in shapes()}
    assert host in named, f"{host} is accepted but not in the list: {sorted(named)}"


def test_crlf_line_endings_are_kept(ws: Workspace, capsys) -> None:
    text = SOURCES_TEXT.replace("\n", "\r\n")
    (ws / "sources.yaml").write_bytes(text.encode())
    code, _, _ = add(ws, capsys, "https://jobs.lever.co/plaid")
    assert code == 0
    after = (ws / "sources.yaml").read_bytes().decode()
    assert after.count("\r\n") == after.count("\n"), "every line still ends CRLF"
    assert after.startswith(text.split("feeds:")[0].split("    company: Linear")[0])
    assert "token: plaid" in after


@pytest.mark.parametrize(("before", "after"), [
    ("", "boards:\n  - {ITEM}\n"),
    ("feeds: []\n", "feeds: []\nboards:\n  - {ITEM}\n"),
    ("boards: []\n", "boards: [{ITEM}]\n"),
    ("boards: [{ats: lever, token: a}]  # x\n", "boards: [{ats: lever, token: a}, {ITEM}]  # x\n"),
    ("boards:\n", "boards:\n  - {ITEM}\n"),
    ("boards:\n- {ats: lever, token: a}\nfeeds:\n", "boards:\n- {ats: lever, token: a}\n"
                                                   "- {ITEM}\nfeeds:\n"),
    ("boards:\r\n    - {ats: lever, token: a}", "boards:\r\n    - {ats: lever, token: a}\r\n"
                                               "    - {ITEM}\r\n"),
], ids=["empty", "no-boards", "empty-flow", "flow", "null", "unindented", "crlf-no-eol"])
def test_appended_handles_each_layout(before: str, after: str) -> None:
    item = "{ats: ashby, token: x, company: X}"
    assert appended(before, item) == after.replace("{ITEM}", item)


def test_a_missing_sources_file_is_created(ws: Workspace, capsys) -> None:
    (ws / "sources.yaml").unlink(missing_ok=True)
    code, _, _ = add(ws, capsys, "https://acme.wd5.myworkdayjobs.com/External")
    assert code == 0
    [board] = sources_of(ws).boards
    assert (board.ats, board.token, board.company) == ("workday", "acme.wd5/External", "Acme")


def test_an_eu_lever_board_gets_the_eu_address(ws: Workspace, capsys) -> None:
    (ws / "sources.yaml").write_text("boards: []\n", encoding="utf-8")
    add(ws, capsys, "https://jobs.eu.lever.co/acme")
    [board] = sources_of(ws).boards
    assert board.url == "https://api.eu.lever.co/v0/postings/acme?mode=json"
    assert recognise("https://jobs.lever.co/acme").url is None


def test_check_fetches_once_and_prints_the_count(ws: Workspace, capsys, server: BoardServer,
                                                 extend) -> None:
    server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "A"), greenhouse_job(2, "B")]))
    loopback = dataclasses.replace(REGISTRY["greenhouse"],
                                   default_url=lambda _token: server.url("/gh/acme"))
    extend(REGISTRY, loopback)
    (ws / "sources.yaml").write_text("boards: []\n", encoding="utf-8")
    code, out, _ = add(ws, capsys, "https://boards.greenhouse.io/acme", "--check")
    assert code == 0
    assert "check: greenhouse:acme lists 2 postings" in out
    assert [r.path for r in server.requests] == ["/gh/acme"]
    assert not ws.db.exists()                 # a check stores nothing


def test_check_of_a_failing_board_exits_1_and_leaves_the_file_as_it_was(
        ws: Workspace, capsys, server: BoardServer, extend) -> None:
    loopback = dataclasses.replace(REGISTRY["ashby"],
                                   default_url=lambda _token: server.url("/missing"))
    extend(REGISTRY, loopback)
    (ws / "sources.yaml").write_bytes(b"boards: []\n")
    code, out, _ = add(ws, capsys, "https://jobs.ashbyhq.com/gone", "--check")
    assert code == 1 and "check: ashby:gone failed: HTTP 404 Not Found" in out
    assert "nothing was added" in out and "added ashby" not in out
    assert (ws / "sources.yaml").read_bytes() == b"boards: []\n"
    assert [p.name for p in ws.home.iterdir() if p.name.startswith(".sources-")] == []


def test_add_as_a_command(ws: Workspace) -> None:
    (ws / "sources.yaml").write_text(SOURCES_TEXT, encoding="utf-8")
    done = run_cli("--home", str(ws.home), "add", "https://jobs.ashbyhq.com/linear")
    assert done.returncode == 0 and "already in" in done.stdout
    done = run_cli("--home", str(ws.home), "add", "not a url")
    assert done.returncode == 2 and "TOKEN.wdN.myworkdayjobs.com/SITE" in done.stderr
