"""Stages working together: a posting level settles is judged and scored in the same run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jobtracker.cli import main
from tests.db import raw_connect
from tests.run_world import make_workspace
from tests.servers.model import ModelServer

PLUGINS = ("tasks: {level: true, judge: true, inbox: false, tailor: false, "
           "answer: false, coverletter: false}\n")


def answer_by_task(body: dict) -> dict:
    """level says staff; judge says good, with a reason drawn from the posting."""
    task = body["response_format"]["json_schema"]["name"]
    if task == "level":
        return {"level": "staff", "reason": "leads a team"}
    return {"verdict": "good", "reasons": ["builds things"], "meets": [], "misses": []}


def test_continuous_run_judges_what_level_settled(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    with ModelServer(answer=answer_by_task) as srv:
        ws = make_workspace(tmp_path, srv.url, postings=3)
        (ws.home / "plugins.yaml").write_text(PLUGINS)
        capsys.readouterr()
        from tui.cli import main as tui_main

        assert tui_main(["--run", "--home", str(ws.home)]) == 0
        tasks = [r.json["response_format"]["json_schema"]["name"] for r in srv.chat_requests]
    # Every posting was first read for its level, then judged, all in one run.
    assert tasks.count("level") == 3 and tasks.count("judge") == 3
    assert tasks.index("judge") > 0
    with raw_connect(ws.db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM rankings").fetchone()[0] == 3
        scores = conn.execute("SELECT COUNT(*) FROM scores").fetchone()[0]
    assert scores == 3, "judging drained, so the run rescored"
    assert "6 finished, 0 failed" in capsys.readouterr().out.splitlines()[-1]


def test_a_pinned_continuous_run_works_only_its_task_not_follow_ups(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ModelServer(answer=answer_by_task) as srv:
        ws = make_workspace(tmp_path, srv.url, postings=3)
        (ws.home / "plugins.yaml").write_text(PLUGINS)
        from tui.cli import main as tui_main

        assert tui_main(["--run", "--task", "level", "--home", str(ws.home)]) == 0
        tasks = [r.json["response_format"]["json_schema"]["name"] for r in srv.chat_requests]
    # Level settled three matches, but the run was pinned to level: nothing was judged.
    assert tasks == ["level"] * 3
    assert "3 finished, 0 failed" in capsys.readouterr().out.splitlines()[-1]


def test_plain_work_drains_only_the_first_stage(tmp_path: Path) -> None:
    with ModelServer(answer=answer_by_task) as srv:
        ws = make_workspace(tmp_path, srv.url, postings=2)
        (ws.home / "plugins.yaml").write_text(PLUGINS)
        assert main(["--home", str(ws.home), "work"]) == 0
        tasks = {r.json["response_format"]["json_schema"]["name"] for r in srv.chat_requests}
    assert tasks == {"level"}


def test_rank_rescores_even_without_a_model(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    with ModelServer(answer=answer_by_task) as srv:
        ws = make_workspace(tmp_path, srv.url, postings=2)
        (ws.home / "plugins.yaml").write_text(PLUGINS)
        from tui.cli import main as tui_main

        assert tui_main(["--run", "--home", str(ws.home)]) == 0
    with raw_connect(ws.db) as conn:
        conn.execute("DELETE FROM scores")
    (ws.home / "config.yaml").write_text("llm:\n  url: http://127.0.0.1:9\n  model: m\n")
    capsys.readouterr()
    assert main(["--home", str(ws.home), "rank"]) == 0
    out = capsys.readouterr().out
    assert "No model:" in out
    assert "rescored 2 judged posting(s)" in out
    assert main(["--home", str(ws.home), "matches", "--json"]) == 0
    matches = json.loads(capsys.readouterr().out)
    assert [m["verdict"] for m in matches] == ["good", "good"]
