"""The packet screen: from matches `P` prepares and opens it; j/k, c, u, A; `u` on matches.
The form comes from a loopback Greenhouse board; labels from it are shown literally."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable

from jobtracker.runner import load_setup
from jobtracker.workspace import Workspace
from tests.db import raw_connect
from tests.servers.boards import BoardServer, gh_field, gh_question, greenhouse_form
from tests.tui.fixtures import (
    HOSTILE_TITLE,
    application_status,
    make_workspace,
    screen_text,
    seed_review,
    settled,
    wait_until,
)
from tui.app import JobtrackerApp
from tui.clock import FrozenClock
from tui.screens.matches import MatchesScreen
from tui.screens.packet import PacketScreen

SIZE = (100, 30)
ANSWERS = """\
identity: {first_name: Ada, last_name: Lovelace, email: ada@example.org, location: "London, UK"}
work_authorization: "Yes"
requires_sponsorship: "No"
eeo: decline
"""


def form_for(job: int) -> dict[str, Any]:
    questions = [
        gh_question("First Name", gh_field("first_name"), required=True),
        gh_question("Email", gh_field("email"), required=True),
        gh_question("Resume/CV", gh_field("resume", "input_file"), required=True),
        gh_question("Are you legally authorized to work in Germany?",
                    gh_field("q1", "multi_value_single_select", ("Yes", "No")), required=True),
        gh_question("Why do you want to work at Acme?", gh_field("q2", "textarea"),
                    required=True),
        gh_question(HOSTILE_TITLE, gh_field("q3")),
    ]
    return greenhouse_form(job, "Staff Engineer", questions=questions)


@pytest.fixture
def server() -> Iterator[BoardServer]:
    with BoardServer() as running:
        for job in (1, 2, 3):
            running.set(f"/gh/acme/x{job}?questions=true", form_for(job))
        yield running


def workspace(tmp_path: Path, server: BoardServer) -> Workspace:
    ws = make_workspace(tmp_path, None)
    seed_review(ws)
    (ws.home / "answers.yaml").write_text(ANSWERS)
    with raw_connect(ws.db) as conn:
        conn.execute("UPDATE boards SET url = ? WHERE id = 1", (server.url("/gh/acme"),))
    return ws


@pytest.fixture
def app(tmp_path: Path, server: BoardServer) -> JobtrackerApp:
    return JobtrackerApp(load_setup(workspace(tmp_path, server)))


async def open_packet(pilot: Any, *keys: str) -> PacketScreen:
    await pilot.press("m")
    await settled(pilot)
    await pilot.press(*keys, "P")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, PacketScreen)
                     and pilot.app.screen.packet is not None)
    return pilot.app.screen


async def test_P_prepares_the_packet_and_shows_each_field_with_its_answer(
        app: JobtrackerApp, server: BoardServer) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_packet(pilot)
        assert screen.posting_id == 1
        assert (app.setup.ws.home / "applications" / "1-acme-staff-engineer" /
                "answers.json").is_file(), "P prepared the missing packet"
        table = screen.query_one(DataTable)
        assert table.row_count == len(screen.fields) > 6
        text = screen_text(app)
        assert "employer's form, 1 required left" in text
        assert "1 edit to review" in text, "Acme's pending resume edit is not in the packet"
        assert "Ada" in text and "identity.first_name" in text
        assert "apply: https://jobs.example/1" in text
        assert HOSTILE_TITLE.split(" ")[0] in text, "the hostile label is shown literally"
        assert "\x1b" not in text
    assert [r.path for r in server.requests] == ["/gh/acme/x1?questions=true"]


async def test_j_k_c_u_copy_the_answer_and_the_apply_url(app: JobtrackerApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_packet(pilot)
        await pilot.press("c")
        assert app.clipboard == "Ada"
        await pilot.press("j", "c")
        assert app.clipboard == "ada@example.org"
        await pilot.press("j", "j", "c")
        assert app.clipboard == "Yes", "a select is answered with its own option"
        await pilot.press("k", "c")
        folder = app.setup.ws.home / "applications" / "1-acme-staff-engineer"
        assert app.clipboard == str(folder / "resume.pdf"), "an upload: the PDF's full path"
        assert "read back ✓" in screen_text(app)
        await pilot.press("j", "j", "c")   # "Why ...": unresolved, nothing copied
        assert app.clipboard == str(folder / "resume.pdf")
        assert "nothing to copy" in screen_text(app)
        await pilot.press("u")
        assert app.clipboard == "https://jobs.example/1"
        assert screen.current is not None


async def test_A_marks_the_application_applied(app: JobtrackerApp) -> None:
    ws = app.setup.ws
    async with app.run_test(size=SIZE) as pilot:
        await open_packet(pilot, "j")          # Bolt: no application yet
        await pilot.press("A")
        await settled(pilot)
        assert application_status(ws, 2) == "applied"
        assert "applied (was no application)" in screen_text(app)
        await pilot.press("escape")
        await settled(pilot)
        assert isinstance(app.screen, MatchesScreen)
        # Back on the list, the row says what the packet's A did.
        table = app.screen.query_one(DataTable)
        await wait_until(pilot, lambda: table.get_row("2")[3].plain == "applied")
        assert app.screen.current.id == 2, "the cursor stays on the posting"


async def test_an_existing_packet_opens_without_reading_the_form_again(
        app: JobtrackerApp, server: BoardServer) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await open_packet(pilot)
        await pilot.press("escape")
        await open_packet(pilot)
    assert len(server.requests) == 1


async def test_u_on_matches_copies_the_postings_url(app: JobtrackerApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("m")
        await settled(pilot)
        await pilot.press("j", "u")
        assert app.clipboard == "https://jobs.example/2"
        assert "copied the URL of Bolt - Platform Engineer" in screen_text(app)


async def test_a_bad_answers_yaml_says_so_on_the_packet_screen(app: JobtrackerApp) -> None:
    (app.setup.ws.home / "answers.yaml").write_text("eeo: male\n")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("m")
        await settled(pilot)
        await pilot.press("P")
        await settled(pilot)
        assert "cannot prepare:" in screen_text(app)
        assert "eeo: unknown value" in screen_text(app)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_packet_snapshot(snap_compare: Any, tmp_path: Path, server: BoardServer,
                         monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    app = JobtrackerApp(load_setup(workspace(tmp_path, server)), clock=FrozenClock())
    async def packet_open(pilot: Any) -> None:
        await open_packet(pilot)
        await settled(pilot)

    assert snap_compare(app, terminal_size=size, run_before=packet_open)


async def test_A_never_takes_an_application_back_or_writes_a_non_change(
        app: JobtrackerApp) -> None:
    ws = app.setup.ws
    async with app.run_test(size=SIZE) as pilot:
        await open_packet(pilot)               # Acme: applied already
        await pilot.press("A")
        await settled(pilot)
        assert "already applied; not changed" in screen_text(app)
        with raw_connect(ws.db) as conn:
            conn.execute("UPDATE applications SET status = 'interviewing' WHERE id = 1")
        await pilot.press("A")
        await settled(pilot)
        assert application_status(ws, 1) == "interviewing"


async def test_at_80_columns_the_header_keeps_what_the_packet_waits_for_whole(
        tmp_path: Path, server: BoardServer) -> None:
    ws = workspace(tmp_path, server)
    with raw_connect(ws.db) as conn:
        conn.execute(
            "INSERT INTO proposals (id, kind, task, unit_key, posting_id, payload, summary, "
            "created_at) VALUES (9, 'letter', 'coverletter', 'c:1', 1, '{\"text\": \"Dear\"}',"
            " 'a letter for Acme', '2026-11-29T00:00:00Z')")
    app = JobtrackerApp(load_setup(ws))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_packet(pilot)
        await settled(pilot)
        header = screen_text(app).splitlines()[0]
        assert header.rstrip().endswith("1 required left ─ 1 edit, 1 letter to review"), header
        assert "Packet ─ Acme" in header
