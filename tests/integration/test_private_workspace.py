"""A workspace is private to its user: answers.yaml holds a phone number and a salary,
the database holds mail. A new one is 0700, and every file jobtracker writes in it
0600 (folders 0700), whatever the umask; `check` warns about one others can read."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from jobtracker.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def open_umask() -> Iterator[None]:
    """The most common umask, which alone would make files 0644 and folders 0755."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def not_private(home: Path) -> list[str]:
    found = []
    for path in (home, *home.rglob("*")):
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode):
            continue
        if stat.S_IMODE(info.st_mode) & 0o077:
            found.append(f"{path.relative_to(home.parent)} {stat.S_IMODE(info.st_mode):04o}")
    return found


def test_init_makes_a_private_folder_and_private_files(tmp_path: Path) -> None:
    home = tmp_path / "fresh" / "home"
    assert main(["--home", str(home), "init"]) == 0
    assert main(["--home", str(home), "check"]) == 0
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    assert (home / "jobtracker.db").exists()
    assert not_private(home) == []


def test_everything_a_demo_run_writes_is_private(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The database and its WAL, events.jsonl, packets, the lock, tailored files."""
    home = tmp_path / "demo"
    env = {**os.environ, "JOBTRACKER_DEMO_LATENCY": "0.01", "PYTHONPATH": str(ROOT)}
    env.pop("JOBTRACKER_HOME", None)
    done = subprocess.run([sys.executable, "-m", "tui", "--demo", "--run", "--home", str(home)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    capsys.readouterr()
    assert main(["--home", str(home), "proposals", "list", "--json"]) == 0
    edit = next(p for p in json.loads(capsys.readouterr().out) if p["kind"] == "resume_edit")
    assert main(["--home", str(home), "proposals", "accept", str(edit["id"])]) == 0
    assert any((home / "runs").rglob("events.jsonl"))
    assert any((home / "applications").iterdir())
    assert any((home / "tailored").iterdir())
    assert not_private(home) == []


def test_check_warns_about_a_workspace_others_can_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "home"
    assert main(["--home", str(home), "init"]) == 0
    os.chmod(home, 0o755)
    os.chmod(home / "answers.yaml", 0o644)
    capsys.readouterr()
    assert main(["--home", str(home), "check"]) == 0, "a warning, not an error"
    err = capsys.readouterr().err
    assert f"warning: {home} can be read by others (mode 0755)" in err
    assert f"warning: {home / 'answers.yaml'} can be read by others (mode 0644)" in err
    assert f"chmod -R go-rwx {home}" in err
    os.chmod(home, 0o700)
    os.chmod(home / "answers.yaml", 0o600)
    assert main(["--home", str(home), "check"]) == 0
    assert "warning" not in capsys.readouterr().err
