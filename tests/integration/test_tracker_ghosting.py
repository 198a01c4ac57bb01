"""Ghosting: proposed once per silence, applied only by a yes, stale when the silence
ends, also from a run without a model."""

from __future__ import annotations

import asyncio
import json

import pytest
from conftest import run_cli

from jobtracker import store, tracker
from jobtracker.config import Followup
from jobtracker.workspace import Workspace
from tests import tracker_world
from tests.tracker_seed import message, seeded, set_status
from tests.tracker_world import cli, listed

# The shared fixtures, bound here by name so that pytest finds them in this file.
world = tracker_world.world


def test_ghosting_is_proposed_once_per_silence_and_applied_only_by_a_yes(
        world: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    async def propose(now: str) -> int:
        async with store.connect(world.db) as conn, store.write(conn):
            return await tracker.propose_ghosted(conn, Followup(), now)

    assert asyncio.run(propose("2026-10-30T00:00:00Z")) == 0
    assert asyncio.run(propose("2026-11-01T00:00:00Z")) == 1     # Bolt: 31 days silent
    assert asyncio.run(propose("2026-11-02T00:00:00Z")) == 0     # the same silence
    [ghost] = json.loads(cli(capsys, world, "proposals", "list", "--json")[1])
    assert (ghost["task"], ghost["kind"], ghost["posting"]) == ("followup", "status", 2)
    assert ghost["payload"]["evidence"] == "no reply since 2026-10-01 (31 days)"
    assert listed(capsys, world)[2]["status"] == "applied"       # nothing without a yes
    assert cli(capsys, world, "proposals", "reject", str(ghost["id"]))[0] == 0
    assert asyncio.run(propose("2026-12-01T00:00:00Z")) == 2     # Acme, Crane; Bolt not again
    ids = [p["id"] for p in json.loads(cli(capsys, world, "proposals", "list", "--json")[1])
           if p["state"] == "pending"]
    assert cli(capsys, world, "proposals", "accept", *map(str, ids))[0] == 0
    assert listed(capsys, world)[1]["status"] == "ghosted"
    history = json.loads(cli(capsys, world, "applications", "show", "1", "--json")[1])["history"]
    assert history[-1]["source"] == "proposal" and history[-1]["evidence"].startswith(
        "no reply since 2026-10-06")


@pytest.mark.parametrize("heard", ["mail", "status", "same day"])
def test_a_ghosting_proposal_goes_stale_when_the_silence_ends(
        world: Workspace, capsys: pytest.CaptureFixture[str], heard: str) -> None:
    """Bolt was proposed `ghosted` for its silence since Oct 1; a reply (by company), or
    a status set by hand, after that day ends the silence: the proposal is stale and a
    yes cannot apply it. Mail on the day the silence began changes nothing."""
    async def propose(conn) -> None:
        assert await tracker.propose_ghosted(conn, Followup(), "2026-11-01T00:00:00Z") == 1
    asyncio.run(seeded(world.db, propose))

    async def hear(conn) -> None:
        if heard == "mail":
            await message(conn, "late", "2026-11-03T10:00:00Z", company="bolt",
                          state="scheduling")
        elif heard == "status":
            await set_status(conn, 2, "screening", "2026-11-03T10:00:00Z")
        else:
            await message(conn, "same", "2026-10-01T18:00:00Z", posting=2)
    asyncio.run(seeded(world.db, hear))
    [ghost] = json.loads(cli(capsys, world, "proposals", "list", "--json")[1])
    if heard == "same day":
        assert ghost["state"] == "pending"
        return
    assert ghost["state"] == "stale"
    assert ghost["stale_reason"] == ("the silence it counts from 2026-10-01 ended on "
                                     "2026-11-03")
    code, _, err = cli(capsys, world, "proposals", "accept", str(ghost["id"]))
    assert code == 2 and f"proposal {ghost['id']} is stale" in err
    assert listed(capsys, world)[2]["status"] == ("screening" if heard == "status"
                                                  else "applied")


def test_a_headless_run_without_a_model_still_proposes_ghosted(world: Workspace) -> None:
    (world.home / "config.yaml").write_text("llm: {url: null}\n")
    done = run_cli("--home", str(world.home), "--run", module="tui.cli")
    assert done.returncode == 0, done.stderr

    async def ghosts() -> list[tuple]:
        async with store.connect(world.db) as conn:
            return [tuple(r) for r in await conn.execute_fetchall(
                "SELECT task, posting_id, json_extract(payload, '$.to_status') FROM proposals")]
    # Today is long after October: every open application is silent for 30+ days.
    assert sorted(asyncio.run(ghosts())) == [("followup", 1, "ghosted"), ("followup", 2, "ghosted"),
                                             ("followup", 3, "ghosted")]
