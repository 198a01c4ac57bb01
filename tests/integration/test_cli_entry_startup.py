"""Start-up: a command loads only what it uses. Each command runs in a fresh interpreter
(a process: what is imported is the point) and reports the modules it loaded; none of
`--help`, `work` and `fetch` with nothing to do, `matches` and `jobtracker-tui --run`
may load the renderer's writers and read-back (typst, python-docx, pypdf), icalendar,
aiosmtplib, jsonschema or httpx's own command line, nor what each of them was made to
load lazily (`LAZY`). tests/perf/bench_startup.py times the same commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from servers.boards import BoardServer, greenhouse_board

from jobtracker.cli import main

# What no command here uses: the first three draw and read back documents, then the
# calendar files, the digest's mail, the answers' schema check, httpx's command line.
HEAVY = ("jobtracker.render.pdf", "jobtracker.render.word", "jobtracker.render.check",
         "typst", "docx", "pypdf", "icalendar", "aiosmtplib", "jsonschema", "httpx._main")

# What each command loaded at the top before it was made lazy, and does not use here
# (issue 41): a new top-level import that brings one back fails the test. No model is
# configured, so no run has a unit to work: the loop's parts and OpenTelemetry stay out.
NOT_FOR_ANY = ("jobtracker.postings.save", "jobtracker.run.feeder", "jobtracker.workers.loop",
               "opentelemetry")
LAZY: dict[str, tuple[str, ...]] = {
    # The parser alone: the settings, the store, yaml, the event loop, HTTP and every room.
    "--help": ("jobtracker.workspace", "jobtracker.config", "jobtracker.store",
               "jobtracker.yamlfile", "yaml", "aiosqlite", "asyncio", "httpx",
               "jobtracker.run.setup", "jobtracker.tasks", "jobtracker.sources",
               "jobtracker.proposals", "jobtracker.render", "jobtracker.learning",
               "jobtracker.ranking", "jobtracker.postings", "jobtracker.workers",
               "jobtracker.alerts", "jobtracker.contacts", "jobtracker.prepare",
               "jobtracker.interviews", "jobtracker.mail"),
    # No model to ask: no HTTP client is made (certifi and anyio load with its TLS
    # context and its close), no tracker, no matches query, no alert senders; for
    # `--run`, no digest channels when config.yaml has no `notify:`.
    "work": ("certifi", "anyio", "jobtracker.tracker", "jobtracker.ranking.matches",
             "jobtracker.alerts", "jobtracker.learning", "jobtracker.contacts",
             "jobtracker.postings"),
    # (It reads config.yaml and sources.yaml through run.setup, the one wiring point: a
    # light module, the settings it loads are fetch's own.)
    "fetch": ("jobtracker.run.run", "jobtracker.llm",
              "jobtracker.workers", "jobtracker.learning", "jobtracker.contacts",
              "jobtracker.tracker", "jobtracker.ranking.matches"),
    "matches": ("httpx", "jobtracker.tasks", "jobtracker.run.run", "jobtracker.llm",
                "jobtracker.proposals", "jobtracker.workers", "jobtracker.alerts",
                "jobtracker.postings", "jobtracker.prepare", "jobtracker.interviews"),
    # ... and no renderers' pool (multiprocessing: its server is a process) with no packet.
    "jobtracker-tui --run": ("certifi", "anyio", "jobtracker.alerts", "jobtracker.notify",
                             "jobtracker.channels", "multiprocessing.forkserver",
                             "concurrent.futures.process"),
}

REPORT = """
import importlib, json, sys
module, argv = sys.argv[1], sys.argv[2:]
try:
    code = importlib.import_module(module).main(argv)
except SystemExit as exc:
    code = exc.code
sys.stdout.flush()
loaded = sorted(name for name, value in sys.modules.items() if value is not None)
sys.stderr.write("\\nLOADED " + json.dumps(loaded) + "\\n")
sys.exit(code)
"""

COMMANDS = {
    "--help": ("jobtracker.cli", ["--help"]),
    "work": ("jobtracker.cli", ["work"]),
    "fetch": ("jobtracker.cli", ["fetch"]),
    "matches": ("jobtracker.cli", ["matches"]),
    "jobtracker-tui --run": ("tui.cli", ["--run"]),
}


def loaded_by(module: str, argv: list[str], home: Path) -> tuple[int, list[str], str]:
    done = subprocess.run([sys.executable, "-c", REPORT, module, "--home", str(home), *argv],
                          capture_output=True, text=True, timeout=120, check=False)
    head, _, tail = done.stderr.rpartition("\nLOADED ")
    assert tail, done.stderr
    return done.returncode, json.loads(tail), head


def heavy(loaded: list[str], command: str | None = None) -> list[str]:
    """The modules of `loaded` that no command here uses, and with `command`, also those
    that command does not (NOT_FOR_ANY, LAZY)."""
    parts = HEAVY + ((*NOT_FOR_ANY, *LAZY[command]) if command else ())
    return [name for name in loaded
            if any(name == part or name.startswith(part + ".") for part in parts)]


@pytest.fixture
def home(tmp_path: Path, server: BoardServer) -> Path:
    """A new workspace with nothing to do: no model, no postings, and one board (on
    loopback) that lists no job."""
    folder = tmp_path / "home"
    assert main(["--home", str(folder), "init"]) == 0
    (folder / "config.yaml").write_text("llm: {url: null}\n")
    server.set("/gh/acme", greenhouse_board([]))
    (folder / "sources.yaml").write_text(
        f"boards:\n  - {{ats: greenhouse, token: acme, company: Acme, "
        f"url: '{server.url('/gh/acme')}'}}\n")
    return folder


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_command_loads_none_of_what_it_does_not_use(name: str, home: Path) -> None:
    module, argv = COMMANDS[name]
    code, loaded, err = loaded_by(module, argv, home)
    assert code == 0, err
    assert "jobtracker.cli" in loaded or "tui.cli" in loaded   # the report saw the command
    assert heavy(loaded, name) == [], f"{name} loaded {heavy(loaded, name)}"


def test_the_check_sees_a_heavy_module_when_one_is_loaded(home: Path) -> None:
    """The same report for `render`, which draws a PDF: the list is not empty by accident."""
    source = home / "resume.md"
    code, loaded, err = loaded_by("jobtracker.cli", ["render", str(source), "--output",
                                                     str(home / "out.pdf")], home)
    assert code == 0, err
    assert {"typst", "pypdf", "jobtracker.render.pdf"} <= set(heavy(loaded))
