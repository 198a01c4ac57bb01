"""Indexes from a transformed string are never used on the original: `'İ'.lower()` is
two characters, so a posting padded with them before its refusal moved the windows
of the sponsorship filter off the words (and `sponsorship: required` let it through).
The same holds for a quote found in a mail (`proposals.lines.quote_in`). A scan
fails on any `.find`/`.index` of a lower-cased or case-folded copy in `jobtracker/` or
`tui/`, and on a regex match over one whose positions are then read."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from jobtracker.proposals.lines import quote_in
from jobtracker.ranking.sponsorship import refusal

ROOT = Path(__file__).resolve().parents[2]
REFUSALS = ["We are unable to sponsor visas for this role.",
            "Visa sponsorship is not available.", "No visa sponsorship.",
            "We cannot offer sponsorship for work visas."]
PADS = ["İ" * 170, "İ" * 57 + " text ", "Straße İstanbul " * 40, "İ" * 2000, "\u0130x" * 300]


@pytest.mark.parametrize("pad", PADS, ids=lambda p: f"{len(p)} chars")
@pytest.mark.parametrize("words", REFUSALS)
def test_a_refusal_after_characters_that_grow_when_lowered_is_found(pad: str,
                                                                     words: str) -> None:
    found = refusal(f"{pad} {words}")
    assert found is not None and found.lower() in words.lower()


@pytest.mark.parametrize("pad", PADS[:3], ids=lambda p: f"{len(p)} chars")
def test_a_quote_after_such_characters_is_marked_where_it_is(pad: str) -> None:
    quote = "Thursday 3 December at 14:00"
    (line,) = quote_in(f"{pad} Would {quote.upper()} work?", quote)
    marked = [span.text for span in line.text if span.emphasis == "quote"]
    assert marked == [quote.upper()]


LOWERING = {"lower", "casefold", "upper"}
POSITIONS = {"find", "index", "rfind", "rindex"}
MATCHING = {"search", "finditer", "match", "fullmatch"}


def _lowered(node: ast.AST, names: set[str]) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in LOWERING) or (isinstance(node, ast.Name) and node.id in names)


def transformed_indexes(tree: ast.AST) -> list[int]:
    """Lines where a position found in a lower-cased copy can reach the original."""
    hits = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        names: set[str] = set()
        matches: set[str] = set()
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and _lowered(node.value, set()):
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign | ast.NamedExpr) and isinstance(node.value, ast.Call):
                call = node.value
                if isinstance(call.func, ast.Attribute) and call.func.attr in MATCHING and \
                        any(_lowered(a, names) for a in call.args):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    matches |= {t.id for t in targets if isinstance(t, ast.Name)}
            if isinstance(node, ast.For) and isinstance(node.iter, ast.Call) and \
                    isinstance(node.iter.func, ast.Attribute) and \
                    node.iter.func.attr == "finditer" and \
                    any(_lowered(a, names) for a in node.iter.args) and \
                    isinstance(node.target, ast.Name):
                matches.add(node.target.id)
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            position = node.func.attr in POSITIONS and _lowered(node.func.value, names)
            of_match = (node.func.attr in ("start", "end", "span")
                        and isinstance(node.func.value, ast.Name)
                        and node.func.value.id in matches)
            if position or of_match:
                hits.append(node.lineno)
    return hits


def test_no_position_is_taken_from_a_lower_cased_copy() -> None:
    found = []
    for top in ("jobtracker", "tui"):
        for path in sorted((ROOT / top).rglob("*.py")):
            for line in transformed_indexes(ast.parse(path.read_text(encoding="utf-8"))):
                found.append(f"{path.relative_to(ROOT)}:{line}")
    assert not found, "positions from a transformed string:\n" + "\n".join(found)


@pytest.mark.parametrize("code", [
    "def f(t):\n    low = t.lower()\n    i = low.find('x')\n    return t[i:]\n",
    "def f(t):\n    i = t.casefold().index('x')\n",
    "def f(t, p):\n    m = p.search(t.lower())\n    return t[m.start():]\n",
    "def f(t, p):\n    low = t.lower()\n    for m in p.finditer(low):\n        t[m.end():]\n",
])
def test_the_scan_finds_each_shape(code: str) -> None:
    assert transformed_indexes(ast.parse(code))
