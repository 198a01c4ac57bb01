"""A test that hangs fails the run, with every thread's stack, instead of holding CI to
its time limit (a pytest plugin; tests/conftest.py loads it).

A stuck test is a bug to find, not to wait out, and the stuck thread may hold the GIL
(a C destructor joining a thread that never ends), where no Python timer can run. So
the watchdog is `faulthandler`'s own C thread: past the limit it writes every thread's
Python stack to the stderr the run started with and ends the process. Under
pytest-xdist the controller reports the worker as crashed "while running" the test.

JOBTRACKER_TEST_HANG_SECONDS sets the limit (its own test uses a short one).
"""

from __future__ import annotations

import faulthandler
import os
from collections.abc import Iterator

import pytest

# The slowest honest test (a real-model run on two busy cores) takes well under a minute.
DEFAULT_SECONDS = 240.0
_stderr_fd: int | None = None


def limit_seconds() -> float:
    return float(os.environ.get("JOBTRACKER_TEST_HANG_SECONDS") or DEFAULT_SECONDS)


def pytest_configure(config: pytest.Config) -> None:
    """A copy of the stderr the run started with: during a test, output capture puts a
    file in its place, and a stack written there would go with the ended process."""
    global _stderr_fd
    if _stderr_fd is None:
        _stderr_fd = os.dup(2)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """Armed for one test's setup, call and teardown."""
    if _stderr_fd is not None:
        faulthandler.dump_traceback_later(limit_seconds(), exit=True, file=_stderr_fd)
    try:
        return (yield)
    finally:
        faulthandler.cancel_dump_traceback_later()
