"""No module names a proposal kind or a task but its own: everything else asks the
registry, or the registrant it was handed. An AST scan of jobtracker/ and tui/ finds
a registered name written as a string where a kind or a task is meant — a `kind=` or
`task=` argument, a `REGISTRY["..."]` look-up, a comparison with a `.kind`, `.task` or
`.name` — outside the module that declares it. SQL text is not scanned: a query may
name the kind it reads, as the rows that store it do."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from jobtracker import proposals, tasks

ROOT = Path(__file__).resolve().parents[2]
MEANT = {"kind", "task", "name"}

# Sites the scan finds that are not a kind or task named from outside, or are a debt,
# each with its reason. The list only shrinks.
EXEMPT = {
    ("jobtracker/cli/applications.py", "status"): "a timeline entry's kind (tracker/"
                                                   "timeline.py), not a proposal kind",
    ("tui/screens/applications.py", "status"): "a timeline entry's kind, as above",
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


def _named(node: ast.AST, names: dict[str, set[str]]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
        return node.value
    return None


def _meant(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr in MEANT) or (
        isinstance(node, ast.Name) and node.id in MEANT)


def literals(tree: ast.AST, names: dict[str, set[str]]) -> list[tuple[int, str, str]]:
    """(line, name, how) for every registered name written where a kind or task is meant."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg in {"kind", "task"} and (name := _named(keyword.value, names)):
                    found.append((node.lineno, name, f"{keyword.arg}="))
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
    for path in sorted([*ROOT.glob("jobtracker/**/*.py"), *ROOT.glob("tui/**/*.py")]):
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
