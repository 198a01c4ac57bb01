"""Loading the demo's postings through the real fetch path, without any network.

The boards and the feed ship in the package in the shapes their public APIs
answer (Greenhouse, Lever, Ashby JSON; RSS 2.0). They are served from a loopback
server for the length of one fetch, and `fetch_all` reads them through `url`
overrides exactly as it would read a real board: the same parsers, upserts,
feed-to-ATS linking and board rows.
"""

from __future__ import annotations

from dataclasses import replace
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from jobtracker import store
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


def _routes(sources: Sources) -> dict[str, tuple[bytes, str]]:
    boards = data_dir().joinpath("boards")
    routes = {}
    for board in sources.boards:
        routes[f"/{board.ats}/{board.token}"] = (
            boards.joinpath(f"{board.ats}-{board.token}.json").read_bytes(), "application/json")
    for feed in sources.feeds:
        routes[f"/feed/{feed.name}"] = (
            boards.joinpath(f"feed-{feed.name}.xml").read_bytes(), _FEED_TYPE)
    return routes


class DemoBoards:
    """The demo's boards and feed served on 127.0.0.1 while a block runs, so that a
    fetch in the demo (`F` in `jobtracker-tui --demo`) reads the package's own copy
    through the real fetch path instead of asking the internet for made-up boards::

        with DemoBoards() as boards:
            local = boards.localize(ws.sources())
    """

    def __init__(self) -> None:
        self.sources = demo_sources()
        self.server = StaticServer(_routes(self.sources))

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


async def load_postings(db: Path) -> list[BoardResult]:
    """Fetch every demo board and feed into `db` from a loopback server.

    Raises DemoDataError when any of them failed to load.
    """
    with DemoBoards() as boards:
        local = boards.localize(boards.sources)
        # trust_env=False: a proxy from the environment must not see loopback requests.
        async with store.connect(db) as conn, make_client(trust_env=False) as client:
            results = await fetch_all(conn, local, client)
            # As a fetch leaves them: pre-ranked for the workspace's profile, so the
            # demo's matches and queue show the order the judge asks in.
            home = db.parent
            await prerank.refresh(conn, prerank.workspace_query(
                home, load_profile(home / "profile.yaml")))
    failed = [f"{r.name}: {r.error}" for r in results if not r.ok]
    if failed:
        raise DemoDataError("the demo data did not load: " + "; ".join(failed))
    return results
