"""The world the posting-group tests share: an Acme Greenhouse board and a Remote OK
listing on 127.0.0.1, fetched on a clock that moves a day a fetch, and the jobs they
serve (the same ledger role, or another)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import aiosqlite
from samejob_samples import posting
from servers.boards import BoardServer, greenhouse_board, greenhouse_job
from servers.shapes import remoteok_job

from jobtracker.config import Board, Sources
from jobtracker.postings.fetch import fetch_all, make_client

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
