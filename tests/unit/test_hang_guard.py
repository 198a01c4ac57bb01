"""The hang guard (tests/hang_guard.py): a test stuck past the limit ends the run with
its stack, even when the stuck thread holds the GIL."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT

STUCK = '''
import ctypes
import threading


def test_waits_for_an_event_nobody_sets():
    threading.Event().wait()


def test_sleeps_in_c_holding_the_gil():
    ctypes.PyDLL(None).sleep(3600)    # PyDLL keeps the GIL for the call


def test_quick():
    assert True
'''


@pytest.mark.parametrize("name", ["test_waits_for_an_event_nobody_sets",
                                  "test_sleeps_in_c_holding_the_gil"])
def test_a_stuck_test_ends_the_run_with_its_stack(tmp_path: Path, name: str) -> None:
    (tmp_path / "test_stuck.py").write_text(STUCK)
    env = {**os.environ, "JOBTRACKER_TEST_HANG_SECONDS": "1", "PYTHONPATH": str(ROOT)}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider",
         "-p", "tests.hang_guard", f"test_stuck.py::{name}"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0
    assert "Timeout (0:00:01)!" in done.stderr
    assert f"in {name}" in done.stderr          # the stuck test's own frame
    assert time.monotonic() - started < 60


def test_a_test_that_finishes_in_time_is_not_touched(tmp_path: Path) -> None:
    (tmp_path / "test_stuck.py").write_text(STUCK)
    env = {**os.environ, "JOBTRACKER_TEST_HANG_SECONDS": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider",
         "-p", "tests.hang_guard", "test_stuck.py::test_quick"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Timeout" not in done.stderr
