"""Start-up: a command loads only what it uses. Each command runs in a fresh interpreter
(a process: what is imported is the point) and reports the modules it loaded; none of
`--help`, `work` and `fetch` with nothing to do, `matches` and `jobtracker-tui --run`
may load the renderer's writers and read-back (typst, python-docx, pypdf), icalendar,
aiosmtplib, jsonschema or httpx's own command line. tests/perf/bench_startup.py times
the same commands."""

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


def heavy(loaded: list[str]) -> list[str]:
    return [name for name in loaded
            if any(name == part or name.startswith(part + ".") for part in HEAVY)]


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
    assert heavy(loaded) == [], f"{name} loaded {heavy(loaded)}"


def test_the_check_sees_a_heavy_module_when_one_is_loaded(home: Path) -> None:
    """The same report for `render`, which draws a PDF: the list is not empty by accident."""
    source = home / "resume.md"
    code, loaded, err = loaded_by("jobtracker.cli", ["render", str(source), "--output",
                                                     str(home / "out.pdf")], home)
    assert code == 0, err
    assert {"typst", "pypdf", "jobtracker.render.pdf"} <= set(heavy(loaded))
