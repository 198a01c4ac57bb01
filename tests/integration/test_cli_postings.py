"""`jobtracker postings group` and `split`: a group shown leader first, and a split that holds."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiosqlite
from conftest import run_cli
from samejob_samples import posting
from servers.boards import BoardServer, greenhouse_board, greenhouse_job
from servers.shapes import remoteok_job

from jobtracker.config import Board, Sources
from jobtracker.postings.fetch import fetch_all, make_client
from jobtracker.workspace import Workspace

LEDGER, MOBILE = posting("ledger"), posting("mobile")


TITLE = "Senior Backend Engineer"


class Clock:
    def __init__(self) -> None:
        self.days = itertools.count()

    def __call__(self) -> str:
        moment = datetime(2026, 9, 1, 10, tzinfo=UTC) + timedelta(days=next(self.days))
        return moment.isoformat().replace("+00:00", "Z")


def html(text: str) -> str:
    return "".join(f"<p>{part}</p>" for part in text.split("\n\n"))


class World:
    """An Acme Greenhouse board and a Remote OK listing, served and fetched."""

    def __init__(self, server: BoardServer) -> None:
        self.server = server
        self.clock = Clock()
        self.sources = Sources(boards=(
            Board("greenhouse", "acme", "Acme", server.url("/gh")),
            Board("remoteok", "all", "Remote OK", server.url("/rok"))))
        self.serve(gh=[], rok=[])

    def serve(self, *, gh: list[dict], rok: list[dict]) -> None:
        self.server.set("/gh", greenhouse_board(gh))
        self.server.set("/rok", [{"legal": "link back to Remote OK"}, *rok])

    async def fetch(self, conn: aiosqlite.Connection) -> None:
        async with make_client() as client:
            results = await fetch_all(conn, self.sources, client, clock=self.clock)
        assert all(result.ok for result in results), results


def gh_job(job_id: int, text: str = LEDGER, title: str = TITLE) -> dict:
    return greenhouse_job(job_id, title, content_html=html(text), location="Berlin")


def rok_job(job_id: str, text: str = LEDGER, company: str = "Acme, Inc.",
            title: str = f"{TITLE} (Remote)") -> dict:
    job = remoteok_job(job_id, title, company=company)
    job["description"] = html(text)
    return job


def test_postings_command_shows_and_splits_a_group(server: BoardServer, tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "ws")
    assert run_cli("--home", str(ws.home), "init").returncode == 0
    world = World(server)
    world.serve(gh=[gh_job(11)], rok=[rok_job("901")])
    (ws / "sources.yaml").write_text(
        "boards:\n"
        f"  - {{ats: greenhouse, token: acme, company: Acme, url: '{server.url('/gh')}'}}\n"
        f"  - {{ats: remoteok, token: all, url: '{server.url('/rok')}'}}\n")
    assert run_cli("--home", str(ws.home), "fetch").returncode == 0
    shown = run_cli("--home", str(ws.home), "postings", "group", "2")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert len(lines) == 2 and "leads" in lines[0] and "greenhouse:acme" in lines[0]
    assert "remoteok:all" in lines[1]
    split = run_cli("--home", str(ws.home), "postings", "split", "2")
    assert split.returncode == 0 and "now stands alone" in split.stdout
    missing = run_cli("--home", str(ws.home), "postings", "split", "99")
    assert missing.returncode == 2 and "no posting with id 99" in missing.stderr
