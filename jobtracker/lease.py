"""One run per workspace.

`fcntl.flock` on `run.lock` is the guard: the kernel releases it when the holder
dies, kill -9 included, so a crashed run never blocks the next one. flock cannot
say who holds it, so the holder also writes its pid, host and start time into
the file (and the `lease` table, for the TUI); a refused run reads them back to
tell the user which process holds the workspace and since when.

The lock file is opened with O_NOFOLLOW and must be a regular file: a `run.lock`
planted as a symbolic link would otherwise have its target truncated (taking the
lease empties the file), and a FIFO would block the open.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from jobtracker import jsonbound
from jobtracker.clock import now_iso
from jobtracker.store import StoreError


@dataclass(frozen=True)
class Holder:
    pid: int
    host: str
    started: str

    def describe(self) -> str:
        return f"process {self.pid} on {self.host}, since {self.started}"


class LeaseHeld(Exception):
    """Another run holds the workspace."""

    def __init__(self, holder: Holder | None) -> None:
        self.holder = holder
        who = holder.describe() if holder else "another process (it did not say which)"
        super().__init__(f"another run holds the workspace: {who}")


class UnsafeLockFile(StoreError):
    """The lock file is a symbolic link or not a regular file: refused, never opened."""

    def __init__(self, path: Path, what: str) -> None:
        super().__init__(f"{path}: {what}; jobtracker does not follow or write it. Remove it "
                         "(no run holds a lock there) and run again")


def _open_lock(path: Path) -> IO[str]:
    """The lock file for reading and writing, created if missing, never through a link."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
                     | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        if path.is_symlink():
            raise UnsafeLockFile(path, "is a symbolic link") from None
        raise StoreError(f"{path}: cannot open the lock file: {exc.strerror}; check the "
                         "workspace folder's permissions") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UnsafeLockFile(path, "is not a regular file")
    os.set_blocking(fd, True)
    return open(fd, "a+", encoding="utf-8")


class Lease:
    """`with Lease(path):` — held for the block, released on exit or process death."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: IO[str] | None = None
        self.holder: Holder | None = None

    def acquire(self) -> Holder:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = _open_lock(self.path)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            text = handle.read()
            handle.close()
            raise LeaseHeld(_parse(text)) from None
        started = now_iso()
        self.holder = Holder(os.getpid(), socket.gethostname(), started)
        try:
            handle.seek(0)
            handle.truncate()
            handle.write(json.dumps(self.holder.__dict__))
            handle.flush()
        except OSError as exc:   # a full disk, most likely: the lock is useless unwritten
            with contextlib.suppress(OSError):
                handle.close()
            raise StoreError(f"{self.path}: cannot write the lock file: {exc.strerror}; "
                             "free some space (or fix the folder's permissions) and run "
                             "again") from None
        self._handle = handle
        return self.holder

    def release(self) -> None:
        if self._handle is not None:
            self._handle.seek(0)
            self._handle.truncate()
            fcntl.flock(self._handle, fcntl.LOCK_UN)
            self._handle.close()
            self._handle = None

    def __enter__(self) -> Holder:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _parse(text: str) -> Holder | None:
    try:
        raw = jsonbound.loads(text)
        return Holder(int(raw["pid"]), str(raw["host"]), str(raw["started"]))
    except (ValueError, KeyError, TypeError):
        return None
