"""Workspace choice and `jobtracker init`."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.cli import main
from jobtracker.workspace import TEMPLATE_FILES, Workspace, resolve_home
from tests.conftest import run_cli


def test_home_flag_wins_over_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("JOBTRACKER_HOME", str(tmp_path / "env"))
    assert resolve_home(str(tmp_path / "flag")) == tmp_path / "flag"
    assert resolve_home(None) == tmp_path / "env"


def test_xdg_default_when_nothing_is_set(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert resolve_home(None) == tmp_path / "data" / "jobtracker"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    assert resolve_home(None) == tmp_path / "user" / ".local" / "share" / "jobtracker"


def test_home_expands_tilde_and_variables(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("WHERE", "jobs")
    assert resolve_home("~/$WHERE") == tmp_path / "jobs"


@pytest.mark.parametrize("order", ["before", "after"])
def test_home_accepted_before_or_after_subcommand(tmp_path: Path, order: str) -> None:
    home = tmp_path / order
    argv = ["--home", str(home), "init"] if order == "before" else ["init", "--home", str(home)]
    assert main(argv) == 0
    assert sorted(p.name for p in home.iterdir() if p.is_file()) == sorted(TEMPLATE_FILES)


def test_init_creates_every_file_and_never_overwrites(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "ws"
    assert main(["--home", str(home), "init"]) == 0
    (home / "profile.yaml").write_text("prose: mine\n")
    (home / "resume.md").unlink()
    capsys.readouterr()
    assert main(["--home", str(home), "init"]) == 0
    out = capsys.readouterr().out
    assert (home / "profile.yaml").read_text() == "prose: mine\n"
    assert f"created {home / 'resume.md'}" in out
    assert "profile.yaml" not in out
    for folder in ("runs", "tailored", "letters"):
        assert (home / folder).is_dir()


def test_init_templates_are_valid_configuration(tmp_path: Path) -> None:
    """The commented examples `init` writes must load without an error."""
    ws = Workspace(tmp_path / "ws")
    ws.init()
    config = ws.config()
    assert config.concurrency == 4
    assert config.llm.url == "http://localhost:11434/v1"
    profile = ws.profile()
    assert profile.levels == ("senior", "staff")
    assert ws.sources().boards[0].ats == "greenhouse"
    assert ws.plugins()["coverletter"] is False


def test_help_is_exit_zero_as_a_process() -> None:
    result = run_cli("--help")
    assert result.returncode == 0
    assert "init" in result.stdout


def test_unknown_subcommand_is_usage_error() -> None:
    result = run_cli("frobnicate")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr
