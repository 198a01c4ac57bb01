"""One run per workspace: the lease says who holds it and dies with its holder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jobtracker.lease import Lease, LeaseHeld, UnsafeLockFile
from jobtracker.store import StoreError

HOLDER = """
import sys, time
from pathlib import Path
from jobtracker.lease import Lease
lease = Lease(Path(sys.argv[1]))
lease.acquire()
print("held", flush=True)
time.sleep(60)
"""


def _start_holder(path: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_second_holder_is_told_who_holds_it(tmp_path: Path) -> None:
    path = tmp_path / "run.lock"
    proc = _start_holder(path)
    try:
        with pytest.raises(LeaseHeld) as caught:
            Lease(path).acquire()
        assert caught.value.holder is not None
        assert caught.value.holder.pid == proc.pid
        assert f"process {proc.pid} on " in str(caught.value)
    finally:
        proc.kill()
        proc.wait()


def test_lease_is_free_again_after_kill_9(tmp_path: Path) -> None:
    path = tmp_path / "run.lock"
    proc = _start_holder(path)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 5
    with Lease(path) as holder:
        assert holder.pid == os.getpid()
    assert time.monotonic() < deadline


def test_release_lets_the_next_run_in(tmp_path: Path) -> None:
    path = tmp_path / "run.lock"
    with Lease(path):
        pass
    with Lease(path) as holder:
        assert holder.pid == os.getpid()


# --- a planted run.lock ------------------------------------------------------------------

def _plant(lock: Path, kind: str, outside: Path) -> None:
    if kind == "link to a file":
        outside.write_text("the user's precious notes\n")
        lock.symlink_to(outside)
    elif kind == "link to a folder":
        outside.mkdir()
        lock.symlink_to(outside)
    elif kind == "dangling link":
        lock.symlink_to(outside)
    elif kind == "link to a link":
        outside.write_text("the user's precious notes\n")
        (lock.parent / "hop").symlink_to(outside)
        lock.symlink_to(lock.parent / "hop")
    elif kind == "fifo":
        os.mkfifo(lock)
    else:
        lock.mkdir()


@pytest.mark.parametrize("kind", ["link to a file", "link to a folder", "dangling link",
                                  "link to a link", "fifo", "folder"])
def test_a_planted_lock_file_is_refused_and_nothing_outside_changes(
        tmp_path: Path, kind: str) -> None:
    lock, outside = tmp_path / "ws" / "run.lock", tmp_path / "outside"
    lock.parent.mkdir()
    _plant(lock, kind, outside)
    before = outside.read_text() if outside.is_file() else None
    with pytest.raises(StoreError) as refused:
        Lease(lock).acquire()
    message = str(refused.value)
    assert message.startswith(f"{lock}: ") and "\n" not in message
    if kind != "folder":
        assert isinstance(refused.value, UnsafeLockFile)
    assert (outside.read_text() if outside.is_file() else None) == before
    assert not (kind == "dangling link" and outside.exists())   # nothing created through it


def test_work_with_a_symlinked_lock_says_so_and_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from jobtracker.cli import main

    home, outside = tmp_path / "home", tmp_path / "notes.txt"
    assert main(["--home", str(home), "init"]) == 0
    (home / "config.yaml").write_text("llm: {url: null}\n")
    outside.write_text("keep me\n")
    (home / "run.lock").symlink_to(outside)
    capsys.readouterr()
    assert main(["--home", str(home), "work"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"jobtracker: {home / 'run.lock'}: is a symbolic link; jobtracker does not follow or "
        "write it. Remove it (no run holds a lock there) and run again"]
    assert outside.read_text() == "keep me\n"


def test_a_lock_file_that_cannot_be_written_is_one_line_not_a_traceback(
        tmp_path: Path) -> None:
    import resource

    lock = tmp_path / "run.lock"
    old_signal = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, hard))   # every write: EFBIG, as a full disk
    try:
        with pytest.raises(StoreError) as refused:
            Lease(lock).acquire()
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, old_signal)
    assert str(refused.value).startswith(f"{lock}: cannot write the lock file: File too large")
    with Lease(lock) as holder:              # the lease is free again
        assert holder.pid == os.getpid()
