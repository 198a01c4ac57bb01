"""The matches screen's `S`: a prompt taking a job page's address or its text, saved as
`jobtracker save` saves it, and the saved job listed, marked, once judged."""

from __future__ import annotations

import json
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from textual.widgets import Input, TextArea

from jobtracker.cli import main
from jobtracker.runner import load_setup
from tests.servers.boards import BoardServer
from tests.servers.model import ModelServer
from tests.tui.fixtures import make_workspace, screen_text, seed_review, wait_until
from tui.app import JobtrackerApp
from tui.screens.matches import MatchesScreen
from tui.screens.save_prompt import SavePrompt

SIZE = (100, 30)
PAGE = ('<html><head><script type="application/ld+json">' + json.dumps({
    "@type": "JobPosting", "title": "Senior Tide Engineer",
    "hiringOrganization": {"name": "Harbour Works"},
    "jobLocation": {"address": {"addressLocality": "Bremen", "addressCountry": "DE"}},
    "description": "<p>Tide models in Python for the harbour. Senior role, five years.</p>"
}) + "</script></head><body></body></html>")


@pytest.fixture
def server() -> BoardServer:
    with BoardServer() as running:
        running.set("/jobs/tide", PAGE, content_type="text/html")
        yield running


def saved_rows(app: JobtrackerApp) -> list[tuple[str, str, str]]:
    with sqlite3.connect(app.setup.ws.db) as conn:
        return conn.execute("SELECT p.company, p.title, p.url FROM postings p JOIN boards b "
                            "ON b.id = p.board_id WHERE b.source = 'saved' ORDER BY p.id"
                            ).fetchall()


async def open_prompt(app: JobtrackerApp, pilot) -> None:
    await pilot.press("m")
    await wait_until(pilot, lambda: isinstance(app.screen, MatchesScreen)
                     and bool(app.screen.matches))
    await pilot.press("S")
    await wait_until(pilot, lambda: isinstance(app.screen, SavePrompt))


async def test_S_saves_a_page_by_its_address_and_the_judged_job_is_listed_marked(
        tmp_path: Path, server: BoardServer) -> None:
    ws = make_workspace(tmp_path, None)
    seed_review(ws)
    app = JobtrackerApp(load_setup(ws))
    async with app.run_test(size=SIZE) as pilot:
        await open_prompt(app, pilot)
        assert "Save a posting: its page's address, or its text" in screen_text(app)
        app.screen.query_one(TextArea).text = server.url("/jobs/tide")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: "saved posting" in screen_text(app))
        assert "Harbour Works - Senior Tide Engineer" in screen_text(app)
        assert "n lists it until it is judged" in screen_text(app)
    assert saved_rows(app) == [("Harbour Works", "Senior Tide Engineer",
                                server.url("/jobs/tide"))]
    # Judged like any other match (its place, Bremen, is not in the profile's).
    (ws.home / "plugins.yaml").write_text(
        "tasks: {level: false, judge: true, inbox: false, tailor: false, answer: false, "
        "coverletter: false}\n")
    strong = {"verdict": "strong", "reasons": ["tides"], "meets": [], "misses": []}
    # The command runs its own event loop: in a thread of its own.
    with ModelServer(answer=lambda body: strong) as model, ThreadPoolExecutor(1) as pool:
        assert pool.submit(main, ["--home", str(ws.home), "rank", "--llm-url",
                                  model.url]).result() == 0
    app = JobtrackerApp(load_setup(ws))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("m")
        await wait_until(pilot, lambda: "Senior Tide Engineer (saved)" in screen_text(app)
                         or "Tide Eng (saved)" in screen_text(app))
        saved = next(m for m in app.screen.matches if m.saved)
        assert (saved.company, saved.verdict) == ("Harbour Works", "strong")


async def test_S_saves_pasted_text_with_company_and_title(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, None)       # no model: the company and title are typed
    seed_review(ws)
    app = JobtrackerApp(load_setup(ws))
    async with app.run_test(size=SIZE) as pilot:
        await open_prompt(app, pilot)
        app.screen.query_one(TextArea).text = ("Lighthouse keeper\nFull time, on site.\n"
                                               "Keep the light \x1b[31mburning.")
        app.screen.query_one("#save-company", Input).value = "Coast Guard"
        app.screen.query_one("#save-title", Input).value = "Lighthouse Keeper"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: "saved posting" in screen_text(app))
        assert "\x1b" not in screen_text(app)
    assert saved_rows(app) == [("Coast Guard", "Lighthouse Keeper", "")]


async def test_S_without_company_for_text_says_why_and_escape_saves_nothing(
        tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, None)
    seed_review(ws)
    app = JobtrackerApp(load_setup(ws))
    async with app.run_test(size=SIZE) as pilot:
        await open_prompt(app, pilot)
        app.screen.query_one(TextArea).text = "Some job somewhere."
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: "nothing saved" in screen_text(app))
        assert "give --company and --title" in screen_text(app)
        await pilot.press("S")
        await wait_until(pilot, lambda: isinstance(app.screen, SavePrompt))
        app.screen.query_one(TextArea).text = "https://example.invalid/job"
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, MatchesScreen))
    assert saved_rows(app) == []
