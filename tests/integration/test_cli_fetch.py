"""`jobtracker fetch`: a line per board as it is written, a summary, and the exit codes."""

from __future__ import annotations

import pytest
from conftest import run_cli
from servers.boards import (
    BoardServer,
    greenhouse_board,
    greenhouse_job,
)
from servers.shapes import (
    Item,
    rss,
)

from jobtracker.workspace import Workspace


def feed_item(job_id: int, title: str = "Senior Engineer", token: str = "acme") -> Item:
    return Item(f"guid-{job_id}", title, f"https://boards.greenhouse.io/{token}/jobs/{job_id}"
                f"?utm_source=feed", blurb_html="<p>A <b>short</b> blurb.</p>")


def write_sources(ws: Workspace, text: str) -> None:
    (ws / "sources.yaml").write_text(text, encoding="utf-8")


def test_cli_fetch_prints_progress_and_a_summary(server: BoardServer, ws: Workspace) -> None:
    server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "Senior Engineer"),
                                             greenhouse_job(2, "Staff Engineer")]))
    write_sources(ws, f"boards:\n"
                      f"  - {{ats: greenhouse, token: acme, company: Acme, "
                      f"url: '{server.url('/gh/acme')}'}}\n"
                      f"  - {{ats: lever, token: gone, url: '{server.url('/lever/gone')}'}}\n"
                      f"feeds:\n  - {{name: jobs, url: '{server.url('/feed')}'}}\n")
    server.set("/feed", rss([feed_item(1)]))
    done = run_cli("--home", str(ws.home), "fetch")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("[1/3] greenhouse:acme  ok, 2 new, 0 updated, 0 closed")
    assert lines[1].startswith("[2/3] lever:gone  FAILED HTTP 404 Not Found")
    assert lines[2].startswith("[3/3] feed:jobs  ok, 0 new")
    table = done.stdout.split("\n\n", 1)[1]
    assert "board" in table and "new" in table and "updated" in table and "closed" in table
    assert "total" in table and "1 of 3" in table
    assert done.stdout.isascii()


def test_cli_fetch_exits_1_when_every_board_failed(server: BoardServer, ws: Workspace) -> None:
    write_sources(ws, f"boards:\n  - {{ats: ashby, token: gone, "
                      f"url: '{server.url('/ashby/gone')}'}}\n")
    done = run_cli("--home", str(ws.home), "fetch")
    assert done.returncode == 1
    assert "FAILED" in done.stdout


def test_cli_fetch_one_source(server: BoardServer, ws: Workspace) -> None:
    server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "A")]))
    write_sources(ws, f"boards:\n"
                      f"  - {{ats: greenhouse, token: acme, url: '{server.url('/gh/acme')}'}}\n"
                      f"  - {{ats: lever, token: other, url: '{server.url('/lever')}'}}\n")
    done = run_cli("--home", str(ws.home), "fetch", "--source", "greenhouse:acme")
    assert done.returncode == 0
    assert [line.split()[1] for line in done.stdout.splitlines()[:1]] == ["greenhouse:acme"]
    assert all(r.path == "/gh/acme" for r in server.requests)


@pytest.mark.parametrize(("sources_yaml", "args", "message"), [
    ("boards:\n  - {ats: nosuch, token: x}\n", (), "sources.yaml:2: boards[0].ats"),
    ("boards: []\n", (), "no boards or feeds"),
    ("boards:\n  - {ats: greenhouse, token: acme}\n", ("--source", "nope"), "no board or feed"),
], ids=["unknown-ats", "empty", "unknown-source"])
def test_cli_fetch_configuration_errors_exit_2(ws: Workspace, sources_yaml: str,
                                               args: tuple[str, ...], message: str) -> None:
    write_sources(ws, sources_yaml)
    done = run_cli("--home", str(ws.home), "fetch", *args)
    assert done.returncode == 2
    assert message in done.stderr
    assert not ws.db.exists()            # nothing was opened, let alone written
