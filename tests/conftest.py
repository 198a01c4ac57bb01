"""Shared fixtures: an isolated workspace, and the CLI run in-process or as a process."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from jobtracker.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _isolated_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test reads the developer's real workspace, model key or OTEL settings."""
    monkeypatch.delenv("JOBTRACKER_HOME", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")
    for name in list(os.environ):
        if name.startswith("OTEL_"):
            monkeypatch.delenv(name)


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    workspace = Workspace(tmp_path / "home")
    workspace.init()
    return workspace


def run_cli(*args: str, env: dict[str, str] | None = None, timeout: float = 60,
            module: str = "jobtracker") -> subprocess.CompletedProcess[str]:
    """Run a console command as a separate process, the way a user or a timer would."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True,
                          text=True, env=full_env, timeout=timeout, check=False)


@pytest.fixture
def extend() -> Iterator[Callable[..., object]]:
    """`extend(registry, *entries)`: entries added to a registry (or put in place of the
    one of the same name) until the test ends — `Registry.extended`, held open."""
    with ExitStack() as stack:
        yield lambda registry, *entries: stack.enter_context(registry.extended(*entries))
