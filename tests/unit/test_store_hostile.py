"""A broken database or workspace: one clear line and exit 2 from every command.

Read-only, damaged, truncated, a folder in its place, a table dropped, the disk
full: never a traceback, never an empty queue shown as if all were well.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from jobtracker import store
from jobtracker.cli import main
from jobtracker.store import StoreError
from tests.db import raw_connect
from tests.run_world import answer_level, make_workspace, readings
from tests.servers.model import ModelServer
from tui.cli import main as tui_main

COMMANDS = [["check"], ["matches"], ["proposals", "list"], ["work", "--dry-run"],
            ["tui", "--run"]]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A demo workspace with a populated database, made once and copied per test."""
    home = tmp_path_factory.mktemp("template") / "home"
    assert main(["--home", str(home), "init", "--demo"]) == 0
    assert main(["--home", str(home), "check"]) == 0
    return home


def corrupt_header(db: Path, rng: random.Random) -> None:
    with db.open("r+b") as handle:
        handle.write(rng.randbytes(100))


def garbage(db: Path, rng: random.Random) -> None:
    db.write_bytes(rng.randbytes(rng.randint(1, 64 * 1024)))


def truncate(fraction: float) -> Callable[[Path, random.Random], None]:
    def cut(db: Path, rng: random.Random) -> None:
        os.truncate(db, max(200, int(db.stat().st_size * fraction)))
    return cut


def folder(db: Path, rng: random.Random) -> None:
    db.unlink()
    db.mkdir()


def drop(table: str) -> Callable[[Path, random.Random], None]:
    def dropped(db: Path, rng: random.Random) -> None:
        with raw_connect(db) as conn:
            conn.execute("PRAGMA foreign_keys = OFF")
            conn.execute(f"DROP TABLE {table}")
    return dropped


def shred_pages(db: Path, rng: random.Random) -> None:
    """Random bytes over a few whole pages past the first: found by a query or the check.
    Whole pages, because 512 bytes at a random offset can land in a page's unused
    space, which no check can (or needs to) notice: the test then held only for
    page layouts where the seeds happened to hit data."""
    pages = db.stat().st_size // 4096
    with db.open("r+b") as handle:
        for _ in range(4):
            handle.seek(rng.randrange(1, pages) * 4096)
            handle.write(rng.randbytes(4096))


DAMAGE = {"corrupt header": corrupt_header, "garbage": garbage, "half": truncate(0.5),
          "a quarter": truncate(0.25), "a tenth": truncate(0.1), "a folder": folder,
          "no proposals": drop("proposals"), "no postings": drop("postings"),
          "no task_attempts": drop("task_attempts")}
WHAT = {"corrupt header": "is damaged", "garbage": "is damaged", "half": "is damaged",
        "a quarter": "is damaged", "a tenth": "is damaged", "a folder": "is a folder",
        "no proposals": "lacks the table(s) proposals",
        "no postings": "lacks the table(s) postings",
        "no task_attempts": "lacks the table(s) task_attempts"}


def run(command: list[str], home: Path) -> int:
    if command[0] == "tui":
        return tui_main([*command[1:], "--home", str(home)])
    return main(["--home", str(home), *command])


def damaged(template: Path, tmp_path: Path, kind: str) -> Path:
    home = tmp_path / "home"
    shutil.copytree(template, home)
    for extra in ("jobtracker.db-wal", "jobtracker.db-shm"):
        (home / extra).unlink(missing_ok=True)
    DAMAGE[kind](home / "jobtracker.db", random.Random(kind))
    return home


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("kind", list(DAMAGE))
def test_every_command_says_what_is_wrong_in_one_line_and_exits_2(
        template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        kind: str, command: list[str]) -> None:
    home = damaged(template, tmp_path, kind)
    assert run(command, home) == 2
    line = one_line(capsys.readouterr().err)
    assert f"{home / 'jobtracker.db'}: " in line and WHAT[kind] in line, line


@pytest.mark.parametrize("seed", range(6))
def test_shredded_pages_are_reported_by_check(template: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              seed: int) -> None:
    home = tmp_path / "home"
    shutil.copytree(template, home)
    shred_pages(home / "jobtracker.db", random.Random(seed))
    assert main(["--home", str(home), "check"]) == 2
    line = one_line(capsys.readouterr().err)
    assert line.startswith(f"jobtracker: {home / 'jobtracker.db'}: the database is damaged")


def test_check_reports_integrity_and_schema_when_all_is_well(
        template: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--home", str(template), "check"]) == 0
    assert capsys.readouterr().out.strip().endswith(
        f"database ok (integrity ok, all {len(store.expected_tables())} tables)")


@pytest.mark.parametrize("kind", ["corrupt header", "a folder", "no proposals"])
def test_as_a_process_there_is_no_traceback_either(template: Path, tmp_path: Path,
                                                   kind: str) -> None:
    home = damaged(template, tmp_path, kind)
    for module in ("jobtracker", "tui.cli"):
        extra = ["--run"] if module == "tui.cli" else ["work", "--dry-run"]
        result = subprocess.run([sys.executable, "-m", module, "--home", str(home), *extra],
                                capture_output=True, text=True, timeout=60, check=False)
        assert result.returncode == 2
        assert WHAT[kind] in one_line(result.stderr)


# --- a read-only workspace ----------------------------------------------------------------

@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """`folder` made read-only for this process: by its mode, or, for root (whom modes
    do not stop), by a read-only bind mount of it."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    subprocess.run(["mount", "--bind", str(folder), str(folder)], check=True)
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], check=True)
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_read_only_workspace_is_one_line_and_exit_2(
        template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        command: list[str]) -> None:
    home = tmp_path / "home"
    shutil.copytree(template, home)
    with read_only(home):
        code = run(command, home)
    assert code == 2
    line = one_line(capsys.readouterr().err)
    assert str(home) in line and ("read-only" in line or "Read-only" in line), line


# --- a full disk ----------------------------------------------------------------------------

async def _cap(conn: object, pages: int) -> None:
    await conn.execute(f"PRAGMA max_page_count = {pages}")   # type: ignore[attr-defined]


@pytest.mark.parametrize("row_bytes", [100, 3_000, 50_000, 400_000])
async def test_a_full_disk_says_so_and_keeps_every_earlier_write(
        tmp_path: Path, row_bytes: int) -> None:
    db = tmp_path / "jobtracker.db"
    async with store.connect(db) as conn:
        await conn.execute("CREATE TABLE filler (data BLOB)")
        pages = (await (await conn.execute("PRAGMA page_count")).fetchone())[0]
        await _cap(conn, pages + 20)     # SQLite then answers SQLITE_FULL, as a disk would
        kept = 0
        with pytest.raises(StoreError) as full:
            for _ in range(1000):
                async with store.write(conn):
                    await conn.execute("INSERT INTO filler VALUES (?)", (b"x" * row_bytes,))
                kept += 1
        assert str(full.value).startswith(f"{db}: disk full while writing the database")
        assert "rollback" not in str(full.value).replace("rolled back", "")
        assert not conn.in_transaction
        assert (await (await conn.execute("SELECT count(*) FROM filler")).fetchone())[0] == kept
        assert await store.integrity_check(conn) == "ok"
        await _cap(conn, 1_000_000)      # space again: writing simply works
        async with store.write(conn):
            await conn.execute("INSERT INTO filler VALUES (x'00')")


def test_a_run_on_a_full_database_says_disk_full_and_keeps_what_it_wrote(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    opened = store.open_connection

    async def capped(path: Path):   # the run's connection sees a full disk
        conn = await opened(path)
        pages = (await (await conn.execute("PRAGMA page_count")).fetchone())[0]
        await _cap(conn, pages)
        return conn

    with ModelServer(answer=answer_level("senior")) as server:
        ws = make_workspace(tmp_path, server.url, postings=300)
        monkeypatch.setattr(store, "open_connection", capped)
        capsys.readouterr()
        code = main(["--home", str(ws.home), "work", "--task", "level"])
    out = capsys.readouterr()
    failed = [line for line in out.out.splitlines() if " fail " in line]
    done = [line for line in out.out.splitlines() if " done " in line]
    assert failed and all("disk full" in line for line in failed), failed[:3]
    # The run stops at the full disk (exit 2, one line) instead of failing every unit:
    # only the units under way fail, those asking (concurrency 4) and the answers held
    # for their turn to write (at most as many again).
    assert code == 2 and len(failed) <= 2 * 4, (code, len(failed))
    assert one_line(out.err).startswith(f"jobtracker: {ws.db}: disk full while writing")
    assert "cannot rollback" not in out.out + out.err and "Traceback" not in out.err
    assert len(readings(ws)) == len(done)     # what was written is there, nothing half
    with raw_connect(ws.db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


@pytest.mark.parametrize("kind", ["corrupt header", "a folder", "no proposals"])
def test_the_interactive_app_says_it_in_one_line_and_never_starts(
        template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    import tui.app

    started: list[object] = []
    monkeypatch.setattr(tui.app.JobtrackerApp, "run", lambda self, **kw: started.append(self))
    home = damaged(template, tmp_path, kind)
    assert tui_main(["--home", str(home)]) == 2
    line = one_line(capsys.readouterr().err)
    assert line.startswith("jobtracker-tui: ") and WHAT[kind] in line
    assert started == []
