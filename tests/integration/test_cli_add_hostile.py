"""`jobtracker add` on a sources.yaml it could misread: a `boards` key quoted, after a
byte-order mark, written as a complex key, or given twice; many `add`s at once; a
sources.yaml that is a link. Every board the file listed survives, or nothing changes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from jobtracker.config import load_sources
from jobtracker.sources import REGISTRY
from jobtracker.workspace import Workspace

OLD = ["{ats: lever, token: plaid, company: Plaid}",
       "{ats: ashby, token: linear, company: Linear}"]
URL = "https://boards.greenhouse.io/stripe"

SPELLINGS = {
    "double-quoted": '"boards":\n  - {0}\n  - {1}\n',
    "single-quoted": "'boards':\n  - {0}\n  - {1}\n",
    "byte-order mark": "\ufeffboards:\n  - {0}\n  - {1}\n",
    "space before the colon": "boards :\n  - {0}\n  - {1}\n",
    "complex key": "? boards\n: - {0}\n  - {1}\n",
    "flow, quoted": '"boards": [{0}, {1}]\n',
    "after feeds": "feeds: []\n\"boards\":\n  - {0}\n  - {1}\n",
    "crlf, quoted": '"boards":\r\n  - {0}\r\n  - {1}\r\n',
    "comment first": "# mine\n'boards':   # the list\n  - {0}\n  - {1}\n",
}


def add(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "jobtracker", "--home", str(home), "add",
                           *args], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ))


def tokens(path: Path) -> list[str]:
    return [b.token for b in load_sources(path, REGISTRY).boards]


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_add_keeps_every_board_however_boards_is_spelled(ws: Workspace, spelling: str) -> None:
    path = ws.home / "sources.yaml"
    path.write_bytes(SPELLINGS[spelling].format(*OLD).encode("utf-8"))
    before = path.read_bytes()
    done = add(ws.home, URL)
    if done.returncode == 0:
        assert tokens(path) == ["plaid", "linear", "stripe"], done.stdout
    else:
        assert done.returncode == 2 and "nothing changed" in done.stderr, done.stderr
        assert path.read_bytes() == before
    assert "Traceback" not in done.stderr


def test_a_file_with_boards_twice_is_refused_not_rewritten(ws: Workspace) -> None:
    path = ws.home / "sources.yaml"
    path.write_text(f"boards:\n  - {OLD[0]}\nboards:\n  - {OLD[1]}\n")
    done = add(ws.home, URL)
    assert done.returncode == 2 and "duplicate key" in done.stderr
    assert path.read_text().count("boards:") == 2


def test_adds_at_once_lose_no_board(ws: Workspace) -> None:
    path = ws.home / "sources.yaml"
    path.write_text(f"boards:\n  - {OLD[0]}\n")
    names = [f"company{i}" for i in range(8)]
    running = [subprocess.Popen([sys.executable, "-m", "jobtracker", "--home", str(ws.home),
                                 "add", f"https://boards.greenhouse.io/{name}"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for name in names]
    for process in running:
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
    assert sorted(tokens(path)) == sorted(["plaid", *names])


def test_a_linked_sources_yaml_stays_a_link(ws: Workspace, tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "sources.yaml"
    real.write_text(f"boards:\n  - {OLD[0]}\n")
    link = ws.home / "sources.yaml"
    link.unlink()
    link.symlink_to(real)
    done = add(ws.home, URL)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert tokens(real) == ["plaid", "stripe"]
