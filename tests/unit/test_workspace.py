"""Which folder is the workspace: --home, $JOBTRACKER_HOME, $XDG_DATA_HOME, with `~` and
variables expanded."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.workspace import resolve_home


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
