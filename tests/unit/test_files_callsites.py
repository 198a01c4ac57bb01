"""Every read, write and removal of a file in `jobtracker/` and `tui/` goes through the
one reader and the one writer of `jobtracker/files.py` (docs/reliability.md, "Files
that are not files" and "Writes through links"), and every JSON from outside through
the bounded reader (`jobtracker/jsonbound.py`).

An AST scan finds each call that touches a file another way (`open(`, `os.open(`,
`.read_text(`, `.read_bytes(`, `.write_text(`, `.unlink(`, `os.replace(`,
`tempfile.mkstemp(`, `write_atomic(` outside files.py, `json.loads(` …) and fails
unless that site is listed below with the reason it may (a file that is not the
workspace's: a package resource, the Maildir, a model cache; or a reader hardened on
its own, such as run.lock's). A new caller that bypasses the mechanism fails here,
and a listed site that is gone fails too, so the list never outlives its reasons.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# One worker takes the whole file: the project is parsed once (cached per process),
# not once on every worker that draws one of its tests.
pytestmark = pytest.mark.xdist_group("test_files_callsites")
SCANNED = ("jobtracker", "tui")
MECHANISM = {"jobtracker/files.py", "jobtracker/jsonbound.py"}

# What reads a file another way, and what writes or removes one.
READ_CALLS = {"open", "os.open", "io.open", ".read_text", ".read_bytes"}
WRITE_CALLS = {".write_text", ".write_bytes", ".unlink", "os.unlink", "os.remove",
               "os.replace", "os.rename", ".rename", ".rmdir", "os.rmdir",
               "shutil.rmtree", "shutil.move", "shutil.copy", "shutil.copyfile",
               "shutil.copy2", "tempfile.mkstemp", "tempfile.NamedTemporaryFile",
               "write_atomic", "files.write_atomic", "os.chmod", ".chmod", ".touch",
               "os.symlink", "os.link", ".symlink_to", ".hardlink_to", "shutil.copytree",
               "os.truncate"}
JSON_CALLS = {"json.loads", "json.load"}
# What reads a file of the workspace: never called inside a write transaction, where a
# slow read would hold the database's write lock for every other writer.
TRANSACTION_FREE = {"read_regular", "read_regular_bytes", "read_head", "read_text",
                    "read_input", "load_sources", "load_profile", "load_config",
                    "workspace_query", "load_answers", "load_timezone"}

# (file, enclosing function) -> why this site may touch a file itself.
PACKAGE = "the package's own data (importlib.resources), not a workspace file"
READS_ALLOWED = {
    ("jobtracker/cli/base.py", "closed_pipe"): "/dev/null put over a closed stdout",
    ("jobtracker/lease.py", "_open_lock"): "run.lock: its own O_NOFOLLOW|O_NONBLOCK open "
                                           "and fstat check (reliability: a planted run.lock)",
    ("jobtracker/mail/maildir.py", "_read_and_parse"): "a Maildir message, O_NOFOLLOW "
                                                       "(the Maildir is not the workspace)",
    ("jobtracker/postings/alerts.py", "_scan_maildir"): "alert mail in the Maildir, "
                                                        "O_NOFOLLOW, a bounded read",
    ("jobtracker/store/__init__.py", "holders"): "/proc/PID/cmdline of a lock holder",
    ("jobtracker/store/__init__.py", "list_migrations"): PACKAGE,
    ("jobtracker/store/__init__.py", "_open_connection"): "the database made "
                                                          "O_EXCL|O_NOFOLLOW",
    ("jobtracker/workspace.py", "Workspace.init"): "templates from the package, each "
                                                   "written O_CREAT|O_EXCL (never over "
                                                   "a link or a file)",
    ("jobtracker/cli/render.py", "_template"): PACKAGE,
    ("jobtracker/demo/__init__.py", "data_text"): PACKAGE,
    ("jobtracker/demo/__init__.py", "_install_maildir"): PACKAGE,
    ("jobtracker/demo/load.py", "_routes"): PACKAGE,
    ("jobtracker/demo/model.py", "_workspace_text"): PACKAGE,
    ("jobtracker/modelcheck/evalset.py", "load"): PACKAGE,
    ("tui/screens/review.py", "edit_in_editor"): "the editor's temporary file in the "
                                                 "system's temp folder, not the workspace",
}
WRITES_ALLOWED = {
    ("jobtracker/llm/tiny.py", "_extract"): "the model cache, outside the workspace",
    ("jobtracker/workspace.py", "Workspace.init"): "init's own O_EXCL files and folders "
                                                   "made private",
    ("tui/screens/review.py", "edit_in_editor"): "the editor's temporary file in the "
                                                 "system's temp folder",
}
DATABASE = "JSON the code wrote into its own database"
JSON_ALLOWED = {
    ("jobtracker/ranking/matches.py", "MatchRow.match"): DATABASE,
    ("jobtracker/ranking/matches.py", "MatchRow.parts_and_why"): DATABASE,
    ("jobtracker/demo/load.py", "_routes"): PACKAGE,
    ("jobtracker/tasks/answer.py", "AnswerTask._candidates"): DATABASE,
    ("jobtracker/prepare/refresh.py", "_stored_form"): DATABASE,
    ("jobtracker/prepare/run.py", "_cached"): DATABASE,
    ("jobtracker/proposals/core.py", "_from_row"): DATABASE,
    ("jobtracker/proposals/status.py", "_payload"): DATABASE,
    ("jobtracker/learning/learn.py", "_earlier"): DATABASE,
    ("tui/data.py", "_strings"): DATABASE,
    ("jobtracker/llm/response.py", "_validator"): "a schema written in the code",
    ("jobtracker/demo/model.py", "OpenAIServer.respond"): "the demo's own model server, "
                                                          "asked only by jobtracker",
}


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _name(node.value)
        if inner in ("os", "io", "shutil", "tempfile", "json", "files"):
            return f"{inner}.{node.attr}"
        return f".{node.attr}"
    return None


class _Scan(ast.NodeVisitor):
    def __init__(self, where: str) -> None:
        self.where, self.stack, self.found = where, [], []
        self.writing = 0          # inside `async with store.write(...)` blocks
        self.in_transaction: list[tuple[str, str, str, int]] = []

    def visit_AsyncWith(self, node: ast.AsyncWith) -> None:
        opens = any(isinstance(item.context_expr, ast.Call)
                    and isinstance(item.context_expr.func, ast.Attribute)
                    and item.context_expr.func.attr == "write"
                    and _name(item.context_expr.func.value) == "store"
                    for item in node.items)
        self.writing += opens
        self.generic_visit(node)
        self.writing -= opens

    def _def(self, node: ast.AST) -> None:
        self.stack.append(node.name)     # type: ignore[attr-defined]
        self.generic_visit(node)
        self.stack.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _def

    def visit_Call(self, node: ast.Call) -> None:
        name = _name(node.func)
        if name is not None:
            site = (self.where, ".".join(self.stack) or "<module>", name, node.lineno)
            self.found.append(site)
            if self.writing and name.lstrip(".").split(".")[-1] in TRANSACTION_FREE:
                self.in_transaction.append(site)
        self.generic_visit(node)


@lru_cache(maxsize=1)
def calls() -> list[tuple[str, str, str, int]]:
    out = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            if where in MECHANISM:
                continue
            scan = _Scan(where)
            scan.visit(ast.parse(path.read_text(encoding="utf-8"), where))
            out += scan.found
    return out


def _check(kinds: set[str], allowed: dict[tuple[str, str], str], what: str) -> None:
    found = [c for c in calls() if c[2] in kinds]
    bypass = [f"{where}:{line} {function}: {name}(" for where, function, name, line in found
              if (where, function) not in allowed]
    assert not bypass, f"{what} outside jobtracker/files.py:\n" + "\n".join(bypass)
    gone = sorted(set(allowed) - {(where, function) for where, function, _, _ in found})
    assert not gone, f"listed as allowed but no longer there (remove them): {gone}"


def test_no_file_is_read_outside_the_one_reader() -> None:
    _check(READ_CALLS, READS_ALLOWED, "files read")


def test_no_file_is_written_or_removed_outside_the_one_writer() -> None:
    _check(WRITE_CALLS, WRITES_ALLOWED, "files written or removed")


def test_no_json_from_outside_is_read_outside_the_bounded_reader() -> None:
    _check(JSON_CALLS, JSON_ALLOWED, "JSON parsed")


def test_no_workspace_file_is_read_inside_a_write_transaction() -> None:
    found = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            scan = _Scan(path.relative_to(ROOT).as_posix())
            scan.visit(ast.parse(path.read_text(encoding="utf-8")))
            found += scan.in_transaction
    assert not found, "read inside `async with store.write(...)`:\n" + "\n".join(
        f"{where}:{line} {function}: {name}(" for where, function, name, line in found)


def test_the_scan_finds_a_bypass() -> None:
    """The scan itself: a plain open(), a Path.read_text() and a json.loads() in a new
    module would each be found."""
    tree = ast.parse("def f(p):\n    open(p)\n    p.read_text()\n    p.unlink()\n"
                     "    json.loads(p)\n")
    scan = _Scan("jobtracker/new.py")
    scan.visit(tree)
    names = {name for _, _, name, _ in scan.found}
    assert {"open", ".read_text", ".unlink", "json.loads"} <= names
    inside = _Scan("jobtracker/new.py")
    inside.visit(ast.parse("async def f(conn, p):\n    async with store.write(conn):\n"
                           "        files.read_regular(p)\n"))
    assert [name for _, _, name, _ in inside.in_transaction] == ["files.read_regular"]
