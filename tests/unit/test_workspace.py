"""Which folder is the workspace: --home, $JOBTRACKER_HOME, $XDG_DATA_HOME, with `~` and
variables expanded."""

from __future__ import annotations

import subprocess
import sys
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


def test_importing_the_workspace_loads_no_task_and_no_source(tmp_path: Path) -> None:
    # In a fresh interpreter: Workspace is paths and file loading; the registries are
    # the run's setup's to import (jobtracker/run/setup.py), when a file is checked.
    # pyproject's contract "Workspace holds paths and file loading" keeps them out of
    # workspace.py altogether, in-function imports included.
    probe = ("import sys\nfrom jobtracker.workspace import Workspace\n"
             "print(sorted(m for m in sys.modules if m.split('.')[:2] in "
             "(['jobtracker', 'tasks'], ['jobtracker', 'sources'], ['jobtracker', 'run'])))\n"
             "from jobtracker.run.setup import sources_of\n"
             "sources_of(Workspace(__import__('pathlib').Path(sys.argv[1])))\n"
             "print('jobtracker.sources' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", probe, str(tmp_path)],
                          capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.split("\n")[:2] == ["[]", "True"]
