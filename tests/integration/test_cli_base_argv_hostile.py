"""Command-line arguments that are not UTF-8 (a shell passing `$'\\xff'`): a usage error in
one line, exit 2, in both command lines, before anything is read or written."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from jobtracker.workspace import Workspace

BAD = ["\udcff", "Acme Caf\udce9", "x\udc80y", "\udcfe\udcff"]


def run(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    # A str with lone surrogates reaches the child as the raw bytes (surrogateescape).
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True,
                          text=True, errors="replace", env=dict(os.environ), timeout=60)


@pytest.mark.parametrize("bad", BAD)
@pytest.mark.parametrize("command", [
    ("applications", "note", "1", "{bad}"),
    ("add", "https://boards.greenhouse.io/acme", "--company", "{bad}"),
    ("status", "1", "{bad}"),
    ("fetch", "--source", "{bad}"),
])
def test_an_argument_that_is_not_utf8_is_a_usage_error_and_writes_nothing(
        ws: Workspace, bad: str, command: tuple[str, ...]) -> None:
    sources = (ws.home / "sources.yaml").read_bytes()
    done = run("jobtracker", "--home", str(ws.home), *(c.format(bad=bad) for c in command))
    assert done.returncode == 2, done.stderr
    assert "not valid UTF-8" in done.stderr and "Traceback" not in done.stderr
    assert (ws.home / "sources.yaml").read_bytes() == sources


@pytest.mark.parametrize("bad", BAD[:2])
def test_the_tui_command_line_refuses_it_too(ws: Workspace, bad: str) -> None:
    done = run("tui", "--home", str(ws.home), "--run", "--task", bad)
    assert done.returncode == 2 and "not valid UTF-8" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
