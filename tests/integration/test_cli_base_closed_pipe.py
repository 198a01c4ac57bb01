"""Every command stops quietly when the reader of its output goes away
(`jobtracker proposals list | head`): no traceback, exit 141 as a shell reports it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from jobtracker.cli import EXIT_CLOSED_PIPE

LISTINGS = [
    ("jobtracker", "check"),
    ("jobtracker", "work", "--dry-run"),
    ("jobtracker", "matches"),
    ("jobtracker", "matches", "--json"),
    ("jobtracker", "proposals", "list"),
    ("jobtracker", "proposals", "list", "--json"),
    ("jobtracker", "fetch"),
    ("jobtracker", "--help"),
    ("jobtracker-tui", "--run", "--llm-url", "http://127.0.0.1:9"),
]


@pytest.fixture(scope="module")
def demo_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("closed-pipe")
    done = subprocess.run([sys.executable, "-m", "jobtracker", "--home", str(home), "init",
                           "--demo"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return home


def run_into_closed_pipe(args: tuple[str, ...], home: Path) -> subprocess.CompletedProcess[str]:
    """Run with standard output a pipe whose reading end is already closed: the first
    write fails with EPIPE, as when `head` has read its lines and left."""
    module = "jobtracker" if args[0] == "jobtracker" else "tui"
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", module, "--home", str(home), *args[1:]],
                              stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write_end)


@pytest.mark.parametrize("args", LISTINGS, ids=" ".join)
def test_a_closed_pipe_ends_the_command_quietly(args: tuple[str, ...], demo_home: Path) -> None:
    done = run_into_closed_pipe(args, demo_home)
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
    assert "Exception ignored" not in done.stderr, done.stderr
    if args == ("jobtracker", "--help"):   # argparse prints and exits itself
        assert done.returncode in (0, EXIT_CLOSED_PIPE)
    else:
        assert done.returncode == EXIT_CLOSED_PIPE, done.stderr
