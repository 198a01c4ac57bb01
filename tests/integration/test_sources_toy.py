"""Adding a job board is one module and one registry entry: a toy source, written to a
folder on sys.path, imported and put in `jobtracker.sources.REGISTRY` (what an entry
in its tuple does), is found everywhere a source is with no other edit —
sources.yaml validation, `jobtracker fetch`, a feed item linking to one of its job
pages, and the careers-page shapes `jobtracker add` recognises."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from servers.boards import BoardServer

from jobtracker import sources
from jobtracker.cli import main
from jobtracker.run.setup import sources_of
from jobtracker.workspace import Workspace
from jobtracker.yamlfile import ConfigError
from tests.db import raw_connect

TOY_MODULE = '''
"""toyboard: a listing of `{"jobs": [{"id", "title", "text"}]}` at /boards/TOKEN.json."""

import re

from jobtracker.sources.base import (NormalizedPosting, Source, guarded, load_json,
                                     object_list, page)

_JOB_PAGE = re.compile(r"^https://jobs\\.toyboard\\.example/([\\w-]+)/(\\d+)$")


def default_url(token):
    return f"https://api.toyboard.example/boards/{token}.json"


def match_url(url):
    found = _JOB_PAGE.match(url)
    return (found.group(1), found.group(2)) if found else None


def parse(payload, board):
    return guarded(object_list(load_json(payload), "jobs", "a toyboard"),
                   lambda job: NormalizedPosting(
                       external_id=str(job["id"]), title=job["title"],
                       company=board.company, description=job["text"],
                       url=f"https://jobs.toyboard.example/{board.token}/{job['id']}"))


SOURCE = Source("toyboard", default_url, parse, match_url, pages=(
    page("jobs.toyboard.example/TOKEN", r"jobs\\.toyboard\\.example/([\\w-]+)"),))
'''

LISTING = {"jobs": [{"id": 1, "title": "Backend Engineer", "text": "Build the ledger."},
                    {"id": 2, "title": "Data Engineer", "text": "Build the pipelines."}]}


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "toy_source.py").write_text(TOY_MODULE)
    monkeypatch.syspath_prepend(str(folder))
    module = importlib.import_module("toy_source")
    with sources.REGISTRY.extended(module.SOURCE):   # the one entry
        yield module
    sys.modules.pop("toy_source", None)


def boards(ws: Workspace, line: str) -> None:
    (ws.home / "sources.yaml").write_text(f"boards:\n  - {line}\n")


def test_sources_yaml_accepts_the_toy_by_name(toy: ModuleType, ws: Workspace) -> None:
    ws.init()
    boards(ws, "{ats: toyboard, token: acme, company: Acme}")
    [board] = sources_of(ws).boards
    assert (board.ats, board.name) == ("toyboard", "toyboard:acme")


def test_without_the_toy_module_its_name_is_refused(ws: Workspace) -> None:
    ws.init()
    boards(ws, "{ats: toyboard, token: acme, company: Acme}")
    with pytest.raises(ConfigError, match=r"sources.yaml:2: boards\[0\].ats: unknown ATS "
                                          r"'toyboard'"):
        sources_of(ws)


def test_fetch_reads_the_toy_board_and_stores_its_postings(
        toy: ModuleType, ws: Workspace, server: BoardServer,
        capsys: pytest.CaptureFixture[str]) -> None:
    ws.init()
    boards(ws, f"{{ats: toyboard, token: acme, company: Acme, "
               f"url: '{server.set('/boards/acme.json', LISTING)}'}}")
    assert main(["--home", str(ws.home), "fetch"]) == 0
    assert "toyboard:acme  ok, 2 new, 0 updated, 0 closed" in capsys.readouterr().out
    with raw_connect(ws.db) as conn:
        rows = conn.execute("SELECT b.source, p.external_id, p.title, p.url FROM postings p "
                            "JOIN boards b ON b.id = p.board_id ORDER BY p.id").fetchall()
    assert rows == [("toyboard", "1", "Backend Engineer", "https://jobs.toyboard.example/acme/1"),
                    ("toyboard", "2", "Data Engineer", "https://jobs.toyboard.example/acme/2")]


def test_a_link_to_a_toy_job_page_is_known_as_that_job(toy: ModuleType) -> None:
    assert sources.identify("https://jobs.toyboard.example/acme/42") == ("toyboard", "acme", "42")


def test_add_recognises_the_toy_careers_page_and_lists_its_shape(
        toy: ModuleType, ws: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    ws.init()
    (ws.home / "sources.yaml").write_text("boards: []\n")
    code = main(["--home", str(ws.home), "add", "https://jobs.toyboard.example/acme-labs"])
    assert code == 0 and "added toyboard:acme-labs (Acme Labs)" in capsys.readouterr().out
    assert [b.name for b in sources_of(ws).boards] == ["toyboard:acme-labs"]
    assert main(["--home", str(ws.home), "add", "https://example.org/careers"]) == 2
    assert "  jobs.toyboard.example/TOKEN  (toyboard)" in capsys.readouterr().err
