"""YAML that parses but lies: values that cannot be built, keys given twice, nesting past
any configuration, text that is no text. Every workspace file says so in one line with
its file and line (exit 2), never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.cli import main
from jobtracker.resume.keywords import KeywordsError, keyword_terms
from jobtracker.workspace import Workspace
from jobtracker.yamlfile import ConfigError, load

# (name, the document's text from line 3 on, the line the error must name). Each shape
# is a family: the held-out variants differ in the digits, the date, the tag, the depth.
HOSTILE = [
    ("huge int", "x: {n}\n", lambda n: "9" * n, [4301, 5000, 20_000]),
    ("huge negative int", "x: [1, -{n}]\n", lambda n: "1" * n, [4400, 9000]),
    ("impossible date", "x: {n}\n", lambda n: n, ["2024-02-30", "2023-02-29", "2026-13-01",
                                                  "2026-04-31 10:00:00"]),
    ("tagged float", "x: !!float {n}\n", lambda n: n, ["abc", "1.2.3", "'  '"]),
    ("tagged int", "x:\n  - !!int {n}\n", lambda n: n, ["0x", "twelve", "0b2"]),
    ("tagged timestamp", "x: !!timestamp {n}\n", lambda n: n, ["yesterday", "2026"]),
    ("tagged bool", "x: !!bool {n}\n", lambda n: n, ["maybe"]),
    ("deep flow", "x: {n}\n", lambda n: "[" * n + "]" * n, [100, 3000]),
    ("deep unclosed", "{n}\n", lambda n: "[" * n, [3000, 50_000]),
    ("deep block", "{n}\n", lambda n: "".join(f"{' ' * i}- \n" for i in range(n)).rstrip()
     + " 1", [200]),
    ("deep mappings", "{n}\n", lambda n: "{a: " * n + "1" + "}" * n, [70, 2000]),
    ("lone surrogate", 'x: "{n}"\n', lambda n: n, ["\\udcff", "ok \\ud800 ok", "\\U0000dfff"]),
    ("surrogate key", '"{n}": 1\n', lambda n: n, ["\\udcff"]),
]
CASES = [pytest.param(text.format(n=make(value)), id=f"{name}-{str(value)[:12]}")
         for name, text, make, values in HOSTILE for value in values]

DUPLICATES = [
    "x: 1\nx: 2\n",
    '"x": 1\nx: 2\n',
    "x: 1\n'x': 2\n",
    "? x\n: 1\nx: 2\n",
    "x: 1\n\ufeffx: 2\n",
    "x: [1]\ny: 2\n\"x\": []\n",
    "x:\n  a: 1\n  b: 2\n  \"a\": 3\n",
]


def document(body: str) -> str:
    return "# a hostile file\n# line two\n" + body


@pytest.mark.parametrize("body", CASES)
def test_a_value_that_cannot_be_built_names_file_and_line(tmp_path: Path, body: str) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(document(body), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert caught.value.line is not None and caught.value.line >= 3
    assert str(caught.value).startswith(f"{path}:{caught.value.line}: ")
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 400


@pytest.mark.parametrize("body", DUPLICATES)
def test_a_key_given_twice_is_an_error_at_the_second(tmp_path: Path, body: str) -> None:
    path = tmp_path / "sources.yaml"
    path.write_text(document(body), encoding="utf-8")
    with pytest.raises(ConfigError, match="duplicate key") as caught:
        load(path)
    assert caught.value.line is not None and caught.value.line > 3


def test_a_byte_order_mark_before_the_first_key_is_still_that_key(tmp_path: Path) -> None:
    path = tmp_path / "sources.yaml"
    path.write_text("\ufeffboards: []\nboards: [{ats: lever, token: x}]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r":2: duplicate key 'boards' \(first on line 1\)"):
        load(path)


@pytest.mark.parametrize("name", ["config.yaml", "profile.yaml", "sources.yaml",
                                  "plugins.yaml", "answers.yaml"])
@pytest.mark.parametrize("body", [CASES[0], CASES[2], CASES[3], CASES[8], CASES[-2],
                                  pytest.param(DUPLICATES[1], id="duplicate")])
def test_check_says_it_in_one_line_for_every_file(ws: Workspace, name: str, body: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    (ws.home / name).write_text(document(body), encoding="utf-8")
    assert main(["--home", str(ws.home), "check"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"jobtracker: {ws.home / name}:"), err
    # The reader itself says it, before any schema reads the (unknown) key `x`.
    assert "unknown key" not in err[0] and "Traceback" not in err[0], err


@pytest.mark.parametrize("body", [*CASES[:4], pytest.param(DUPLICATES[0], id="dup")])
def test_keywords_yaml_reads_the_same_way(body: str) -> None:
    with pytest.raises(KeywordsError, match=r"^keywords.yaml: line \d+: "):
        keyword_terms(document(body))


@pytest.mark.parametrize("name", ["config.yaml", "sources.yaml", "profile.yaml"])
@pytest.mark.parametrize("kind", ["fifo", "link to a fifo", "link to /dev/zero", "folder"])
def test_a_yaml_file_that_is_not_a_file_is_one_line_at_once(
        ws: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
        kind: str) -> None:
    import os
    import threading

    path = ws.home / name
    path.unlink(missing_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "link to a fifo":
        os.mkfifo(tmp_path / "elsewhere")
        path.symlink_to(tmp_path / "elsewhere")
    elif kind == "link to /dev/zero":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    box: dict[str, int] = {}
    thread = threading.Thread(target=lambda: box.update(
        code=main(["--home", str(ws.home), "check"])), daemon=True)
    thread.start()
    thread.join(10)
    assert not thread.is_alive(), "check is still reading"
    assert box["code"] == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"jobtracker: {path}: not a regular file (a FIFO, a device or a folder); "
                   "replace it with a YAML file"], err
