"""Files that are not files where jobtracker reads its own back (a tailored resume, a
letter, a packet file, resume.md): a FIFO, a link to one or to /dev/zero, a device, a
folder. Each is refused at once, never read, and no transaction is left open."""

from __future__ import annotations

import asyncio
import os
import stat
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from jobtracker import store
from jobtracker.files import FileRefused, read_regular, write_recorded
from jobtracker.prepare.packet import Posting, write_packet
from jobtracker.resume import read_input

NOW = "2026-11-30T12:00:00Z"


def plant(path: Path, kind: str, tmp_path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "link to a fifo":
        os.mkfifo(tmp_path / "outside.fifo")
        path.symlink_to(tmp_path / "outside.fifo")
    elif kind == "link to /dev/zero":
        path.symlink_to("/dev/zero")
    elif kind == "device":
        if os.geteuid() != 0:
            pytest.skip("making a device node needs root")
        os.mknod(path, 0o600 | stat.S_IFCHR, os.stat("/dev/zero").st_rdev)
    elif kind == "folder":
        path.mkdir()
    elif kind == "link to a link to a fifo":
        os.mkfifo(tmp_path / "outside.fifo")
        (tmp_path / "hop").symlink_to(tmp_path / "outside.fifo")
        path.symlink_to(tmp_path / "hop")


KINDS = ["fifo", "link to a fifo", "link to /dev/zero", "device", "folder",
         "link to a link to a fifo"]


def within(seconds: float, make: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """Run `make()` on a loop of its own in a thread; fail (not hang) past `seconds`."""
    box: dict[str, Any] = {}

    def go() -> None:
        try:
            box["value"] = asyncio.run(make())
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=go, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still reading after {seconds} s"
    if "error" in box:
        raise box["error"]
    return box.get("value")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    return tmp_path / "home"


async def nothing_locked(home: Path) -> None:
    async with store.connect(home / "jobtracker.db") as other, store.write(other):
        await other.execute("SELECT 1")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("where", ["tailored/3-acme.md", "letters/3-acme.md"])
def test_accepting_onto_a_file_that_is_not_a_file_is_refused_at_once(
        home: Path, tmp_path: Path, kind: str, where: str) -> None:
    target = home / where
    plant(target, kind, tmp_path)

    async def accept() -> None:
        async with store.connect(home / "jobtracker.db") as conn:
            with pytest.raises(FileRefused, match=r"symbolic link|not a regular file"):
                async with store.write(conn):
                    await write_recorded(conn, home, target, "new\n", NOW, 3)
        await nothing_locked(home)

    within(5, accept)
    assert target.is_symlink() or not target.is_file()     # left as it was


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["answers.md", "posting.md", "resume.md"])
def test_a_packet_file_that_is_not_a_file_is_written_beside_it(
        home: Path, tmp_path: Path, kind: str, name: str) -> None:
    posting = Posting(3, "Acme", "Engineer", "Berlin", "https://x.example/3", "Prose.",
                      "lever")
    folder = home / "applications" / "3-acme-engineer"
    plant(folder / name, kind, tmp_path)
    texts = {"posting.md": "# Engineer\n", "resume.md": "# Ada\n", "answers.md": "# A\n"}

    async def prepare() -> Any:
        async with store.connect(home / "jobtracker.db") as conn, store.write(conn):
            result = await write_packet(conn, home, posting, texts, NOW)
        await nothing_locked(home)
        return result

    result = within(5, prepare)
    others = sorted(set(texts) - {name})
    assert sorted(result.changed) == others
    # Treated as a file that is not jobtracker's: the packet's copy goes beside it.
    assert result.kept == [name] and (folder / f"{name}.new").read_text() == texts[name]


@pytest.mark.parametrize("kind", KINDS)
def test_an_input_that_is_not_a_file_reads_as_missing(home: Path, tmp_path: Path,
                                                      kind: str) -> None:
    plant(home / "resume.md", kind, tmp_path)

    async def read() -> str | None:
        return read_input(home, "resume.md")

    assert within(5, read) is None


def test_a_regular_file_reads_and_a_huge_one_is_refused(home: Path) -> None:
    (home / "a.md").write_text("héllo\n", encoding="utf-8")
    assert read_regular(home / "a.md") == "héllo\n"
    assert read_regular(home / "missing.md") is None
    (home / "big.md").write_bytes(b"x" * 2048)
    with pytest.raises(FileRefused, match="larger than"):
        read_regular(home / "big.md", limit=1024)
    (home / "bad.md").write_bytes(b"\xff\xfe")
    with pytest.raises(FileRefused, match="not UTF-8"):
        read_regular(home / "bad.md")
