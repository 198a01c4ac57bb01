"""Every `--json` prints the same shape: one JSON value on one line (then a newline),
non-ASCII text as itself. docs/cli.md says so; this runs each command that has one."""

from __future__ import annotations

import json
import sqlite3

import pytest

from jobtracker.cli import main
from jobtracker.store import description_hash
from jobtracker.workspace import Workspace

COMMANDS = [
    ("matches", "--json"), ("proposals", "--json"), ("proposals", "list", "--json"),
    ("proposals", "show", "1", "--json"), ("applications", "--json"), ("stats", "--json"),
    ("learn", "--json"), ("prepare", "1", "--json"), ("digest", "--json"),
]


@pytest.fixture
def home(ws: Workspace, capsys: pytest.CaptureFixture[str]) -> Workspace:
    assert main(["--home", str(ws.home), "check"]) == 0       # creates the database
    with sqlite3.connect(ws.db) as conn:
        conn.create_function("description_hash", 1, description_hash, deterministic=True)
        conn.execute("INSERT INTO boards (id, source, token, company) "
                     "VALUES (1, 'greenhouse', 'zurich', 'Zürich AG')")
        conn.execute("INSERT INTO postings (id, board_id, external_id, company, title, "
                     "title_level, location, description, first_seen, last_seen) VALUES "
                     "(1, 1, 'x', 'Zürich AG', 'Senior Ingénieur', 'senior', 'Remote', 'Python.',"
                     " '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z')")
        conn.execute("INSERT INTO rankings (posting_id, unit_key, prose_hash, description_hash, "
                     "verdict, ranked_at) VALUES (1, 'k', 'p', description_hash('Python.'), "
                     "'strong', '2026-11-01T00:00:00Z')")
        conn.execute("INSERT INTO scores (posting_id, score, parts, scored_at) "
                     "VALUES (1, 1.0, '{}', '2026-11-01T00:00:00Z')")
        conn.execute("INSERT INTO proposals (kind, task, unit_key, posting_id, payload, summary, "
                     "created_at) VALUES ('status', 'inbox', 'm:1', 1, "
                     "'{\"to_status\": \"offer\", \"company\": \"Zürich AG\"}', "
                     "'Zürich AG: → offer', '2026-11-01T00:00:00Z')")
    assert main(["--home", str(ws.home), "status", "1", "applied"]) == 0
    capsys.readouterr()
    return ws


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a))
def test_every_json_is_one_line(home: Workspace, capsys: pytest.CaptureFixture[str],
                                args: tuple[str, ...]) -> None:
    assert main(["--home", str(home.home), *args]) == 0
    out = capsys.readouterr().out
    assert out.endswith("\n") and out.count("\n") == 1, out[:300]
    assert json.loads(out), "something to print, so an indented form would show"


def test_applications_show_json_is_one_line_too(home: Workspace,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--home", str(home.home), "applications", "show", "1", "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert json.loads(out)["company"] == "Zürich AG"
    assert "Zürich AG" in out, "non-ASCII text as itself, not \\u escapes"
