"""The packets at the end of a nightly run: made with the model down, switched off by
prepare.top 0, a bad answers.yaml said in one line."""

from __future__ import annotations

import pytest

from jobtracker.workspace import Workspace
from tests import prepare_world
from tests.servers.boards import (
    BoardServer,
)
from tui.cli import main as tui_main

# The shared fixtures, bound here by name so that pytest finds them in this file.
home, server = prepare_world.home, prepare_world.server


def test_the_nightly_run_prepares_packets_with_the_model_server_down(
        home: Workspace, server: BoardServer, capsys: pytest.CaptureFixture[str]) -> None:
    (home.home / "config.yaml").write_text(
        "llm: {url: 'http://127.0.0.1:9', retries: 1, timeout: 2}\nprepare: {top: 2}\n")
    assert tui_main(["--home", str(home.home), "--run"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1].startswith("No model: "), "the run's close stays last"
    assert out.index("acme-staff-engineer/  the employer's form") < out.index("No model: ")
    folders = sorted(p.name for p in (home.home / "applications").iterdir())
    assert len(folders) == 2 and any(name.endswith("acme-staff-engineer") for name in folders)


def test_prepare_top_0_switches_the_nightly_prepare_off(home: Workspace) -> None:
    (home.home / "config.yaml").write_text("llm: {url: null}\nprepare: {top: 0}\n")
    assert tui_main(["--home", str(home.home), "--run"]) == 0
    assert not (home.home / "applications").exists()


def test_a_bad_answers_yaml_at_the_end_of_a_run_is_one_timestamped_line(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    (home.home / "answers.yaml").write_text("eeo: male\n")
    assert tui_main(["--home", str(home.home), "--run"]) == 0
    out = capsys.readouterr().out
    line = next(text for text in out.splitlines() if " prepare " in text)
    assert "prepare not done: " in line and "answers.yaml:1: eeo: unknown value" in line
    assert not (home.home / "applications").exists()
