"""The failure ledger: a failure is recorded and never retried in the run, set aside
after three, cleared by a success, forgotten for a new question."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from jobtracker.cli import main
from jobtracker.workspace import Workspace
from tests.db import raw_connect
from tests.servers.model import Fault, ModelServer

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


@pytest.fixture
def server() -> Iterator[ModelServer]:
    with ModelServer(answer=answer_level("senior")) as srv:
        yield srv


def work(ws: Workspace, *args: str) -> int:
    return main(["--home", str(ws.home), "work", *args])


def test_failure_is_recorded_never_retried_in_the_run_and_set_aside_after_three(
        tmp_path: Path, server: ModelServer, capsys: pytest.CaptureFixture[str]) -> None:
    ws = make_workspace(tmp_path, server.url, postings=3)
    server.rule(lambda body: "Posting 2:" in json.dumps(body), Fault.content('{"level": "ninja"}'))
    for night in (1, 2, 3):
        # Night 1 also answers postings 1 and 3; later nights attempt only posting 2,
        # and a run whose every attempted unit failed exits 1.
        assert work(ws) == (0 if night == 1 else 1), f"night {night}"
        assert ledger(ws) == {f"p2:{_hash(ws, 2)}": night}
    assert set(readings(ws)) == {1, 3}
    # Each night asked posting 2 exactly `retries` times: the call retried, the unit did not.
    asked = [r for r in server.chat_requests if "Posting 2:" in json.dumps(r.json)]
    assert len(asked) == 9
    keys = {r.headers["idempotency-key"] for r in asked}
    assert len(keys) == 1, "the Idempotency-Key is stable across reruns of a unit"
    capsys.readouterr()
    assert work(ws, "--dry-run") == 0
    assert "nothing to do, 1 set aside" in capsys.readouterr().out
    # Set aside: the fourth night does not ask again.
    before = server.chat_count
    assert work(ws) == 0
    assert server.chat_count == before


def test_a_success_resets_the_failure_count(tmp_path: Path, server: ModelServer) -> None:
    ws = make_workspace(tmp_path, server.url, postings=1)
    server.queue(*[Fault.status(500)] * 3)
    assert work(ws) == 1            # the only unit failed
    assert list(ledger(ws).values()) == [1]
    assert work(ws) == 0
    assert ledger(ws) == {}
    assert readings(ws) == {1: "senior"}


def test_changed_description_is_a_new_unit_with_a_clean_slate(tmp_path: Path,
                                                              server: ModelServer) -> None:
    ws = make_workspace(tmp_path, server.url, postings=1)
    server.queue(*[Fault.status(500)] * 9)
    for _ in range(3):
        work(ws)
    assert list(ledger(ws).values()) == [3]
    with raw_connect(ws.db) as conn:
        conn.execute("UPDATE postings SET description = 'A new text: staff role.' WHERE id = 1")
    assert work(ws) == 0
    assert readings(ws) == {1: "senior"}


def _hash(ws: Workspace, posting_id: int) -> str:
    from jobtracker.store import description_hash

    with raw_connect(ws.db) as conn:
        (text,) = conn.execute("SELECT description FROM postings WHERE id = ?",
                               (posting_id,)).fetchone()
    return description_hash(text)
