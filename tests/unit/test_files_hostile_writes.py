"""Writes through links and onto special files: the atomic write never renames over
a link, a FIFO, a device or a folder (by lstat); the workspace's one writer refuses a
linked folder on the way and, per file, either follows a link and keeps it
(profile.yaml, sources.yaml) or refuses it (digests, interviews, packets); `render -o`
writes into a FIFO or a character device without renaming (never replacing
/dev/null) and refuses a folder it would have to create. Removals go through the
same guard. The outside file is untouched every time."""

from __future__ import annotations

import asyncio
import os
import stat
import threading
from pathlib import Path

import pytest

from jobtracker import files, proposals, store
from jobtracker.cli import main
from jobtracker.notify import archive
from jobtracker.proposals.profile import text_hash
from jobtracker.workspace import Workspace
from tests.render_samples import RESUME

NOW = "2026-12-01T12:00:00Z"
SPECIAL = ["link to a file", "link to a folder", "dangling link", "fifo", "folder",
           "link to /dev/null"]    # only ever a link to it: see the render test below


def plant(path: Path, kind: str, outside: Path) -> None:
    outside.mkdir(exist_ok=True)
    if kind == "link to a file":
        (outside / "theirs.txt").write_text("theirs\n")
        path.symlink_to(outside / "theirs.txt")
    elif kind == "link to a folder":
        path.symlink_to(outside)
    elif kind == "dangling link":
        path.symlink_to(outside / "nothing-here")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        path.symlink_to("/dev/null")


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


@pytest.mark.parametrize("kind", SPECIAL)
def test_the_atomic_write_replaces_nothing_that_is_not_a_regular_file(
        tmp_path: Path, kind: str) -> None:
    target = tmp_path / "home" / "file.txt"
    target.parent.mkdir()
    outside = tmp_path / "outside"
    plant(target, kind, outside)
    before = os.lstat(target)
    kept = snapshot(outside)
    with pytest.raises(files.FileRefused, match=str(target)):
        files.write_atomic(target, "ours\n")
    after = os.lstat(target)
    assert (stat.S_IFMT(after.st_mode), after.st_ino) == (stat.S_IFMT(before.st_mode),
                                                          before.st_ino)
    assert snapshot(outside) == kept
    assert [p.name for p in target.parent.iterdir()] == ["file.txt"], "no temporary left"


@pytest.mark.parametrize("name", ["digests", "interviews", "tailored"])
def test_the_workspace_writer_refuses_a_linked_folder_on_the_way(
        tmp_path: Path, name: str) -> None:
    home, outside = tmp_path / "home", tmp_path / "outside"
    home.mkdir()
    outside.mkdir()
    (home / name).symlink_to(outside)
    with pytest.raises(files.FileRefused, match="symbolic link"):
        files.write_workspace(home, home / name / "x.md", "ours\n")
    (outside / "x.md").write_text("theirs\n")
    with pytest.raises(files.FileRefused, match="symbolic link"):
        files.remove_workspace(home, home / name / "x.md")
    assert (outside / "x.md").read_text() == "theirs\n"
    assert snapshot(outside) == {"x.md": b"theirs\n"}


@pytest.mark.parametrize("kind", SPECIAL)
def test_a_file_the_policy_refuses_to_follow_is_refused(tmp_path: Path, kind: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    plant(home / "interviews.ics", kind, tmp_path / "outside")
    kept = snapshot(tmp_path / "outside")
    with pytest.raises(files.FileRefused):
        files.write_workspace(home, home / "interviews.ics", "BEGIN:VCALENDAR\n")
    assert snapshot(tmp_path / "outside") == kept


def test_a_followed_link_stays_a_link_and_its_target_changes(tmp_path: Path) -> None:
    home, dotfiles = tmp_path / "home", tmp_path / "dotfiles"
    home.mkdir()
    dotfiles.mkdir()
    (dotfiles / "profile.yaml").write_text("levels: [senior]\n")
    os.chmod(dotfiles / "profile.yaml", 0o640)
    (home / "profile.yaml").symlink_to(dotfiles / "profile.yaml")
    written = files.write_workspace(home, home / "profile.yaml", "levels: [staff]\n",
                                    links=files.FOLLOW)
    assert written == (dotfiles / "profile.yaml").resolve()
    assert (home / "profile.yaml").is_symlink()
    assert (dotfiles / "profile.yaml").read_text() == "levels: [staff]\n"
    assert stat.S_IMODE(os.stat(dotfiles / "profile.yaml").st_mode) == 0o640
    (home / "sources.yaml").symlink_to("/dev/null")
    with pytest.raises(files.FileRefused, match="not a regular file"):
        files.write_workspace(home, home / "sources.yaml", "boards: []\n", links=files.FOLLOW)


def test_an_accepted_learn_edit_writes_a_linked_profiles_target(
        ws: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    text = "# mine\nexclude: [crypto]\n"
    (dotfiles / "profile.yaml").write_text(text)
    (ws.home / "profile.yaml").unlink()
    (ws.home / "profile.yaml").symlink_to(dotfiles / "profile.yaml")

    async def seed() -> int:
        async with store.connect(ws.db) as conn, store.write(conn):
            return await proposals.create(
                conn, kind="profile", task="learn", unit_key="profile:1", summary="s", now=NOW,
                payload={"edit": {"op": "append", "path": ["exclude"], "value": "gambling"},
                         "profile_hash": text_hash(text), "rule": "r", "evidence": "e",
                         "decisions": []})

    made = asyncio.run(seed())
    assert main(["--home", str(ws.home), "proposals", "accept", str(made)]) == 0
    assert (ws.home / "profile.yaml").is_symlink(), "the user's link is kept"
    assert "gambling" in (dotfiles / "profile.yaml").read_text()
    assert main(["--home", str(ws.home), "proposals", "undo"]) == 0
    assert (ws.home / "profile.yaml").is_symlink()
    assert (dotfiles / "profile.yaml").read_text() == text


@pytest.mark.parametrize("kind", ["link to a folder", "fifo", "dangling link"])
def test_the_digest_archive_writes_nothing_through_a_linked_or_planted_folder(
        tmp_path: Path, kind: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    plant(home / "digests", kind, tmp_path / "outside")
    with pytest.raises(OSError):
        archive.check_writable(home)
    assert not (tmp_path / "outside" / ".send-test").exists()


# --- render -o --------------------------------------------------------------------------

def render(tmp_path: Path, *args: str) -> int:
    source = tmp_path / "cv.md"
    source.write_text(RESUME)
    return main(["--home", str(tmp_path / "no-workspace"), "render", str(source), *args])


def test_render_into_a_character_device_writes_into_it_and_never_replaces_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Never the system's /dev/null itself: code that renamed over it would replace it
    for the whole machine. A device node of the same kind in tmp_path when root may
    make one, and a link to /dev/null (a rename would replace only the link)."""
    (tmp_path / "null").symlink_to("/dev/null")
    targets = [tmp_path / "null"]
    if os.geteuid() == 0:
        os.mknod(tmp_path / "own-null", 0o666 | stat.S_IFCHR, os.stat("/dev/null").st_rdev)
        targets.append(tmp_path / "own-null")
    for out in targets:
        before = os.lstat(out)
        assert render(tmp_path, "-o", str(out)) == 0, capsys.readouterr().err
        after = os.lstat(out)
        assert (stat.S_IFMT(after.st_mode), after.st_ino) == (stat.S_IFMT(before.st_mode),
                                                              before.st_ino)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_render_into_a_fifo_writes_into_it_for_its_reader(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    while not got and reader.is_alive():
        code = render(tmp_path, "-o", str(fifo))
        if code == 0:
            break
        capsys.readouterr()          # the reader had not opened it yet: nobody read
    reader.join(20)
    assert got and got[0].startswith(b"%PDF")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_render_into_a_fifo_nobody_reads_is_refused_at_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.mkfifo(tmp_path / "pipe")
    assert render(tmp_path, "-o", str(tmp_path / "pipe")) == 2
    assert "nobody reads" in capsys.readouterr().err
    assert stat.S_ISFIFO(os.lstat(tmp_path / "pipe").st_mode)


def test_render_through_a_link_writes_its_target_and_keeps_the_link(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "cv.pdf").write_bytes(b"old")
    (tmp_path / "cv-link.pdf").symlink_to(tmp_path / "elsewhere" / "cv.pdf")
    assert render(tmp_path, "-o", str(tmp_path / "cv-link.pdf")) == 0
    assert (tmp_path / "cv-link.pdf").is_symlink()
    assert (tmp_path / "elsewhere" / "cv.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("out", ["missing/cv.pdf", "a/b/c/cv.pdf"])
def test_render_into_a_folder_that_does_not_exist_is_exit_2_naming_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], out: str) -> None:
    assert render(tmp_path, "-o", str(tmp_path / out)) == 2
    err = capsys.readouterr().err
    assert str((tmp_path / out).parent) in err and err.count("\n") == 1, err
    assert not (tmp_path / out.split("/")[0]).exists(), "no folder is made"


def test_render_onto_a_folder_is_refused(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "out.pdf").mkdir()
    assert render(tmp_path, "-o", str(tmp_path / "out.pdf")) == 2
    assert (tmp_path / "out.pdf").is_dir()
