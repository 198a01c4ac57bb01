"""`jobtracker init`: every file created from a valid template, none ever overwritten."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.cli import main
from jobtracker.workspace import Workspace


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
