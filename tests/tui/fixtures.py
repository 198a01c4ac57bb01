"""Seeded workspaces for the TUI tests: real files, a real database, fixed data.

Rows are written with sqlite3 after the schema is created through the real code
path (`jobtracker check`), with fixed times, so screens built from them are the
same on every run.
"""

from __future__ import annotations

import asyncio
import io
import json
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.app import App
from textual.widgets import DataTable
from textual.worker import WorkerCancelled, WorkerFailed

from jobtracker.cli import main
from jobtracker.store import description_hash
from jobtracker.workspace import Workspace

PROFILE = "prose: Backend engineer\nlevels: [senior, staff]\n"
HOSTILE_TITLE = "[red]x[/red] [link=http://e.x]y[/link] \x1b[31mred\x1b[0m"
EVIDENCE = "we would like to invite you to a first interview"
MESSAGE_BODY = (
    "Hi Sam,\n\nThank you for applying to Acme.\n\n"
    "After reviewing your application, we would like to invite you to a first interview "
    "next week. Please pick a slot.\n\nBest,\nRita")
ORIGINAL = "Built services in Python.\nLed a team of three.\nWrote docs."
REPLACEMENT = "Built distributed services in Python and Go.\nLed a team of three.\nWrote docs."


def _connect(db: Path) -> sqlite3.Connection:
    """A raw connection that can write postings: the schema's triggers call
    description_hash(), which every connection must register."""
    conn = sqlite3.connect(db)
    conn.create_function("description_hash", 1, description_hash, deterministic=True)
    return conn


def make_workspace(tmp_path: Path, url: str | None = None, *,
                   tasks: str = "level: true, judge: false, inbox: false",
                   concurrency: int = 4) -> Workspace:
    """A workspace whose model server is `url` (None: none configured)."""
    ws = Workspace(tmp_path / "home")
    ws.init()
    (ws.home / "profile.yaml").write_text(PROFILE)
    (ws.home / "plugins.yaml").write_text(
        f"tasks: {{{tasks}, tailor: false, answer: false, coverletter: false}}\n")
    llm = f"  url: {url}\n" if url else "  url: null\n"
    (ws.home / "config.yaml").write_text(
        f"llm:\n{llm}  model: test-model\n  retries: 2\n  timeout: 5\n"
        f"concurrency: {concurrency}\n")
    # The schema through the real code path; in a thread of its own, so a test already
    # inside an event loop can call this too.
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(main, ["--home", str(ws.home), "check"]).result() == 0
    return ws


def seed_postings(db: Path, count: int, *, start: int = 1, title: str = "Engineer",
                  company: str = "Acme") -> None:
    """Open postings whose titles name no level (the level task's work)."""
    with _connect(db) as conn:
        conn.execute("INSERT OR IGNORE INTO boards (id, source, token, company) "
                     "VALUES (1, 'greenhouse', 'acme', 'Acme')")
        conn.executemany(
            "INSERT INTO postings (id, board_id, external_id, company, title, location, "
            "description, title_level, first_seen, last_seen) "
            "VALUES (?, 1, ?, ?, ?, 'Remote', ?, 'UNCERTAIN', ?, ?)",
            [(i, f"ext{i}", company, f"{title} {i}", f"Posting {i}: we build things.",
              "2026-11-01T00:00:00Z", "2026-11-29T00:00:00Z")
             for i in range(start, start + count)])


def _posting(conn: sqlite3.Connection, pid: int, company: str, title: str,
             description: str = "We build things.\n\nPython, SQL, on-call.") -> None:
    conn.execute(
        "INSERT INTO postings (id, board_id, external_id, company, title, location, remote, "
        "url, description, title_level, first_seen, last_seen) "
        "VALUES (?, 1, ?, ?, ?, 'Remote', 1, ?, ?, 'staff', ?, ?)",
        (pid, f"x{pid}", company, title, f"https://jobs.example/{pid}", description,
         "2026-11-01T00:00:00Z", "2026-11-29T00:00:00Z"))


def _ranked(conn: sqlite3.Connection, pid: int, verdict: str, score: float,
            reasons: list[str], prose_hash: str) -> None:
    """A verdict given for the current prose and description (so not stale), and a score."""
    conn.execute(
        "INSERT INTO rankings (posting_id, unit_key, prose_hash, description_hash, verdict, "
        "reasons, meets, misses, model, ranked_at) SELECT ?, ?, ?, ?, ?, ?, ?, ?, "
        "'test-model', '2026-11-29T00:00:00Z' FROM postings WHERE id = ?",
        (pid, f"j{pid}", prose_hash, "", verdict, json.dumps(reasons), json.dumps(["Python"]),
         json.dumps(["Go"]), pid))
    description = conn.execute("SELECT description FROM postings WHERE id = ?",
                               (pid,)).fetchone()[0]
    conn.execute("UPDATE rankings SET description_hash = ? WHERE posting_id = ?",
                 (description_hash(description), pid))
    parts = {"fit": {"value": 1.0, "weight": 1.0, "points": round(score - 0.3, 4),
                     "basis": f"verdict {verdict}"},
             "remote": {"value": 1.0, "weight": 0.3, "points": 0.3,
                        "basis": "board says remote"}}
    conn.execute("INSERT INTO scores (posting_id, score, parts, scored_at) "
                 "VALUES (?, ?, ?, '2026-11-29T00:00:00Z')", (pid, score, json.dumps(parts)))


def _proposal(conn: sqlite3.Connection, pid: int, kind: str, unit_key: str, posting: int,
              payload: dict, summary: str, application: int | None = None) -> None:
    conn.execute(
        "INSERT INTO proposals (id, kind, task, unit_key, posting_id, application_id, payload, "
        "summary, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, '2026-11-29T00:00:00Z')",
        (pid, kind, "inbox" if kind == "status" else "tailor", unit_key, posting, application,
         json.dumps(payload, sort_keys=True), summary))


def seed_review(ws: Workspace) -> None:
    """Three postings (one with a hostile title), an application, an email and four
    proposals: two about Acme (a status change and a resume edit), one stale, one
    about the hostile posting."""
    prose = ws.profile().prose_hash
    with _connect(ws.db) as conn:
        conn.execute("INSERT OR IGNORE INTO boards (id, source, token, company) "
                     "VALUES (1, 'greenhouse', 'acme', 'Acme')")
        _posting(conn, 1, "Acme", "Staff Engineer")
        _posting(conn, 2, "Bolt", "Platform Engineer")
        _posting(conn, 3, "Crane", HOSTILE_TITLE,
                 description=f"About the role\n\n{HOSTILE_TITLE}\n\nPython.")
        _ranked(conn, 1, "strong", 1.3, ["Python backend", "staff scope"], prose)
        _ranked(conn, 2, "good", 0.96, ["platform work"], prose)
        _ranked(conn, 3, "partial", 0.63, [HOSTILE_TITLE], prose)
        conn.execute("INSERT INTO applications (id, posting_id, company, status, created_at, "
                     "updated_at) VALUES (1, 1, 'Acme', 'applied', '2026-11-20T00:00:00Z', "
                     "'2026-11-20T00:00:00Z')")
        conn.execute(
            "INSERT INTO messages (key, message_id, content_hash, sender, sender_domain, "
            "subject, sent_at, body, company, posting_id, first_seen) VALUES "
            "('m1@acme', 'm1@acme', 'h', 'Rita <rita@acme.example>', 'acme.example', "
            "'Your application', '2026-11-28T09:30:00Z', ?, 'Acme', 1, "
            "'2026-11-28T10:00:00Z')", (MESSAGE_BODY,))
        message = {"key": "m1@acme", "subject": "Your application",
                   "sender": "Rita <rita@acme.example>", "date": "2026-11-28T09:30:00Z"}
        _proposal(conn, 1, "status", "m:m1@acme", 1, {
            "to_status": "interviewing", "from_status": "applied", "company": "Acme",
            "state": "interview_request", "evidence": EVIDENCE,
            "reading": "an interview invitation", "message": message},
            "Acme: applied → interviewing (interview_request)", application=1)
        _proposal(conn, 2, "resume_edit", "t:1", 1, {
            "original": ORIGINAL, "replacement": REPLACEMENT,
            "reason": "the posting asks for distributed systems and Go"},
            "resume: name distributed systems and Go")
        _proposal(conn, 3, "status", "m:old@acme", 1, {
            "to_status": "applied", "from_status": None, "company": "Acme",
            "state": "acknowledgement", "evidence": "we received your application",
            "reading": "an acknowledgement", "message": {}},
            "Acme: no application → applied (acknowledgement)")
        _proposal(conn, 4, "status", "m:m3@crane", 3, {
            "to_status": "applied", "from_status": None, "company": "Crane",
            "state": "acknowledgement", "evidence": HOSTILE_TITLE,
            "reading": HOSTILE_TITLE, "message": {"subject": HOSTILE_TITLE,
                                                   "sender": HOSTILE_TITLE}},
            f"Crane: no application → applied ({HOSTILE_TITLE})")


def proposal_states(ws: Workspace) -> dict[int, str]:
    with _connect(ws.db) as conn:
        return dict(conn.execute("SELECT id, state FROM proposals"))


def application_status(ws: Workspace, posting: int) -> str | None:
    with _connect(ws.db) as conn:
        row = conn.execute("SELECT status FROM applications WHERE posting_id = ?",
                           (posting,)).fetchone()
    return row[0] if row else None


def _console(app: App) -> Console:
    """The current screen rendered into a recording console, as the terminal gets it."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False,
                      safe_box=False)
    console.print(app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens))
    return console


def _render(app: App, styles: bool) -> str:
    return _console(app).export_text(styles=styles)


def screen_links(app: App) -> set[str]:
    """Every hyperlink on the screen (Rich/Textual `link` styles, OSC 8 on a terminal)."""
    console = _console(app)
    return {segment.style.link for segment in console._record_buffer
            if segment.style is not None and segment.style.link}


def screen_text(app: App) -> str:
    """The screen as a person reads it: characters only."""
    return _render(app, styles=False)


def screen_output(app: App) -> str:
    """The screen as the terminal receives it: characters and escape sequences."""
    return _render(app, styles=True)


async def wait_until(pilot: Any, holds: Callable[[], bool], timeout: float = 10.0) -> None:
    """Let the app run until `holds()` is true (workers read the database in their own
    time, slower on a loaded machine); fail after `timeout` seconds."""
    waited = 0.0
    while not holds():
        assert waited < timeout, f"not true after {timeout} s"
        await pilot.pause(0.05)
        waited += 0.05


# Workers that last until the test ends them (a run, a fetch): `settled` does not wait.
LASTING = ("run", "fetch")


async def settled(pilot: Any, timeout: float = 10.0) -> None:
    """Let the app finish what the last key or screen started: the screens' workers
    (each reads or writes the database in its own time), the messages they posted,
    the tables' measuring of new rows (a `DataTable` lays them out when idle) and what
    waits for the next refresh (the footer redraws its keys then), until a pass finds
    nothing left; fail after `timeout` seconds."""
    app = pilot.app
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        await pilot.pause()
        busy = [w for w in app.workers if not w.is_finished and w.group not in LASTING]
        tables = [t for t in app.screen.query(DataTable)
                  if t._require_update_dimensions or t._updated_cells]
        left = deadline - loop.time()
        assert left > 0, f"still busy after {timeout} s: {busy or tables}"
        if busy:
            with suppress(WorkerFailed, WorkerCancelled, TimeoutError):
                await asyncio.wait_for(app.workers.wait_for_complete(busy), left)
            continue
        refreshed = asyncio.Event()
        app.screen.call_after_refresh(refreshed.set)
        with suppress(TimeoutError):
            await asyncio.wait_for(refreshed.wait(), left)
        if not tables:
            await pilot.pause()
            return


def live_shown(app: App) -> bool:
    """The dashboard (when it is on top) has shown everything the run reported: its
    last refresh read the live state's latest version and took every log line."""
    seen = getattr(app.screen, "_seen_version", None)
    live = getattr(app, "live", None)
    return seen is None or live is None or (seen == live.version and not live.has_lines)


async def shown(pilot: Any, timeout: float = 10.0) -> None:
    """Settled, and the dashboard's refresh (twice a second) has caught up with the run."""
    await settled(pilot, timeout)
    await wait_until(pilot, lambda: live_shown(pilot.app), timeout)
    await settled(pilot, timeout)
