"""A model name the server does not list is a configuration error (exit 2); a server
that is away is not (exit 0); `--model NAME` picks the model for one run.

Contract §3: exit 0 covers "no model configured or reachable"; a reachable server
without the configured model used to exit 0 as well, so a typo on a timer meant
silent nights. It is exit 2 now, naming config.yaml and the field.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from jobtracker.cli import main
from jobtracker.workspace import Workspace
from tests.servers.model import ModelServer
from tui.cli import main as tui_main

PLUGINS = "tasks: {level: true, judge: false, inbox: false, tailor: false, coverletter: false}\n"


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def workspace(tmp_path: Path, url: str, model: str, extra: str = "") -> Workspace:
    ws = Workspace(tmp_path / "home")
    ws.init()
    (ws.home / "plugins.yaml").write_text(PLUGINS)
    (ws.home / "config.yaml").write_text(
        f"llm:\n  url: {url}\n  model: {model}\n  retries: 1\n  timeout: 5\n{extra}")
    return ws


def test_a_model_the_server_does_not_list_exits_2_naming_the_file_and_field(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ModelServer(models=["qwen3:8b"]) as server:
        ws = workspace(tmp_path, server.url, "qwen3:8bb")
        assert main(["--home", str(ws.home), "work"]) == 2
        captured = capsys.readouterr()
        assert "No model: model 'qwen3:8bb' not listed" in captured.out
        assert f"{ws.home / 'config.yaml'}: llm.model: model 'qwen3:8bb' not listed" in (
            captured.err)
        assert "--model NAME" in captured.err
        assert server.chat_count == 0


def test_the_headless_run_on_a_timer_exits_2_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ModelServer(models=["qwen3:8b"]) as server:
        ws = workspace(tmp_path, server.url, "qwen3:8bb")
        assert tui_main(["--run", "--home", str(ws.home)]) == 2
        assert "llm.model: model 'qwen3:8bb' not listed" in capsys.readouterr().err


def test_a_per_task_model_not_listed_exits_2_after_the_other_tasks_ran(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ModelServer(models=["qwen3:8b"]) as server:
        ws = workspace(tmp_path, server.url, "qwen3:8b",
                       "  models: {tailor: qwen3:32b}\n")
        (ws.home / "plugins.yaml").write_text(
            "tasks: {level: true, judge: false, inbox: false, tailor: true, "
            "coverletter: false}\n")
        assert main(["--home", str(ws.home), "work"]) == 2
        err = capsys.readouterr().err
        assert "llm.models.tailor: model 'qwen3:32b' not listed" in err
        assert "(for tailor)" in err


def test_an_unreachable_server_stays_exit_0(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    ws = workspace(tmp_path, closed_port_url(), "qwen3:8b")
    assert main(["--home", str(ws.home), "work"]) == 0
    captured = capsys.readouterr()
    assert "unreachable" in captured.out and captured.err == ""


def test_model_flag_picks_the_model_for_one_run(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    with ModelServer(models=["qwen3:8b"]) as server:
        ws = workspace(tmp_path, server.url, "qwen3:8bb")
        assert main(["--home", str(ws.home), "work", "--model", "qwen3:8b"]) == 0
        assert "qwen3:8bb" in (ws.home / "config.yaml").read_text(), "the file is left as it was"
        assert main(["--home", str(ws.home), "work", "--model", "nope"]) == 2
        assert "--model: model 'nope' not listed" in capsys.readouterr().err
