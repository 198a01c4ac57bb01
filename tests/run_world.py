"""The world the runner's tests share: a workspace with only the level task on (the
schema made by `jobtracker check`), open postings whose titles name no level, a model
server that reads every one as senior, and the helpers that read back what a run left.

A test file takes the `server` fixture by binding it by name (`server =
run_world.server`); one of its own would take precedence."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from jobtracker.cli import main
from jobtracker.workspace import Workspace
from tests.db import raw_connect
from tests.servers.model import ModelServer

PROFILE = "prose: Backend engineer\nlevels: [senior, staff]\n"

TASKS = ("tasks: {level: true, judge: false, inbox: false, "
         "tailor: false, answer: false, coverletter: false}\n")
# The ledger, setup and level tests were written before the answer task came and leave
# it unsaid (at its default); they keep that plugins.yaml.
TASKS_ANSWER_UNSAID = ("tasks: {level: true, judge: false, inbox: false, "
                       "tailor: false, coverletter: false}\n")


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


def make_workspace(tmp_path: Path, url: str | None, postings: int = 0, *,
                   tasks: str = TASKS) -> Workspace:
    ws = Workspace(tmp_path / "home")
    ws.init()
    (ws.home / "profile.yaml").write_text(PROFILE)
    (ws.home / "plugins.yaml").write_text(tasks)
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


def dump(ws: Workspace) -> list[str]:
    """Every row of every table, as SQL: what "changes nothing" is measured against."""
    with raw_connect(ws.db) as conn:
        return list(conn.iterdump())


def ledger(ws: Workspace) -> dict[str, int]:
    with raw_connect(ws.db) as conn:
        return dict(conn.execute("SELECT unit_key, failures FROM task_attempts"))


def answer_level(level: str):
    def answer(body: dict) -> dict:
        return {"level": level, "reason": "stated"}
    return answer


@pytest.fixture
def server() -> Iterator[ModelServer]:
    with ModelServer(answer=answer_level("senior")) as srv:
        yield srv


@pytest.fixture
def short_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """For tests that count attempts or units, not seconds: retry waits of 5 ms and 10 ms,
    not the real 0.5 s and 1 s (tests/unit/test_llm_client_timings.py holds the real ones)."""
    from jobtracker.llm import client

    monkeypatch.setattr(client, "BACKOFF_START", 0.005)


def work(ws: Workspace, *args: str) -> int:
    return main(["--home", str(ws.home), "work", *args])
