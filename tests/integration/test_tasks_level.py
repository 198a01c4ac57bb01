"""The level task: "unclear" is an answer, recorded, not a failure."""

from __future__ import annotations

from pathlib import Path

from tests.run_world import (
    TASKS_ANSWER_UNSAID,
    answer_level,
    ledger,
    make_workspace,
    readings,
    work,
)
from tests.servers.model import ModelServer


def test_unclear_is_an_answer_not_a_failure(tmp_path: Path) -> None:
    with ModelServer(answer=answer_level("unclear")) as srv:
        ws = make_workspace(tmp_path, srv.url, postings=2, tasks=TASKS_ANSWER_UNSAID)
        assert work(ws) == 0
        assert readings(ws) == {1: "unclear", 2: "unclear"}
        assert ledger(ws) == {}
        assert work(ws, "--dry-run") == 0
