"""A person at a terminal: the real `jobtracker-tui` in tmux, keys in, screen text out."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.tui.fixtures import application_status, make_workspace, proposal_states, seed_review

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Terminal:
    """One tmux server of our own (its own socket), one 80×24 window."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, check=False, timeout=10)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "app").stdout

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "app", *keys)

    def wait_for(self, text: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never showed; the screen was:\n{self.screen()}")

    def alive(self) -> bool:
        return self.tmux("has-session", "-t", "app").returncode == 0


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    term = Terminal(f"jobtracker-test-{os.getpid()}")
    yield term
    term.tmux("kill-server")


def test_a_person_reviews_a_proposal_in_tmux(tmp_path: Path, terminal: Terminal) -> None:
    ws = make_workspace(tmp_path, None)
    seed_review(ws)
    command = (f"cd {ROOT} && TEXTUAL_ANIMATIONS=none {sys.executable} -m tui "
               f"--home {ws.home} --no-mouse")
    started = terminal.tmux("new-session", "-d", "-s", "app", "-x", "80", "-y", "24", command)
    assert started.returncode == 0, started.stderr
    terminal.wait_for("3 proposals waiting")     # four pending, one stale
    terminal.wait_for("r Start")
    terminal.keys("p")
    screen = terminal.wait_for("Review ─ 4 waiting")
    assert "● status applied → interviewing" in screen
    terminal.keys("a")
    terminal.wait_for("accepted 1: Acme")
    assert proposal_states(ws)[1] == "accepted"
    assert application_status(ws, 1) == "interviewing"
    terminal.keys("Escape")
    terminal.wait_for("2 proposals waiting")
    terminal.keys("q")
    deadline = time.monotonic() + 10
    while terminal.alive() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not terminal.alive(), "q with nothing in flight quits at once"
