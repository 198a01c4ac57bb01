"""`jobtracker applications`, `show`, `note` and `stats`, and ghosting, as a user runs
them: due dates from history and mail as of --today, one ghosting proposal per
silence accepted only by a yes, the funnel with zero, one and many applications."""

from __future__ import annotations

import asyncio
import json

import pytest
from conftest import run_cli

from jobtracker import store, tracker
from jobtracker.cli import main
from jobtracker.config import Followup
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


def test_due_dates_come_from_history_and_mail_as_of_today(
        world: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    rows = listed(capsys, world, "--today", "2026-10-12")
    assert rows[1]["applied_at"] == "2026-10-01T09:00:00Z"
    assert rows[1]["last_contact_at"] == "2026-10-06T10:00:00Z"
    assert rows[1]["followup_due"] == "2026-10-16" and rows[1]["due"] is False
    assert rows[2]["last_contact_at"] == "2026-10-01T09:05:00Z"   # mail linked by company
    assert rows[2]["followup_due"] == "2026-10-11" and rows[2]["due"] is True
    assert rows[3]["followup_due"] == "2026-10-25" and rows[3]["due"] is False
    assert rows[4]["followup_due"] is None and rows[4]["applied_at"] is None
    assert list(listed(capsys, world, "--today", "2026-10-12", "--due")) == [2]
    assert set(listed(capsys, world, "--today", "2026-10-26", "--due")) == {1, 2, 3}
    assert list(listed(capsys, world, "--status", "saved")) == [4]
    # Most recent activity first: Crane's status change, then Acme's reply, then Bolt.
    assert list(listed(capsys, world))[:3] == [3, 1, 2]


def test_followup_days_come_from_config(world: Workspace,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    (world.home / "config.yaml").write_text("followup: {applied: 2, ghosted_after: 5}\n")
    rows = listed(capsys, world, "--today", "2026-10-12")
    assert rows[1]["followup_due"] == "2026-10-08" and rows[1]["due"] is True
    assert rows[3]["followup_due"] == "2026-10-25"                 # interviewing: default 5
    (world.home / "config.yaml").write_text("followup: {aplied: 2}\n")
    code, _, err = cli(capsys, world, "applications")
    assert code == 2 and "config.yaml:1: followup.aplied: unknown key" in err


def test_show_has_history_mail_and_notes_stored_and_shown_literally(
        world: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    hostile = "call [red]Rita[/red] \x1b[31mnow\x1b[0m"
    assert cli(capsys, world, "applications", "note", "1", hostile)[0] == 0
    code, out, _ = cli(capsys, world, "applications", "show", "1", "--json")
    found = json.loads(out)
    assert code == 0 and found["notes"][0]["text"] == hostile
    assert [(h["from"], h["to"], h["source"]) for h in found["history"]] == [
        (None, "applied", "hand")]
    assert [(m["date"], m["state"]) for m in found["messages"]] == [
        ("2026-10-06T10:00:00Z", "scheduling")]
    assert {"id", "posting", "company", "title", "status", "applied_at", "last_contact_at",
            "followup_due", "due", "url"} <= set(found)
    code, out, _ = cli(capsys, world, "applications", "show", "1")
    assert "[red]Rita[/red]" in out and "\x1b" not in out
    assert "mail from Rita <rita@acme.test>: Re: your application [scheduling]" in out


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


def test_stats_with_zero_one_and_many(ws: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, ws, "stats", "--json")
    empty = json.loads(out)
    assert code == 0 and empty["applications"] == 0 and empty["response_rate"] is None
    assert empty["median_days_to_reply"] is None and empty["by_source"] == []

    async def one(conn) -> None:
        await postings(conn, (1, "Acme", "Engineer"))
        await set_status(conn, 1, "applied", "2026-10-01T00:00:00Z")
        await message(conn, "r", "2026-10-04T00:00:00Z", posting=1, state="interview_request")
    asyncio.run(seeded(ws.db, one))
    single = json.loads(cli(capsys, ws, "stats", "--json")[1])
    assert (single["applications"], single["responded"], single["response_rate"]) == (1, 1, 1.0)
    assert single["median_days_to_reply"] == 3.0
    assert single["by_source"] == [{"source": "greenhouse:acme", "applications": 1,
                                    "responded": 1, "response_rate": 1.0, "interviews": 0,
                                    "offers": 0}]
    text = cli(capsys, ws, "stats")[1]
    assert "responded    1 of 1\n" in text and "100%" not in text

    async def many(conn) -> None:
        await postings(conn, *((i, f"Co{i}", "Engineer") for i in range(2, 13)))
        for i in range(2, 13):
            await set_status(conn, i, "applied", "2026-10-01T00:00:00Z")
        await set_status(conn, 2, "interviewing", "2026-10-10T00:00:00Z")
        await set_status(conn, 2, "offer", "2026-10-20T00:00:00Z")
        await message(conn, "ack3", "2026-10-01T01:00:00Z", posting=3, state="acknowledgement")
        await message(conn, "rej4", "2026-10-08T00:00:00Z", posting=4, state="rejection")
    asyncio.run(seeded(ws.db, many))
    full = json.loads(cli(capsys, ws, "stats", "--json")[1])
    assert full["applications"] == 12 and full["by_status"]["applied"] == 11
    assert full["responded"] == 3          # 1 (mail), 2 (statuses), 4 (mail); 3's ack is not
    assert full["response_rate"] == 0.25
    assert (full["interviews"], full["offers"]) == (1, 1)
    assert full["median_days_to_reply"] == 5.0                 # 3 days and 7 days
    assert "responded    3 of 12 (25%)" in cli(capsys, ws, "stats")[1]


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
