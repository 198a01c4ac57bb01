"""`jobtracker sources list|remove`: what sources.yaml lists, with each source's last
fetch; taking one out keeps every other byte of the file."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest
from conftest import run_cli

from jobtracker import store
from jobtracker.cli import main
from jobtracker.sources.listfile import removed
from jobtracker.workspace import Workspace

SOURCES_TEXT = """\
# My boards. Keep this comment!
boards:
  - {ats: greenhouse, token: stripe, company: Stripe}   # the first one

  # a lever board, commented out for now
  # - {ats: lever, token: old}
  - ats: ashby
    token: linear
    company: Linear
  - {ats: lever, token: plaid, company: Plaid}

feeds:    # feeds come last
  - {name: remote, url: "https://example.org/jobs.rss"}
"""


def run(ws: Workspace, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["--home", str(ws.home), "sources", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_list_names_every_source_with_its_last_fetch(ws: Workspace, capsys) -> None:
    (ws / "sources.yaml").write_text(SOURCES_TEXT, encoding="utf-8")

    async def created() -> None:
        async with store.connect(ws.db):
            pass
    asyncio.run(created())
    with sqlite3.connect(ws.db) as conn:
        conn.execute("INSERT INTO boards (source, token, company, last_ok) VALUES "
                     "('greenhouse', 'stripe', 'Stripe', '2026-12-01T09:00:00Z')")
        conn.execute("INSERT INTO boards (source, token, company, last_error) VALUES "
                     "('lever', 'plaid', 'Plaid', 'HTTP 404 Not Found')")
    code, out, _ = run(ws, capsys, "list")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["name", "company", "last", "fetch"]
    assert [line.split()[0] for line in lines[1:]] == [
        "greenhouse:stripe", "ashby:linear", "lever:plaid", "feed:remote"]
    assert "ok 2026-12-01 09:00" in lines[1]
    assert "never fetched" in lines[2]
    assert "failed: HTTP 404 Not Found" in lines[3]
    assert "(https://example.org/jobs.rss)" in lines[4]
    code, out, _ = run(ws, capsys, "list", "--json")
    listed = json.loads(out)
    assert [item["name"] for item in listed] == [
        "greenhouse:stripe", "ashby:linear", "lever:plaid", "feed:remote"]
    assert listed[0]["last_ok"] == "2026-12-01T09:00:00Z" and listed[3]["kind"] == "feed"


def test_listing_a_new_workspace_creates_no_database(ws: Workspace, capsys) -> None:
    code, out, _ = run(ws, capsys)
    assert "no boards or feeds yet" in out or "name" in out
    assert code == 0 and not ws.db.exists()


@pytest.mark.parametrize(("name", "gone"), [
    ("greenhouse:stripe", "  - {ats: greenhouse, token: stripe, company: Stripe}   "
                          "# the first one\n"),
    ("ASHBY:linear", "  - ats: ashby\n    token: linear\n    company: Linear\n"),
    ("remote", '  - {name: remote, url: "https://example.org/jobs.rss"}\n'),
])
def test_remove_takes_out_the_entrys_lines_and_keeps_the_rest(
        ws: Workspace, capsys, name: str, gone: str) -> None:
    (ws / "sources.yaml").write_text(SOURCES_TEXT, encoding="utf-8")
    code, out, _ = run(ws, capsys, "remove", name)
    assert code == 0 and "removed" in out
    assert (ws / "sources.yaml").read_text(encoding="utf-8") == SOURCES_TEXT.replace(gone, "", 1)


def test_remove_keeps_crlf_and_refuses_an_unknown_name(ws: Workspace, capsys) -> None:
    text = SOURCES_TEXT.replace("\n", "\r\n").encode()
    (ws / "sources.yaml").write_bytes(text)
    code, _, err = run(ws, capsys, "remove", "nope")
    assert code == 2 and "there are: greenhouse:stripe, ashby:linear" in err
    assert (ws / "sources.yaml").read_bytes() == text
    assert run(ws, capsys, "remove", "lever:plaid")[0] == 0
    assert (ws / "sources.yaml").read_bytes() == text.replace(
        b"  - {ats: lever, token: plaid, company: Plaid}\r\n", b"")


def test_a_flow_list_loses_the_entry_and_one_comma(ws: Workspace, capsys) -> None:
    text = "boards: [{ats: lever, token: a}, {ats: lever, token: b}]  # mine\n"
    (ws / "sources.yaml").write_text(text, encoding="utf-8")
    code, _, err = run(ws, capsys, "remove", "lever:a")
    assert code == 0, err
    assert (ws / "sources.yaml").read_text(encoding="utf-8") == (
        "boards: [{ats: lever, token: b}]  # mine\n")


def test_removed_the_last_entry_leaves_an_empty_list_that_loads() -> None:
    assert removed("boards:\n- {ats: lever, token: a}\nfeeds: []\n", "boards", 0) == (
        "boards:\nfeeds: []\n")


def test_sources_as_a_command(ws: Workspace) -> None:
    (ws / "sources.yaml").write_text(SOURCES_TEXT, encoding="utf-8")
    done = run_cli("--home", str(ws.home), "sources", "list")
    assert done.returncode == 0 and "lever:plaid" in done.stdout


@pytest.mark.parametrize(("name", "gone"), [
    ("linear", "  - ats: ashby\n    token: linear\n    company: Linear\n"),
    ("Plaid", "  - {ats: lever, token: plaid, company: Plaid}\n"),
])
def test_remove_takes_a_bare_token_or_company_that_picks_one_board(
        ws: Workspace, capsys, name: str, gone: str) -> None:
    (ws / "sources.yaml").write_text(SOURCES_TEXT, encoding="utf-8")
    code, out, err = run(ws, capsys, "remove", name)
    assert code == 0, err
    assert "removed" in out
    assert (ws / "sources.yaml").read_text(encoding="utf-8") == SOURCES_TEXT.replace(gone, "", 1)


def test_remove_lists_the_candidates_when_a_name_picks_more_than_one(
        ws: Workspace, capsys) -> None:
    text = SOURCES_TEXT.replace("token: linear", "token: plaid")
    (ws / "sources.yaml").write_text(text, encoding="utf-8")
    code, _, err = run(ws, capsys, "remove", "plaid")
    assert code == 2
    assert "names 2 sources" in err and "ashby:plaid, lever:plaid" in err
    assert (ws / "sources.yaml").read_text(encoding="utf-8") == text
