"""YAML alias bombs: refused at the first anchor or alias, in bounded time, with file:line."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from jobtracker.cli import main
from jobtracker.workspace import Workspace
from jobtracker.yamlfile import ConfigError, load


def laughs(levels: int, width: int, key: str, shape: str) -> str:
    """A billion-laughs document of `levels` levels, each `width` aliases of the last,
    under `key`, in one of several shapes (flow lists, block lists, mappings, merges)."""
    lines = [f"{key}:"] if key else []
    lines.append('  - &l0 "lol"' if shape != "merge" else "  - &l0 {a: lol}")
    for level in range(1, levels):
        if shape == "flow":
            items = ", ".join([f"*l{level - 1}"] * width)
            lines.append(f"  - &l{level} [{items}]")
        elif shape == "block":
            lines.append(f"  - &l{level}")
            lines += [f"    - *l{level - 1}"] * width
        elif shape == "mapping":
            items = ", ".join(f"k{i}: *l{level - 1}" for i in range(width))
            lines.append(f"  - &l{level} {{{items}}}")
        else:   # merge keys chained level after level
            lines.append(f"  - &l{level} {{<<: *l{level - 1}, x{level}: [*l{level - 1}]}}")
    return "\n".join(lines) + "\n"


SHAPES = ["flow", "block", "mapping", "merge"]
BOMBS = [(levels, width, shape) for shape in SHAPES for levels, width in
         [(9, 9), (8, 10), (12, 4), (30, 2)]]


@pytest.mark.parametrize(("levels", "width", "shape"), BOMBS)
def test_an_alias_bomb_is_refused_quickly_with_its_line(
        tmp_path: Path, levels: int, width: int, shape: str) -> None:
    path = tmp_path / "sources.yaml"
    path.write_text("# a hostile file\n" + laughs(levels, width, "boards", shape))
    started = time.perf_counter()
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert time.perf_counter() - started < 1.0
    assert caught.value.line == 3             # the first anchor, before anything expands
    assert str(caught.value).startswith(f"{path}:3: YAML anchors and aliases")


@pytest.mark.parametrize("name", ["config.yaml", "profile.yaml", "sources.yaml",
                                  "plugins.yaml"])
@pytest.mark.parametrize("shape", SHAPES)
def test_check_refuses_a_bomb_in_any_file(ws: Workspace, name: str, shape: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    (ws.home / name).write_text(laughs(9, 9, "weights", shape))
    started = time.perf_counter()
    assert main(["--home", str(ws.home), "check"]) == 2
    assert time.perf_counter() - started < 5.0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"jobtracker: {ws.home / name}:2: YAML anchors and aliases (&name, *name, "
                   "<<: *name) are not accepted; write the value out in full"]


def test_a_lone_alias_or_anchor_is_refused_too(tmp_path: Path) -> None:
    path = tmp_path / "profile.yaml"
    for text, line in [("a: &x 1\n", 1), ("a: 1\nb:\n  - *x\n", 3)]:
        path.write_text(text)
        with pytest.raises(ConfigError) as caught:
            load(path)
        assert caught.value.line == line, text


def test_ordinary_yaml_still_loads_with_lines(tmp_path: Path) -> None:
    path = tmp_path / "profile.yaml"
    path.write_text("prose: |\n  a & b * c\nlevels: [senior, '*x', '&y']\n")
    doc = load(path)
    assert doc.data == {"prose": "a & b * c\n", "levels": ["senior", "*x", "&y"]}
    assert doc.line("levels", 1) == 3
