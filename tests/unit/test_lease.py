"""One run per workspace: the lease says who holds it and dies with its holder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jobtracker.lease import Lease, LeaseHeld

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
