"""The commands README.md and docs/ show, run as written against a temporary workspace.

Every line of a code block that starts with `jobtracker` or `jobtracker-tui` is a
documented command. The safe ones — no network, no model server of one's own, no
editor, no change that needs an id the demo may not have — run against a demo
workspace (`jobtracker init --demo`) with HOME and the workspace variables pointed
at temporary folders, and must end as the docs imply (exit 0, and valid JSON where
the docs pipe it to jq). The others are skipped with the reason, so a new example
is either run or says why not.

Also here: every Markdown table in the docs is one table — a row after a blank
line without a header starts a new, headless table that renders as text.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# The words of a synopsis, not of a command to run.
PLACEHOLDER = re.compile(r"\.\.\.|…|\b(?:ID|URL|NAME|POSTING|TEXT|DATE|PATH|N|S|R|FILE)\b")
# Why a documented command is not run here.
SKIPPED = (
    (re.compile(r"\$EDITOR|\$VISUAL"), "opens an editor"),
    (re.compile(r"^jobtracker fetch\b|--send\b|--check\b"), "reaches the network"),
    (re.compile(r"^jobtracker model check\b|--llm-url|--gguf"), "needs a model server or file"),
    (re.compile(r"^jobtracker-tui(?!.*--run)"), "the interactive app"),
    (re.compile(r"^jobtracker (?:matches (?:dismiss|undismiss)|proposals (?:accept|reject)|"
                r"postings (?:group|split)|status|applications note)\b"),
     "changes a record by an id of the example's own"),
)


@dataclass(frozen=True)
class Documented:
    where: str                 # file:line
    command: str               # as it will run (comment and description cut off)
    pipe: str = ""             # what the docs pipe it into (`jq ...`)


def _code_lines(path: Path) -> list[tuple[int, str]]:
    out, inside = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        if line.startswith("```"):
            inside = not inside
            continue
        if inside:
            out.append((number, line))
    return out


def _command_part(line: str) -> str:
    """The line without a prompt, a `# comment` or a synopsis' description (after two
    spaces), quotes respected."""
    text = line.strip().removeprefix("$ ")
    quote = None
    for index, char in enumerate(text):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif (char == "#" and index and text[index - 1] == " ") or text.startswith("  ", index):
            return text[:index].rstrip()
    return text.rstrip()


_OPTIONAL = re.compile(r"\s*\[[^\[\]]*\](?:\.\.\.)?")


def _without_options(command: str) -> str:
    """A synopsis' bare form: `stats [--today DATE] [--json]` → `stats`."""
    while _OPTIONAL.search(command):
        command = _OPTIONAL.sub("", command)
    return command


def documented() -> list[Documented]:
    found = []
    for path in DOCS:
        for number, line in _code_lines(path):
            text = _command_part(line)
            # Screens and diagrams name the program too; they are not commands.
            if not re.match(r"^jobtracker(?:-tui)?(?: |$)", text) or re.search("[─▶╭│]", line):
                continue
            for part in text.split(" && "):
                command, _, pipe = part.partition(" | ")
                found.append(Documented(f"{path.relative_to(ROOT)}:{number}",
                                        _without_options(command.strip()), pipe.strip()))
    return found


def skip_reason(item: Documented) -> str | None:
    for pattern, why in SKIPPED:
        if pattern.search(item.command):
            return why
    if PLACEHOLDER.search(item.command):
        return "a synopsis with placeholders"
    return None


ALL = documented()
RUN = [item for item in ALL if skip_reason(item) is None]


def test_the_docs_hold_commands_and_most_are_run() -> None:
    assert len(ALL) >= 30, "the extraction finds the documented commands"
    assert len(RUN) >= 12, [item.command for item in RUN]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A demo workspace where the default one is (XDG_DATA_HOME), a HOME of its own,
    and `~/jobs` (the TUI page's) pointing at it as well."""
    base = tmp_path_factory.mktemp("docs")
    home = base / "home"
    xdg = base / "xdg"
    workspace = xdg / "jobtracker"
    (home).mkdir()
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(xdg),
           "XDG_CACHE_HOME": str(base / "cache"), "JOBTRACKER_DEMO_LATENCY": "0",
           "PYTHONPATH": str(ROOT)}
    env.pop("JOBTRACKER_HOME", None)
    done = run_cli("init", "--demo", env=env)
    assert done.returncode == 0, done.stderr
    (home / "jobs").symlink_to(workspace)
    return env


def _run(item: Documented, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    words = [os.path.expanduser(w).replace(os.path.expanduser("~"), env["HOME"])
             for w in shlex.split(item.command)]
    module = "tui" if words[0] == "jobtracker-tui" else "jobtracker"
    return run_cli(*words[1:], env=env, cwd=ROOT, module=module)


@pytest.mark.slow
@pytest.mark.parametrize("item", RUN, ids=lambda item: f"{item.where} {item.command}")
def test_a_documented_command_runs_as_written(item: Documented,
                                              world: dict[str, str]) -> None:
    done = _run(item, world)
    assert done.returncode == 0, f"{item.where}: {item.command}\n{done.stdout}\n{done.stderr}"
    assert "Traceback" not in done.stderr
    if item.pipe.startswith("jq"):
        json.loads(done.stdout)          # what the docs pipe into jq is JSON


def _tables(path: Path) -> list[tuple[int, list[str]]]:
    """Each run of consecutive `|` lines outside code blocks: (first line, the rows)."""
    out: list[tuple[int, list[str]]] = []
    inside = False
    run: list[str] = []
    start = 0
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        if line.startswith("```"):
            inside = not inside
        if not inside and line.startswith("|"):
            if not run:
                start = number
            run.append(line)
        elif run:
            out.append((start, run))
            run = []
    if run:
        out.append((start, run))
    return out


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_every_table_has_its_header(path: Path) -> None:
    broken = [f"{path.name}:{start}: {rows[0][:60]}" for start, rows in _tables(path)
              if len(rows) < 2 or not re.fullmatch(r"\|(?:\s*:?-{3,}:?\s*\|)+", rows[1])]
    assert broken == [], "a table broken off its header"
