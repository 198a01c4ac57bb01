"""The end of a headless run: learn, even without a model."""

from __future__ import annotations

import sqlite3

import pytest
from conftest import run_cli

from jobtracker.workspace import Workspace
from tests import learning_seed
from tests.learning_seed import dismiss_principals

# The shared fixtures, bound here by name so that pytest finds them in this file.
seeded = learning_seed.seeded


def test_a_headless_run_ends_with_learn_even_without_a_model(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    dismiss_principals(seeded, capsys, 7)
    (seeded.home / "config.yaml").write_text("llm: {url: null}\n")
    done = run_cli("--home", str(seeded.home), "--run", module="tui.cli")
    assert done.returncode == 0, done.stderr
    assert "learn: read 7 decision(s); 2 new proposal(s)" in done.stdout
    with sqlite3.connect(seeded.db) as conn:
        kinds = conn.execute("SELECT kind, task FROM proposals").fetchall()
    assert kinds == [("profile", "learn"), ("profile", "learn")]
