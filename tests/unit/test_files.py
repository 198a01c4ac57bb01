"""Files written for the user: never through a link jobtracker did not make, with the
user's own permissions."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from jobtracker import store
from jobtracker.files import FileRefused, guard_inside, remove_recorded, write_recorded

NOW = "2026-11-30T12:00:00Z"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    return home


@pytest.mark.parametrize("linked", ["tailored", "tailored/3-acme.md"])
async def test_a_symlinked_folder_or_file_is_refused_and_its_target_untouched(
        home: Path, tmp_path: Path, linked: str) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "3-acme.md").write_text("the user's own file\n")
    if linked == "tailored":
        (home / "tailored").symlink_to(outside, target_is_directory=True)
    else:
        (home / "tailored").mkdir()
        (home / linked).symlink_to(outside / "3-acme.md")
    async with store.connect(home / "jobtracker.db") as conn:
        with pytest.raises(FileRefused, match="symbolic link"):
            await write_recorded(conn, home, home / "tailored" / "3-acme.md", "new\n", NOW, None)
        with pytest.raises(FileRefused, match="symbolic link"):
            await remove_recorded(conn, home, home / "tailored" / "3-acme.md")
    assert (outside / "3-acme.md").read_text() == "the user's own file\n"
    assert sorted(p.name for p in outside.iterdir()) == ["3-acme.md"]


def test_a_path_outside_the_workspace_is_refused(home: Path, tmp_path: Path) -> None:
    with pytest.raises(FileRefused, match="outside the workspace"):
        guard_inside(home, tmp_path / "elsewhere.md")


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002, 0o277])
async def test_written_files_are_private_whatever_the_umask(home: Path, umask: int) -> None:
    """0600 (letters hold what an employer reads; the workspace is private), less what a
    stricter umask of the user's takes away."""
    old = os.umask(umask)
    try:
        async with store.connect(home / "jobtracker.db") as conn:
            path = home / "letters" / "3-acme.md"
            await write_recorded(conn, home, path, "Dear Acme\n", NOW, None)
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 & ~umask


def test_a_run_refuses_a_runs_folder_that_links_outside(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from tests.servers.model import ModelServer
    from tests.tui.fixtures import make_workspace
    from tui.cli import main as tui_main

    outside = tmp_path / "outside"
    outside.mkdir()
    with ModelServer() as server:
        ws = make_workspace(tmp_path, server.url)
        (ws.home / "runs").rmdir()
        (ws.home / "runs").symlink_to(outside, target_is_directory=True)
        assert tui_main(["--run", "--home", str(ws.home)]) == 2
    assert "is a symbolic link" in capsys.readouterr().err
    assert list(outside.iterdir()) == []
