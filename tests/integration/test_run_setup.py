"""A run's setup: a resume that is not UTF-8 is a clear error, not a missing file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import run_world
from tests.run_world import TASKS_ANSWER_UNSAID, make_workspace, readings, work
from tests.servers.model import ModelServer

# The shared fixtures, bound here by name so that pytest finds them in this file.
server = run_world.server


def test_non_utf8_resume_is_a_clear_error_not_a_missing_file(
        tmp_path: Path, server: ModelServer, capsys: pytest.CaptureFixture[str]) -> None:
    ws = make_workspace(tmp_path, server.url, postings=1, tasks=TASKS_ANSWER_UNSAID)
    (ws.home / "resume.md").write_bytes(b"Caf\xe9 owner\n")
    capsys.readouterr()
    assert work(ws) == 2
    assert f"{ws.home / 'resume.md'}: not UTF-8 text" in capsys.readouterr().err
    assert readings(ws) == {}
