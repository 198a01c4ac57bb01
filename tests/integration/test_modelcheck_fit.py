"""Prompt fit: a prompt larger than the context does not fit and names its unit."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.db import raw_connect
from tests.modelcheck_world import ALL_TASKS_ANSWER_UNSAID, by_task, check, workspace
from tests.servers.model import ModelServer, count_tokens
from tests.servers.model_eval import EvalAnswers


def test_a_prompt_larger_than_the_context_does_not_fit_and_names_the_unit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    props = {"default_generation_settings": {"n_ctx": 600}}
    with ModelServer(answer=EvalAnswers(), props=props, tokenize=count_tokens) as server:
        ws = workspace(tmp_path, server, postings=2, plugins=ALL_TASKS_ANSWER_UNSAID)
        with raw_connect(ws.db) as conn:
            conn.execute("UPDATE postings SET description = ? WHERE id = 2", ("x " * 600,))
        code, report, _ = check(ws, capsys)
    level = by_task(report["tasks"])["level"]
    assert level["fits"] is False and level["unit"] == "Acme — Engineer 2"
    assert level["largest_prompt_tokens"] + 512 > 600
    assert code == 1 and report["ok"] is False
    assert any("level: a prompt of" in p and "Engineer 2" in p for p in report["problems"])
