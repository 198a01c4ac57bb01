"""`jobtracker applications`, `show`, `note` and `stats` as a user runs them: bad input
is exit 2 and loses nothing."""

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


def test_bad_input_is_exit_2_and_loses_nothing(world: Workspace,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    for args in (("applications", "show", "99"), ("applications", "note", "99", "x")):
        code, _, err = cli(capsys, world, *args)
        assert code == 2 and "no application 99" in err
    with pytest.raises(SystemExit) as exit_:
        main(["--home", str(world.home), "applications", "--today", "12/10/2026"])
    assert exit_.value.code == 2
    assert "is not a date" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--home", str(world.home), "applications", "--status", "hired"])
    capsys.readouterr()
    assert len(listed(capsys, world)) == 4


def test_an_empty_list_says_why_it_is_empty(world: Workspace,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, world, "applications", "--due", "--today", "2026-10-02")
    assert code == 0
    assert out.strip() == "nothing due for a follow-up as of 2026-10-02 (4 applications in all)"
    code, out, _ = cli(capsys, world, "applications", "--status", "offer")
    assert out.strip() == "no application with status offer (4 in all)"
    code, out, _ = cli(capsys, world, "applications", "--due", "--status", "saved")
    assert "nothing due for a follow-up" in out and "with status saved" in out


def test_an_empty_workspace_says_how_to_record_an_application(
        ws: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, ws, "applications", "--due")
    assert code == 0 and out.startswith("no applications; `jobtracker status POSTING applied`")
