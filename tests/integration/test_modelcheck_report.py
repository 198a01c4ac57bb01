"""The check's table: 80 columns, and untrusted text printed cleanly."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.cli import main
from jobtracker.workspace import Workspace
from tests.db import raw_connect
from tests.run_world import make_workspace
from tests.servers.model import ModelServer, count_tokens
from tests.servers.model_eval import EvalAnswers

ALL_TASKS = "tasks: {level: true, judge: true, inbox: true, tailor: false, coverletter: false}\n"


def workspace(tmp_path: Path, server: ModelServer, postings: int = 0,
              plugins: str = ALL_TASKS) -> Workspace:
    ws = make_workspace(tmp_path, server.url, postings)
    (ws.home / "plugins.yaml").write_text(plugins)
    return ws


def test_the_table_fits_80_columns_and_prints_untrusted_text_cleanly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    props = {"default_generation_settings": {"n_ctx": 600}}
    with ModelServer(answer=EvalAnswers(wrong=["inbox-offer"]), props=props,
                     tokenize=count_tokens) as server:
        ws = workspace(tmp_path, server, postings=1)
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
