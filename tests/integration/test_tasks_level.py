"""The level task: "unclear" is an answer, recorded, not a failure."""

from __future__ import annotations

from pathlib import Path

from jobtracker.cli import main
from jobtracker.workspace import Workspace
from tests.db import raw_connect
from tests.servers.model import ModelServer

PROFILE = "prose: Backend engineer\nlevels: [senior, staff]\n"


def seed_postings(db: Path, count: int, *, start: int = 1, title: str = "Engineer") -> None:
    """Open postings whose titles name no level, each with a description."""
    with raw_connect(db) as conn:
        conn.execute("INSERT OR IGNORE INTO boards (id, source, token, company) "
                     "VALUES (1, 'greenhouse', 'acme', 'Acme')")
        conn.executemany(
            "INSERT INTO postings (id, board_id, external_id, company, title, location, "
            "description, title_level, first_seen, last_seen) "
            "VALUES (?, 1, ?, 'Acme', ?, 'Remote', ?, 'UNCERTAIN', ?, ?)",
            [(i, f"ext{i}", f"{title} {i}", f"Posting {i}: we build things. 5+ years.",
              f"2026-11-{1 + i % 28:02d}T00:00:00Z", "2026-11-29T00:00:00Z")
             for i in range(start, start + count)])


def make_workspace(tmp_path: Path, url: str | None, postings: int = 0) -> Workspace:
    ws = Workspace(tmp_path / "home")
    ws.init()
    (ws.home / "profile.yaml").write_text(PROFILE)
    (ws.home / "plugins.yaml").write_text("tasks: {level: true, judge: false, inbox: false, "
                                          "tailor: false, coverletter: false}\n")
    llm = f"  url: {url}\n" if url else "  url: null\n"
    (ws.home / "config.yaml").write_text(
        f"llm:\n{llm}  model: test-model\n  retries: 3\n  timeout: 5\nconcurrency: 4\n")
    # Create the schema through the real code path, then seed.
    assert main(["--home", str(ws.home), "check"]) == 0
    if postings:
        seed_postings(ws.db, postings)
    return ws


def readings(ws: Workspace) -> dict[int, str]:
    with raw_connect(ws.db) as conn:
        return dict(conn.execute("SELECT posting_id, level FROM level_readings"))


def ledger(ws: Workspace) -> dict[str, int]:
    with raw_connect(ws.db) as conn:
        return dict(conn.execute("SELECT unit_key, failures FROM task_attempts"))


def answer_level(level: str):
    def answer(body: dict) -> dict:
        return {"level": level, "reason": "stated"}
    return answer


def work(ws: Workspace, *args: str) -> int:
    return main(["--home", str(ws.home), "work", *args])


def test_unclear_is_an_answer_not_a_failure(tmp_path: Path) -> None:
    with ModelServer(answer=answer_level("unclear")) as srv:
        ws = make_workspace(tmp_path, srv.url, postings=2)
        assert work(ws) == 0
        assert readings(ws) == {1: "unclear", 2: "unclear"}
        assert ledger(ws) == {}
        assert work(ws, "--dry-run") == 0
