"""Prompt fit: a prompt larger than the context does not fit and names its unit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jobtracker.cli import main
from jobtracker.workspace import Workspace
from tests.db import raw_connect
from tests.run_world import make_workspace
from tests.servers.model import ModelServer, count_tokens
from tests.servers.model_eval import EvalAnswers

ALL_TASKS = "tasks: {level: true, judge: true, inbox: true, tailor: false, coverletter: false}\n"


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


def test_a_prompt_larger_than_the_context_does_not_fit_and_names_the_unit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    props = {"default_generation_settings": {"n_ctx": 600}}
    with ModelServer(answer=EvalAnswers(), props=props, tokenize=count_tokens) as server:
        ws = workspace(tmp_path, server, postings=2)
        with raw_connect(ws.db) as conn:
            conn.execute("UPDATE postings SET description = ? WHERE id = 2", ("x " * 600,))
        code, report, _ = check(ws, capsys)
    level = by_task(report["tasks"])["level"]
    assert level["fits"] is False and level["unit"] == "Acme — Engineer 2"
    assert level["largest_prompt_tokens"] + 512 > 600
    assert code == 1 and report["ok"] is False
    assert any("level: a prompt of" in p and "Engineer 2" in p for p in report["problems"])
