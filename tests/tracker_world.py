"""The tracker world the applications tests share, on the command line: four
applications (one heard back from, one silent, one moved on by hand, one only saved)
and the helpers that run `jobtracker` on it and read `applications --json` back.

A test file takes the `world` fixture by binding it by name (`world =
tracker_world.world`); one of its own would take precedence."""

from __future__ import annotations

import asyncio
import json

import pytest

from jobtracker.cli import main
from jobtracker.workspace import Workspace
from tests.tracker_seed import message, postings, seeded, set_status


def cli(capsys: pytest.CaptureFixture[str], ws: Workspace, *args: str) -> tuple[int, str, str]:
    code = main(["--home", str(ws.home), *args])
    out, err = capsys.readouterr()
    return code, out, err


def listed(capsys: pytest.CaptureFixture[str], ws: Workspace, *args: str) -> dict[int, dict]:
    code, out, _ = cli(capsys, ws, "applications", "--json", *args)
    assert code == 0
    return {row["id"]: row for row in json.loads(out)}


@pytest.fixture
def world(ws: Workspace) -> Workspace:
    """Acme applied Oct 1 and heard back Oct 6; Bolt applied Oct 1, silent; Crane moved to
    interviewing by hand Oct 20; Dove only saved."""
    async def body(conn) -> None:
        await postings(conn, (1, "Acme", "Engineer"), (2, "Bolt", "SRE"),
                       (3, "Crane", "Staff Engineer"), (4, "Dove", "Data"))
        await set_status(conn, 1, "applied", "2026-10-01T09:00:00Z")
        await message(conn, "m1", "2026-10-06T10:00:00Z", posting=1, state="scheduling")
        await set_status(conn, 2, "applied", "2026-10-01T09:00:00Z")
        await message(conn, "ack", "2026-10-01T09:05:00Z", company="Bolt",
                      state="acknowledgement")
        await set_status(conn, 3, "applied", "2026-10-02T09:00:00Z")
        await set_status(conn, 3, "interviewing", "2026-10-20T09:00:00Z")
        await set_status(conn, 4, "saved", "2026-10-01T09:00:00Z")
    asyncio.run(seeded(ws.db, body))
    return ws
