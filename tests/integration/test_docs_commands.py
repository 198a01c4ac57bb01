"""The commands README.md and docs/ show, run as written against a temporary workspace.

Every line of a code block that starts with `jobtracker` or `jobtracker-tui` is a
documented command, and so is every inline one in backticks in the prose
(`` `jobtracker matches --json` ``); an inline one that is only a command's name
(`` `jobtracker proposals show` ``, naming it, not running it) is run with `--help`,
which proves the command is there. The safe ones — no network, no model server of one's own, no
editor, no change that needs an id the demo may not have — run against a demo
workspace (`jobtracker init --demo`) with HOME and the workspace variables pointed
at temporary folders, and must end as the docs imply (exit 0, and valid JSON where
the docs pipe it to jq). The others are skipped with the reason, so a new example
is either run or says why not.

Also here: every Markdown table in the docs is one table — a row after a blank
line without a header starts a new, headless table that renders as text; and
docs/tui.md's key table lists, for each screen it names, exactly the keys that
screen binds.
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
# The words of a synopsis, not of a command to run (`accept|undo`: one or the other).
PLACEHOLDER = re.compile(r"\.\.\.|…|\b(?:ID|URL|NAME|POSTING|TEXT|DATE|PATH|N|S|R|FILE|COMMAND)\b"
                         r"|\w\|\w")
# Why a documented command is not run here.
SKIPPED = (
    (re.compile(r"\$EDITOR|\$VISUAL"), "opens an editor"),
    (re.compile(r"^jobtracker fetch\b|--send\b|--check\b"), "reaches the network"),
    (re.compile(r"^jobtracker model check\b|--llm-url|--gguf"), "needs a model server or file"),
    (re.compile(r"^jobtracker-tui(?!.*(?:--run|--help))"), "the interactive app"),
    (re.compile(r"^jobtracker (?:matches (?:dismiss|undismiss)|proposals (?:accept|reject)|"
                r"postings (?:group|split)|status|applications note)\b"),
     "changes a record by an id of the example's own"),
    (re.compile(r"^jobtracker proposals undo\b"), "takes back a decision of the example's own"),
    (re.compile(r"\bpath/to/"), "reads a file of the example's own"),
    (re.compile(r"^jobtracker contacts import\b"), "reads an export of the user's own"),
    (re.compile(r"^jobtracker save\b"), "reads a page of the user's (the network) or their "
                                        "stdin; tests/integration/test_cli_save.py runs it"),
    (re.compile(r"^jobtracker render \S+\.json\b"),
     "documented as a refusal (exit 2); tests/integration/test_cli_render.py runs it"),
)
# An inline command that is a command's name and nothing more: `jobtracker proposals show`.
BARE = re.compile(r"^jobtracker(?:-tui)?(?: [a-z]+)*$")
INLINE = re.compile(r"`(jobtracker(?:-tui)?(?: [^`]*)?)`")


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


def _inline_commands(path: Path) -> list[tuple[int, str]]:
    """Each `` `jobtracker …` `` in the prose (outside code blocks), as written; a table
    cell's `\\|` is a `|`."""
    out, inside = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        if line.startswith("```"):
            inside = not inside
        elif not inside:
            out += [(number, found.replace("\\|", "|")) for found in INLINE.findall(line)]
    return out


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
        for number, text in _inline_commands(path):
            command, _, pipe = text.partition(" | ")
            command = command.strip()
            if BARE.match(command) and not pipe:
                command += " --help"          # a name: the command must exist
            found.append(Documented(f"{path.relative_to(ROOT)}:{number}",
                                    _without_options(command), pipe.strip()))
    return found


def _first_of_each(items: list[Documented]) -> list[Documented]:
    """One run per command as written (the first place that shows it)."""
    seen: set[tuple[str, str]] = set()
    out = []
    for item in items:
        if (item.command, item.pipe) not in seen:
            seen.add((item.command, item.pipe))
            out.append(item)
    return out


def skip_reason(item: Documented) -> str | None:
    for pattern, why in SKIPPED:
        if pattern.search(item.command):
            return why
    if PLACEHOLDER.search(item.command):
        return "a synopsis with placeholders"
    return None


ALL = documented()
RUN = _first_of_each([item for item in ALL if skip_reason(item) is None])


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


# --- docs/tui.md's key table against the screens' bindings ------------------------------

TUI_DOC = ROOT / "docs" / "tui.md"
# How the table writes a key, as Textual names it.
KEY_NAMES = {"↓": "down", "↑": "up", "?": "question_mark"}
# Keys a list widget brings itself (the table's arrows), not the screen's bindings.
WIDGET_KEYS = {"down", "up"}


def documented_keys() -> dict[str, set[str]]:
    """`## Keys`' table: screen → the keys it lists (`a` / `x`, `o`, `enter`, …)."""
    text = TUI_DOC.read_text(encoding="utf-8")
    section = text[text.index("\n## Keys"):]
    section = section[:section.index("\n## ", 1)]
    keys: dict[str, set[str]] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("screen", "---"):
            continue
        found = {KEY_NAMES.get(key, key) for key in re.findall(r"`([^`]+)`", cells[1])}
        keys.setdefault(cells[0], set()).update(found)
    return keys


def bound_keys(bindings: list) -> set[str]:
    from textual.binding import Binding

    out: set[str] = set()
    for binding in bindings:
        if isinstance(binding, Binding):
            out.update(key.strip() for key in binding.key.split(","))
        else:
            out.update(key.strip() for key in binding[0].split(","))
    return out


def screen_keys() -> dict[str, set[str]]:
    from tui.app import JobtrackerApp
    from tui.screens.confirm import ConfirmQuit
    from tui.screens.dashboard import DashboardScreen
    from tui.screens.interviews import InterviewsScreen
    from tui.screens.matches import MatchesScreen
    from tui.screens.review import ReviewScreen

    everywhere = bound_keys(JobtrackerApp.BINDINGS)
    if JobtrackerApp.ENABLE_COMMAND_PALETTE:
        everywhere.add(JobtrackerApp.COMMAND_PALETTE_BINDING)
    return {"everywhere": everywhere, "dashboard": bound_keys(DashboardScreen.BINDINGS),
            "review": bound_keys(ReviewScreen.BINDINGS),
            "matches": bound_keys(MatchesScreen.BINDINGS),
            "interviews": bound_keys(InterviewsScreen.BINDINGS),
            "quit dialog": bound_keys(ConfirmQuit.BINDINGS)}


def test_the_tui_key_table_names_every_screens_keys_and_no_other() -> None:
    documented, bound = documented_keys(), screen_keys()
    assert set(documented) == set(bound), "a screen in the table the test does not know"
    for screen, keys in bound.items():
        assert keys - documented[screen] == set(), f"{screen}: keys docs/tui.md does not list"
        assert documented[screen] - keys - WIDGET_KEYS == set(), \
            f"{screen}: keys docs/tui.md lists that the screen does not bind"
