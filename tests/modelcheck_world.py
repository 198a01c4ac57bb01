"""The helpers the `model check` tests share: a runner workspace pointed at a loopback
model server with the tasks under check switched on, running the check for its JSON
report, and reading that report's rows by task."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jobtracker.cli import main
from jobtracker.workspace import Workspace
from tests.run_world import make_workspace
from tests.servers.model import ModelServer

ALL_TASKS = ("tasks: {level: true, judge: true, inbox: true, tailor: false, answer: false, "
             "coverletter: false}\n")
# The fit and table tests were written before the answer task came and leave it unsaid
# (at its default); they keep that plugins.yaml.
ALL_TASKS_ANSWER_UNSAID = ("tasks: {level: true, judge: true, inbox: true, tailor: false, "
                           "coverletter: false}\n")


def check(ws: Workspace, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, Any, str]:
    capsys.readouterr()     # what setting the workspace up printed
    code = main(["--home", str(ws.home), "model", "check", "--json", *extra])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def workspace(tmp_path: Path, server: ModelServer, postings: int = 0,
              plugins: str = ALL_TASKS) -> Workspace:
    ws = make_workspace(tmp_path, server.url, postings)
    (ws.home / "plugins.yaml").write_text(plugins)
    return ws


def by_task(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {row["task"]: row for row in rows}
