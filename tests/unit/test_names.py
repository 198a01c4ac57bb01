"""No module names a proposal kind or a task but its own: everything else asks the
registry, or the registrant it was handed. An AST scan of jobtracker/ and tui/ finds
a registered name written as a string where a kind or a task is meant — a `kind=` or
`task=` argument, or a plain positional argument in the place of a parameter named
`kind` or `task` (of a function, class or dataclass of jobtracker/ or tui/ with that
name: `accepted(conn, "letter", ...)`), a `REGISTRY["..."]` or `REGISTRY.get("...")`
look-up, a comparison with a `.kind`, `.task` or `.name` — outside the module that
declares it. A call to a function from outside the project is not resolved. SQL text
is not scanned: a query may name the kind it reads, as the rows that store it do."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from functools import cache
from pathlib import Path

import pytest

from jobtracker import proposals, tasks

ROOT = Path(__file__).resolve().parents[2]
MEANT = {"kind", "task", "name"}
PARAMETERS = {"kind", "task"}

# One worker takes the whole file: the project is parsed once (cached per process),
# not once on every worker that draws one of its tests.
pytestmark = pytest.mark.xdist_group("test_names")

# Sites the scan finds that are not a kind or task named from outside, or are a debt,
# each with its reason. The list only shrinks.
EXEMPT = {
    ("jobtracker/cli/applications.py", "status"): "a timeline entry's kind (tracker/"
                                                   "timeline.py), not a proposal kind",
    ("tui/screens/applications.py", "status"): "a timeline entry's kind, as above",
    ("jobtracker/tracker/timeline.py", "status"): "where a timeline entry's kind is "
                                                   "declared (`Entry(kind, ...)`)",
    ("jobtracker/tracker/timeline.py", "interview"): "a timeline entry's kind, as above",
}


def owners() -> dict[str, set[str]]:
    """Each registered name → the modules allowed to write it (its own)."""
    out: dict[str, set[str]] = {}
    for kind in proposals.REGISTRY.values():
        out.setdefault(kind.name, set()).add(f"jobtracker/proposals/{kind.name}.py")
    for task in tasks.REGISTRY.values():
        module = type(task).__module__.replace(".", "/")
        own = {f"{module}.py"} | {str(p.relative_to(ROOT)) for p in (ROOT / module).glob("*.py")}
        out.setdefault(task.name, set()).update(own)
    return out


def _files() -> list[Path]:
    return sorted([*ROOT.glob("jobtracker/**/*.py"), *ROOT.glob("tui/**/*.py")])


def _parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The positional parameters of a def, `self` or `cls` left out."""
    found = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    return found[1:] if found[:1] in (["self"], ["cls"]) else found


def _is_dataclass(node: ast.ClassDef) -> bool:
    return any((isinstance(d, ast.Name) and d.id == "dataclass") or
               (isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and
               d.func.id == "dataclass") for d in node.decorator_list)


def signatures_of(trees: list[ast.AST]) -> dict[str, list[list[str]]]:
    """Each name that is called → the positional parameters of every def of that name
    (a function, a method, a class's `__init__`, a dataclass's fields)."""
    out: dict[str, list[list[str]]] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                out.setdefault(node.name, []).append(_parameters(node))
            elif isinstance(node, ast.ClassDef):
                init = next((n for n in node.body if isinstance(n, ast.FunctionDef)
                             and n.name == "__init__"), None)
                if init is not None:
                    out.setdefault(node.name, []).append(_parameters(init))
                elif _is_dataclass(node):
                    out.setdefault(node.name, []).append([
                        s.target.id for s in node.body if isinstance(s, ast.AnnAssign)
                        and isinstance(s.target, ast.Name)
                        and "ClassVar" not in ast.unparse(s.annotation)])
    return out


@cache
def project_signatures() -> dict[str, list[list[str]]]:
    return signatures_of([ast.parse(p.read_text(encoding="utf-8")) for p in _files()])


def _called(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return node.func.id if isinstance(node.func, ast.Name) else None


def _on_registry(node: ast.Call) -> bool:
    """`REGISTRY.get(...)` or `X.REGISTRY.get(...)`."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr == "get"):
        return False
    owner = func.value
    return (isinstance(owner, ast.Name) and owner.id == "REGISTRY") or (
        isinstance(owner, ast.Attribute) and owner.attr == "REGISTRY")


def _named(node: ast.AST, names: dict[str, set[str]]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
        return node.value
    return None


def _meant(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr in MEANT) or (
        isinstance(node, ast.Name) and node.id in MEANT)


def literals(tree: ast.AST, names: dict[str, set[str]],
             signatures: Mapping[str, list[list[str]]] | None = None,
             ) -> list[tuple[int, str, str]]:
    """(line, name, how) for every registered name written where a kind or task is meant
    (`signatures`: the project's defs, by name, for positional arguments)."""
    if signatures is None:
        signatures = project_signatures()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg in {"kind", "task"} and (name := _named(keyword.value, names)):
                    found.append((node.lineno, name, f"{keyword.arg}="))
            defs = signatures.get(_called(node) or "", [])
            for place, arg in enumerate(node.args):
                meant = sorted({params[place] for params in defs if place < len(params)}
                               & PARAMETERS)
                if meant and (name := _named(arg, names)):
                    found.append((node.lineno, name, f"as {meant[0]}"))
            if _on_registry(node) and node.args and (name := _named(node.args[0], names)):
                found.append((node.lineno, name, "REGISTRY.get(...)"))
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute | ast.Name):
            target = node.value.attr if isinstance(node.value, ast.Attribute) else node.value.id
            if target == "REGISTRY" and (name := _named(node.slice, names)):
                found.append((node.lineno, name, "REGISTRY[...]"))
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_meant(side) for side in sides):
                for side in sides:
                    items = side.elts if isinstance(side, ast.Tuple | ast.List | ast.Set) \
                        else [side]
                    for item in items:
                        if name := _named(item, names):
                            found.append((node.lineno, name, "compared"))
    return found


def scan() -> list[str]:
    names = owners()
    out = []
    for path in _files():
        where = str(path.relative_to(ROOT))
        for line, name, how in literals(ast.parse(path.read_text(encoding="utf-8")), names):
            if where not in names[name] and (where, name) not in EXEMPT:
                out.append(f"{where}:{line}: {name!r} ({how})")
    return out


def test_no_module_names_a_kind_or_a_task_but_its_own() -> None:
    assert scan() == []


@pytest.mark.parametrize("source, expected", [
    ('await create(conn, kind="letter", task="x")', [(1, "letter", "kind=")]),
    ('tasks.REGISTRY["judge"].priority', [(1, "judge", "REGISTRY[...]")]),
    ('if unit.task in ("level", "other"): pass', [(1, "level", "compared")]),
    ('conn.execute("SELECT * FROM proposals WHERE kind = \'letter\'")', []),
    ('status = {"status": 1}', []),
    # A plain positional argument, where the def it calls names the parameter kind/task.
    ('await written.accepted(conn, "letter", 3, 0)', [(1, "letter", "as kind")]),
    ('Unit("inbox", "k", 1, "x", {})', [(1, "inbox", "as task")]),
    ('Entry("status", t, h)', [(1, "status", "as kind")]),
    ('data.get("status"); parser.add_argument("status")', []),
    ('tasks.REGISTRY.get("judge")', [(1, "judge", "REGISTRY.get(...)")]),
])
def test_the_scan_sees_the_names_where_a_kind_or_task_is_meant(source: str,
                                                               expected: list) -> None:
    assert literals(ast.parse(source), owners()) == expected


def test_every_exemption_is_still_found() -> None:
    # An exemption whose site is gone comes off the list.
    names = owners()
    found = set()
    for where, _ in EXEMPT:
        tree = ast.parse((ROOT / where).read_text(encoding="utf-8"))
        found |= {(where, name) for _, name, _ in literals(tree, names)}
    assert set(EXEMPT) <= found
