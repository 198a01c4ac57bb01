"""Loading the demo's postings through the real fetch path, without any network.

The boards and the feed ship in the package in the shapes their public APIs
answer (Greenhouse, Lever, Ashby JSON; RSS 2.0). They are served from a loopback
server for the length of one fetch, and `fetch_all` reads them through `url`
overrides exactly as it would read a real board: the same parsers, upserts,
feed-to-ATS linking and board rows.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from email.utils import format_datetime, parsedate_to_datetime
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

from jobtracker import store
from jobtracker.clock import now_iso
from jobtracker.config import Sources, load_profile, load_sources
from jobtracker.postings.fetch import BoardResult, fetch_all, make_client
from jobtracker.ranking import prerank
from jobtracker.sources import REGISTRY

from .httpserver import StaticServer

_FEED_TYPE = "application/rss+xml"


class DemoDataError(RuntimeError):
    """The shipped demo data did not load: a bug in the package, not in the user's setup."""


def data_dir() -> Traversable:
    return resources.files("jobtracker.demo").joinpath("data")


def demo_sources() -> Sources:
    """The package's own demo sources.yaml (not the workspace's copy, which may differ)."""
    with resources.as_file(data_dir().joinpath("workspace", "sources.yaml")) as path:
        return load_sources(Path(path), REGISTRY)


# The day the shipped postings were written as of: each date in them is moved by the
# days from this one to today, so the demo's newest posting is a day old, not a year.
WRITTEN = date(2025, 5, 7)
_ISO_DATE = re.compile(
    rb'("(?:updated_at|first_published|publishedAt|updatedAt)"\s*:\s*")(\d{4}-\d{2}-\d{2})')
_EPOCH_MS = re.compile(rb'("createdAt"\s*:\s*)(\d{13})')
_PUB_DATE = re.compile(rb"(<pubDate>)([^<]+)(</pubDate>)")
# Every demo Greenhouse job's application form (a small standard one, every field one
# the demo's answers.yaml fills, so a run leaves no question for the answer task):
# `prepare` reads it from loopback while the demo loads, and keeps it, so no later
# packet asks anyone.
_FORM_QUESTIONS = [
    {"label": label, "required": required, "description": None,
     "fields": [{"name": name, "type": kind, "values": []}]}
    for label, name, kind, required in (
        ("First Name", "first_name", "input_text", True),
        ("Last Name", "last_name", "input_text", True),
        ("Email", "email", "input_text", True),
        ("Resume/CV", "resume", "input_file", True),
        ("LinkedIn Profile", "question_1", "input_text", False))]


def shifted(body: bytes, days: int) -> bytes:
    """A shipped board or feed with every posting date moved by `days` (times of day,
    offsets and formats kept)."""
    def iso(match: re.Match[bytes]) -> bytes:
        moved = date.fromisoformat(match.group(2).decode()) + timedelta(days=days)
        return match.group(1) + moved.isoformat().encode()

    def epoch(match: re.Match[bytes]) -> bytes:
        return match.group(1) + str(int(match.group(2)) + days * 86_400_000).encode()

    def rfc822(match: re.Match[bytes]) -> bytes:
        moved = parsedate_to_datetime(match.group(2).decode()) + timedelta(days=days)
        return match.group(1) + format_datetime(moved, usegmt=True).encode() + match.group(3)

    return _PUB_DATE.sub(rfc822, _EPOCH_MS.sub(epoch, _ISO_DATE.sub(iso, body)))


def _routes(sources: Sources, today: date) -> dict[str, tuple[bytes, str]]:
    boards = data_dir().joinpath("boards")
    days = (today - WRITTEN).days
    routes = {}
    for board in sources.boards:
        body = shifted(boards.joinpath(f"{board.ats}-{board.token}.json").read_bytes(), days)
        routes[f"/{board.ats}/{board.token}"] = (body, "application/json")
        if board.ats == "greenhouse":
            for job in json.loads(body).get("jobs", []):
                form = {**job, "questions": _FORM_QUESTIONS}
                routes[f"/greenhouse/{board.token}/{job['id']}"] = (
                    json.dumps(form).encode(), "application/json")
    for feed in sources.feeds:
        routes[f"/feed/{feed.name}"] = (
            shifted(boards.joinpath(f"feed-{feed.name}.xml").read_bytes(), days), _FEED_TYPE)
    return routes


class DemoBoards:
    """The demo's boards and feed served on 127.0.0.1 while a block runs, so that a
    fetch in the demo (`F` in `jobtracker-tui --demo`) reads the package's own copy
    through the real fetch path instead of asking the internet for made-up boards::

        with DemoBoards() as boards:
            local = boards.localize(sources_of(ws))
    """

    def __init__(self, today: date | None = None) -> None:
        self.sources = demo_sources()
        self.server = StaticServer(_routes(self.sources, today or datetime.now(UTC).date()))

    def __enter__(self) -> DemoBoards:
        self.server.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.server.stop()

    def localize(self, sources: Sources) -> Sources:
        """`sources` with the demo's own boards and feed (as shipped: same ATS and token,
        no `url` of their own; the feed at its shipped address) read from loopback;
        anything the user added is left as it is."""
        ours = {(b.ats, b.token) for b in self.sources.boards}
        feeds = {f.name: f.url for f in self.sources.feeds}
        return replace(
            sources,
            boards=tuple(replace(b, url=self.server.url(f"/{b.ats}/{b.token}"))
                         if (b.ats, b.token) in ours and not b.url else b
                         for b in sources.boards),
            feeds=tuple(replace(f, url=self.server.url(f"/feed/{f.name}"))
                        if feeds.get(f.name) == f.url else f for f in sources.feeds))


async def load_postings(db: Path, today: date | None = None) -> list[BoardResult]:
    """Fetch every demo board and feed into `db` from a loopback server, its dates moved
    to `today` (the clock's day), and keep the Greenhouse jobs' application forms.

    Raises DemoDataError when any of them failed to load.
    """
    with DemoBoards(today) as boards:
        local = boards.localize(boards.sources)
        # trust_env=False: a proxy from the environment must not see loopback requests.
        async with store.connect(db) as conn, make_client(trust_env=False) as client:
            results = await fetch_all(conn, local, client)
            # As a fetch leaves them: pre-ranked for the workspace's profile, so the
            # demo's matches and queue show the order the judge asks in.
            home = db.parent
            await prerank.refresh(conn, prerank.workspace_query(
                home, load_profile(home / "profile.yaml")))
            forms_failed = await _keep_forms(conn, local, client)
            # The loopback addresses end with this server: none is kept as a board's.
            async with store.write(conn):
                await conn.execute("UPDATE boards SET url = NULL WHERE url LIKE ?",
                                   (boards.server.url("/") + "%",))
            await _forms_at_their_boards(conn)
    failed = [f"{r.name}: {r.error}" for r in results if not r.ok]
    failed += [f"form of posting {pid}: {why}" for pid, why in forms_failed.items()]
    if failed:
        raise DemoDataError("the demo data did not load: " + "; ".join(failed))
    return results


async def _forms_at_their_boards(conn: Any) -> None:
    """The kept forms filed under the address prepare asks once the loopback server is
    gone (the board's own), so its cache, which checks the address, finds them."""
    from jobtracker.prepare.run import form_address, posting_rows

    ids = [int(row[0]) for row in await conn.execute_fetchall("SELECT posting_id FROM forms")]
    rows = await posting_rows(conn, ids)
    async with store.write(conn):
        await conn.executemany("UPDATE forms SET url = ? WHERE posting_id = ?",
                               [(form_address(row), row["id"]) for row in rows])


async def _keep_forms(conn: Any, local: Sources, client: Any) -> dict[int, str]:
    """Each demo job's form (of a source that publishes forms), read from loopback into
    the forms cache, so that
    `jobtracker prepare` on the demo never asks a network (these companies are made up,
    and the session's loopback server is gone by then). Returns the ones that failed."""
    from jobtracker.prepare.run import forms_for, posting_rows

    ids = [int(row[0]) for row in await conn.execute_fetchall(
        "SELECT p.id FROM postings AS p JOIN boards AS b ON b.id = p.board_id ORDER BY p.id")]
    configured = {(b.ats, b.token.lower()): b.url for b in local.boards if b.url}
    found = await forms_for(conn, await posting_rows(conn, ids), now_iso(), client=client,
                            configured=configured)
    return {pid: form for pid, form in found.items() if isinstance(form, str)}
