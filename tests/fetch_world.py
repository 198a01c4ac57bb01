"""The helpers the fetch and upsert tests share: a clock that reads the next minute at
each board write, fetching through the real client on it, the stored rows with their
board, and a Greenhouse board on a loopback server.

Each test file makes its own clock (`fetch = fetcher(Clock())`), so that its later
fetches are always later, whatever other files ran before it."""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import aiosqlite
import httpx
from servers.boards import BoardServer

from jobtracker.config import Board, Sources
from jobtracker.postings.fetch import BoardResult, fetch_all, make_client


class Clock:
    """Deterministic fetch times: each board write reads the next minute."""

    def __init__(self) -> None:
        self.minutes = itertools.count()

    def __call__(self) -> str:
        moment = datetime(2026, 9, 1, 10, tzinfo=UTC) + timedelta(minutes=next(self.minutes))
        return moment.isoformat().replace("+00:00", "Z")


def fetcher(clock: Clock) -> Callable[..., Awaitable[dict[str, BoardResult]]]:
    """`fetch(conn, sources, only=, client=, done=)` on `clock`: the results by board name."""
    async def fetch(conn: aiosqlite.Connection, sources: Sources, *, only: str | None = None,
                    client: httpx.AsyncClient | None = None,
                    done: list[BoardResult] | None = None) -> dict[str, BoardResult]:
        async with make_client() as own:
            results = await fetch_all(conn, sources, client or own, only=only, clock=clock,
                                      on_board_done=done.append if done is not None else None)
        return {result.name: result for result in results}
    return fetch


async def rows(conn: aiosqlite.Connection, where: str = "1", *params: Any) -> list[dict]:
    found = await conn.execute_fetchall(
        f"SELECT p.*, b.source, b.token FROM postings p JOIN boards b ON b.id = p.board_id "
        f"WHERE {where} ORDER BY p.id", params)
    return [dict(row) for row in found]


def gh(server: BoardServer, path: str = "/gh/acme", token: str = "acme") -> Board:
    return Board("greenhouse", token, "Acme", server.url(path))
