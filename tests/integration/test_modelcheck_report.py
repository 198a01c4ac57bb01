"""The check's table: 80 columns, and untrusted text printed cleanly."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.cli import main
from tests.db import raw_connect
from tests.modelcheck_world import ALL_TASKS_ANSWER_UNSAID, workspace
from tests.servers.model import ModelServer, count_tokens
from tests.servers.model_eval import EvalAnswers


def test_the_table_fits_80_columns_and_prints_untrusted_text_cleanly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    props = {"default_generation_settings": {"n_ctx": 600}}
    with ModelServer(answer=EvalAnswers(wrong=["inbox-offer"]), props=props,
                     tokenize=count_tokens) as server:
        ws = workspace(tmp_path, server, postings=1, plugins=ALL_TASKS_ANSWER_UNSAID)
        with raw_connect(ws.db) as conn:
            conn.execute("UPDATE postings SET title = ?, description = ? WHERE id = 1",
                         ("Evil \x1b[31mRED\x1b]0;pwned\x07 \u202eEngineer", "y " * 700))
        capsys.readouterr()
        code = main(["--home", str(ws.home), "model", "check"])
        out, err = capsys.readouterr()
    assert code == 1
    assert "DOES NOT FIT" in out and "unit: Acme — Evil RED Engineer" in out
    assert "NOT OK" in out and "inbox: accuracy" not in out     # 14 of 15 is above the bar
    for text in (out, err):
        assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert max(len(line) for line in out.splitlines()) <= 80
