"""The review screen: one keystroke per decision, each written at once."""

from __future__ import annotations

import json
import sqlite3
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from jobtracker import proposals
from jobtracker.runner import load_setup
from tests.tui.fixtures import (
    REPLACEMENT,
    application_status,
    make_workspace,
    proposal_states,
    screen_text,
    seed_review,
    settled,
    wait_until,
)
from tui.app import JobtrackerApp
from tui.screens.dashboard import DashboardScreen
from tui.screens.review import ReviewScreen

SIZE = (100, 30)


@pytest.fixture
def app(tmp_path: Path) -> JobtrackerApp:
    ws = make_workspace(tmp_path, None)
    seed_review(ws)
    return JobtrackerApp(load_setup(ws))


def review(app: JobtrackerApp) -> ReviewScreen:
    assert isinstance(app.screen, ReviewScreen)
    return app.screen


async def open_review(pilot: Any) -> None:
    await settled(pilot)
    await pilot.press("p")
    await settled(pilot)


async def test_p_opens_the_proposals_grouped_by_posting(app: JobtrackerApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await open_review(pilot)
        screen = review(app)
        assert [i.proposal.id for i in screen.items] == [1, 2, 3, 4]
        text = screen_text(app)
        assert "4 waiting: 1 resume_edit · 3 status · 1 stale" in text
        assert "Acme — Staff Engineer  1.30" in text
        assert "● status applied → interviewing" in text
        assert "! status no application → applied" in text
        # The first proposal is selected: the status change with its evidence in context.
        assert screen.current is not None and screen.current.proposal.id == 1
        assert "Subject  Your application" in text
        assert "▶we would like" in text and "interview◀" in text


async def test_a_accepts_at_once_moves_on_and_u_takes_it_back(app: JobtrackerApp) -> None:
    ws = app.setup.ws
    async with app.run_test(size=SIZE) as pilot:
        await open_review(pilot)
        await pilot.press("a")
        await settled(pilot)
        assert proposal_states(ws)[1] == "accepted"
        assert application_status(ws, 1) == "interviewing"
        text = screen_text(app)
        assert "✓ status applied → interviewing" in text
        assert "accepted 1: Acme: applied → interviewing" in text
        assert review(app).current.proposal.id == 2   # the next undecided one
        await pilot.press("u")                         # undo restores the status too
        await settled(pilot)
        assert proposal_states(ws)[1] == "pending"
        assert application_status(ws, 1) == "applied"


async def test_x_rejects_and_u_undoes(app: JobtrackerApp) -> None:
    ws = app.setup.ws
    async with app.run_test(size=SIZE) as pilot:
        await open_review(pilot)
        await pilot.press("x")
        await settled(pilot)
        assert proposal_states(ws)[1] == "rejected"
        assert "✗ status applied → interviewing" in screen_text(app)
        await pilot.press("u")
        await settled(pilot)
        assert proposal_states(ws)[1] == "pending"
        assert "undid rejecting 1" in screen_text(app)
        assert review(app).current.proposal.id == 1


async def test_a_stale_proposal_is_marked_and_cannot_be_accepted(app: JobtrackerApp) -> None:
    ws = app.setup.ws
    async with app.run_test(size=SIZE) as pilot:
        await open_review(pilot)
        await pilot.press("j", "j")
        await settled(pilot)
        assert review(app).current.proposal.id == 3
        text = screen_text(app)
        assert "STALE: the application's status is now 'applied'" in text
        assert "It cannot be accepted as it is" in text
        assert review(app).check_action("accept", ()) is None   # dimmed in the footer
        await pilot.press("a")
        await settled(pilot)
        assert proposal_states(ws)[3] == "pending"
        assert application_status(ws, 1) == "applied"
        await pilot.press("x")      # a stale one can still be turned down
        await settled(pilot)
        assert proposal_states(ws)[3] == "rejected"


async def test_upper_case_decides_every_remaining_one_in_the_group(
        app: JobtrackerApp) -> None:
    ws = app.setup.ws
    async with app.run_test(size=SIZE) as pilot:
        await open_review(pilot)
        await pilot.press("X")
        await settled(pilot)
        states = proposal_states(ws)
        assert [states[i] for i in (1, 2, 3)] == ["rejected"] * 3, "Acme's three, stale included"
        assert states[4] == "pending", "another posting's proposal is left alone"
        assert review(app).current.proposal.id == 4
        await pilot.press("A")
        await settled(pilot)
        assert proposal_states(ws)[4] == "accepted"
        assert application_status(ws, 3) == "applied"


async def test_u_after_an_upper_case_key_undoes_every_decision_it_made(
        app: JobtrackerApp) -> None:
    ws = app.setup.ws
    async with app.run_test(size=SIZE) as pilot:
        await open_review(pilot)
        before = proposal_states(ws)
        await pilot.press("X")
        await wait_until(pilot, lambda: proposal_states(ws)[1] == "rejected")
        await pilot.press("u")
        await wait_until(pilot, lambda: proposal_states(ws) == before)
        # The message is drawn after the undo's commit: waited for, as the states are.
        await wait_until(pilot, lambda: "undid rejecting 3 proposals decided together: "
                                        "1, 2, 3" in screen_text(app))
        await pilot.press("u")                   # nothing was decided before the X
        await wait_until(pilot, lambda: "nothing to undo" in screen_text(app))
        assert proposal_states(ws) == before


async def test_a_resume_edit_shows_a_marked_diff_and_a_refusal_is_shown(
        app: JobtrackerApp) -> None:
    """The diff's -/+ marks are characters, not colour. The workspace's resume.md does not
    hold the edit's original, so accepting is refused — in words, on the screen."""
    async with app.run_test(size=SIZE) as pilot:
        await open_review(pilot)
        await pilot.press("j")
        await settled(pilot)
        text = screen_text(app)
        assert "-Built services in Python." in text
        assert "+Built distributed services in Python and Go." in text
        assert " Led a team of three." in text
        assert "Reason   the posting asks for distributed systems and Go" in text
        await pilot.press("a")
        await settled(pilot)
        status = str(app.screen.query_one("#review-status").render())
        assert "proposal 2" in status, status
        assert proposal_states(app.setup.ws)[2] == "pending"


async def test_e_edits_the_replacement_in_the_editor_then_accepts(
        app: JobtrackerApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extend) -> None:
    applied: list[dict] = []

    async def apply(conn: Any, proposal: proposals.Proposal, now: str,
                    home: Path | None) -> dict:
        applied.append(proposal.payload)
        return {}

    # The kind as it is (its presentation makes `e` live), accepting into `applied`.
    extend(proposals.REGISTRY, replace(proposals.REGISTRY["resume_edit"], apply=apply))
    editor = tmp_path / "editor.py"
    editor.write_text("import sys, pathlib\np = pathlib.Path(sys.argv[1])\n"
                      "p.write_text(p.read_text().replace('Go', 'Rust'))\n")
    monkeypatch.setenv("EDITOR", f"{sys.executable} {editor}")
    monkeypatch.delenv("VISUAL", raising=False)
    async with app.run_test(size=SIZE) as pilot:
        await open_review(pilot)
        await pilot.press("j")
        await settled(pilot)
        await pilot.press("e")
        # The editor is a process of its own: wait for the accept it leads to.
        await wait_until(pilot, lambda: proposal_states(app.setup.ws)[2] == "accepted")
    edited = REPLACEMENT.replace("Go", "Rust")
    assert applied and applied[0]["replacement"] == edited and applied[0]["edited"] is True
    with sqlite3.connect(app.setup.ws.db) as conn:
        payload = json.loads(conn.execute("SELECT payload FROM proposals WHERE id = 2")
                             .fetchone()[0])
    assert payload["replacement"] == edited


async def test_escape_goes_back_and_the_waiting_count_follows(app: JobtrackerApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        # Four pending, one of them stale (it cannot be accepted): three wait.
        await wait_until(pilot, lambda: "3 proposals waiting" in screen_text(app))
        await open_review(pilot)
        await pilot.press("a")
        await settled(pilot)
        await pilot.press("escape")
        await settled(pilot)
        assert isinstance(app.screen, DashboardScreen)
        await wait_until(pilot, lambda: "2 proposals waiting" in screen_text(app))


async def test_at_80_columns_the_list_keeps_the_proposed_status_whole(
        app: JobtrackerApp) -> None:
    with sqlite3.connect(app.setup.ws.db) as conn:
        conn.execute("UPDATE proposals SET payload = json_set(payload, '$.to_status', "
                     "'interviewing') WHERE id = 4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen)
                         and bool(app.screen.items))
        await pilot.pause(0.2)
        rows = [row.split("││")[0] for row in screen_text(app).splitlines()
                if "● status" in row and "interviewing" in row]
        # What it changes from gives way; the target, the thing decided, stays whole.
        assert any(row.endswith("no appli… → interviewing") for row in rows), rows
