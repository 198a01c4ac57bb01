"""Shared fixtures: an isolated workspace, and the CLI run in-process or as a process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from jobtracker.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent

# A hung test fails the run with every thread's stack (tests/hang_guard.py).
pytest_plugins = ["tests.hang_guard"]

# The suite keeps compiled bytecode (in `__pycache__/`, ignored by git) even where the
# environment says not to (PYTHONDONTWRITEBYTECODE, set on some CI machines): without it
# every xdist worker and every command a test runs as a process compiles each module it
# imports again — collecting the suite took 10 s of CPU per worker, not 4. Set before
# xdist starts its workers, so they and every process a test starts inherit it; what the
# code under test does is the same either way.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False


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


def run_process(*args: str, env: dict[str, str] | None = None, timeout: float = 60,
                module: str = "jobtracker") -> subprocess.CompletedProcess[str]:
    """Run a console command as a separate process, the way a user or a timer would: for
    tests of the process itself (closed pipes, argv bytes, signals, an entry point)."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True,
                          text=True, env=full_env, timeout=timeout, check=False)


@pytest.fixture
def extend() -> Iterator[Callable[..., object]]:
    """`extend(registry, *entries)`: entries added to a registry (or put in place of the
    one of the same name) until the test ends — `Registry.extended`, held open."""
    with ExitStack() as stack:
        yield lambda registry, *entries: stack.enter_context(registry.extended(*entries))


# `python -m X` → the entry point it runs (both console scripts).
_ENTRY_POINTS = {"jobtracker": "jobtracker.cli", "tui": "tui.cli", "tui.cli": "tui.cli"}


def run_cli(*args: str, env: dict[str, str] | None = None, timeout: float = 60,
            module: str = "jobtracker", cwd: Path | str | None = None,
            ) -> subprocess.CompletedProcess[str]:
    """Run a console command in this process (0.02 s, not the 0.7 s of a new Python) and
    hand back what a process would: the exit code and what it printed on stdout and
    stderr. `env` is added to the environment for the call and `cwd` entered, both put
    back after; an exception that escapes is exit 1 with its traceback on stderr, as the
    interpreter would print it. `timeout` is the process's alone (see `run_process`)."""
    del timeout
    import importlib
    import io
    import traceback

    main = importlib.import_module(_ENTRY_POINTS[module]).main
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    with pytest.MonkeyPatch.context() as patch:
        for name, value in (env or {}).items():
            patch.setenv(name, value)
        if cwd is not None:
            patch.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:          # argparse's usage errors and --help
                code = exc.code if isinstance(exc.code, int) else (exc.code is not None)
                if isinstance(exc.code, str):
                    print(exc.code, file=sys.stderr)
            except Exception:                  # what the interpreter would print
                traceback.print_exc()
                code = 1
    texts = [stream.buffer.getvalue().decode("utf-8") for stream in (out, err)]  # type: ignore[attr-defined]
    return subprocess.CompletedProcess([module, *args], int(code or 0), texts[0], texts[1])


# --- the suite in parallel (pytest-xdist), and databases from a template ---------------

def _workers_for_this_machine() -> int:
    """Workers for `pytest -q`: the tests wait on loopback servers, sockets and deadlines
    more than they compute (a serial run uses ~70% of one core), so one worker more than
    the cores, at most 6 (each worker holds its own Dovecot and model server)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(2, min(6, (cores or 1) + 1))


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """The README's `pytest -q` runs in parallel; `-n 0`, `-n N` or `-p no:xdist` choose
    otherwise. Runs before xdist reads its option (a conftest's hook is called first)."""
    if (not config.pluginmanager.hasplugin("xdist") or hasattr(config, "workerinput")
            or config.option.numprocesses is not None or config.option.collectonly
            or config.getoption("usepdb", False)):
        return
    config.option.numprocesses = "auto"
    if config.option.dist == "no":
        config.option.dist = "loadgroup"     # `xdist_group` marks keep a group on one worker


@pytest.hookimpl(optionalhook=True)      # a hook of xdist's: absent under -p no:xdist
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto`: PYTEST_XDIST_AUTO_NUM_WORKERS when set (xdist reads it), else ours."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return _workers_for_this_machine()


def _copy_if_new(template: Path, path: Path) -> None:
    """`path`, when nothing is there yet, as a copy of `template` (mode 0600, as the store
    makes a new database). Made beside it and linked in, so it appears whole or not at
    all; anything unusual (a link, a folder that cannot be made) is left to the store."""
    if os.path.lexists(path):
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".template-")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as out, open(template, "rb") as source:
            shutil.copyfileobj(source, out)
        os.chmod(temporary, 0o600)
        with contextlib.suppress(FileExistsError):
            os.link(temporary, path)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


@pytest.fixture(scope="session", autouse=True)
def _databases_from_a_template(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every database a test opens through `store.connect` in this process that does not
    exist yet starts as a copy of one migrated once per session (and per xdist worker):
    0.3 ms instead of every migration (~50 ms; the suite opens ~700). What opens it is
    unchanged: the store still sees the schema version, checks every table, sets WAL.
    A test that replaces the migrations or the migrating step gets the real path."""
    from jobtracker import store

    template = tmp_path_factory.mktemp("template-db") / "jobtracker.db"

    async def make() -> None:
        async with store.connect(template):
            pass

    asyncio.run(make())
    opening, migrations, migrate = store._open_connection, store.list_migrations, store._migrate

    async def open_from_template(path: Path) -> Any:
        if store.list_migrations is migrations and store._migrate is migrate:
            _copy_if_new(template, Path(path))
        return await opening(path)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store, "_open_connection", open_from_template)
        yield
