"""The failure ledger: a failure is recorded and never retried in the run, set aside
after three, cleared by a success, forgotten for a new question."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jobtracker.workspace import Workspace
from tests import run_world
from tests.db import raw_connect
from tests.run_world import TASKS_ANSWER_UNSAID, ledger, make_workspace, readings, work
from tests.servers.model import Fault, ModelServer

# The shared fixtures, bound here by name so that pytest finds them in this file.
server = run_world.server


# These tests count attempts, not seconds (run_world.short_backoff).
pytestmark = pytest.mark.usefixtures("short_backoff")
short_backoff = run_world.short_backoff


def test_failure_is_recorded_never_retried_in_the_run_and_set_aside_after_three(
        tmp_path: Path, server: ModelServer, capsys: pytest.CaptureFixture[str]) -> None:
    ws = make_workspace(tmp_path, server.url, postings=3, tasks=TASKS_ANSWER_UNSAID)
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
    ws = make_workspace(tmp_path, server.url, postings=1, tasks=TASKS_ANSWER_UNSAID)
    server.queue(*[Fault.status(500)] * 3)
    assert work(ws) == 1            # the only unit failed
    assert list(ledger(ws).values()) == [1]
    assert work(ws) == 0
    assert ledger(ws) == {}
    assert readings(ws) == {1: "senior"}


def test_changed_description_is_a_new_unit_with_a_clean_slate(tmp_path: Path,
                                                              server: ModelServer) -> None:
    ws = make_workspace(tmp_path, server.url, postings=1, tasks=TASKS_ANSWER_UNSAID)
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


def test_an_answer_whose_one_statement_fails_is_that_units_failure(tmp_path: Path) -> None:
    # Level's answer is one statement committed on its own (no transaction around it):
    # its failure — the posting deleted while it was asked, so its foreign key fails —
    # is the unit's own, recorded, and the units around it are written.
    def answer(body: dict) -> dict:
        if "Posting 2:" in json.dumps(body):
            with raw_connect(ws.db) as conn:    # no foreign keys on this connection
                conn.execute("DELETE FROM postings WHERE id = 2")
        return {"level": "senior", "reason": "stated"}

    with ModelServer(answer=answer) as srv:
        ws = make_workspace(tmp_path, srv.url, postings=3, tasks=TASKS_ANSWER_UNSAID)
        assert work(ws) == 0

    assert readings(ws) == {1: "senior", 3: "senior"}
    assert [key.split(":")[0] for key, failures in ledger(ws).items() if failures == 1] == ["p2"]
