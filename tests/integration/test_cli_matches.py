"""`jobtracker matches` and `jobtracker status` against a seeded workspace database."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from jobtracker import cli
from jobtracker.workspace import Workspace
from tests import matches_seed
from tests.matches_seed import matches_json

# The shared fixtures, bound here by name so that pytest finds them in this file.
seeded = matches_seed.seeded


@pytest.mark.parametrize("bad", ["0", "-1", "many"])
def test_top_must_be_a_positive_number(seeded: Workspace, capsys: pytest.CaptureFixture[str],
                                       bad: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--home", str(seeded.home), "matches", "--top", bad])
    assert exit_info.value.code == 2
    assert "--top" in capsys.readouterr().err


def test_table_shows_untrusted_text_literally(seeded: Workspace,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--home", str(seeded.home), "matches"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split() == ["id", "score", "verdict", "company", "title", "location",
                                "status", "url"]
    assert len(lines) == 4
    # The id first, as `dismiss`, `status` and `prepare` take it.
    assert [line.split()[0] for line in lines[1:]] == [
        str(m["id"]) for m in matches_json(seeded, capsys)]
    assert "Acme" in lines[1] and "strong" in lines[1] and "https://jobs.example/1" in lines[1]
    assert "\x1b" not in out and "\x07" not in out
    assert "[red]Evil[/red]" in lines[2]          # markup is shown, not interpreted


def test_status_creates_then_updates_the_application(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    home = str(seeded.home)
    assert cli.main(["--home", home, "status", "2", "applied"]) == 0
    assert "applied (was no application)" in capsys.readouterr().out
    assert cli.main(["status", "2", "Interviewing", "--home", home]) == 0
    assert "interviewing (was applied)" in capsys.readouterr().out
    by_id = {m["id"]: m for m in matches_json(seeded, capsys)}
    assert by_id[2]["status"] == "interviewing"
    assert by_id[1]["status"] is None


def test_invalid_status_is_a_clear_error_and_changes_nothing(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--home", str(seeded.home), "status", "1", "hired"]) == 2
    err = capsys.readouterr().err
    assert "'hired' is not an application status" in err
    assert "saved, applied, screening, interviewing, offer, rejected, withdrawn" in err
    assert all(m["status"] is None for m in matches_json(seeded, capsys))


def test_unknown_posting_is_a_clear_error(seeded: Workspace,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--home", str(seeded.home), "status", "99", "saved"]) == 2
    assert "no posting with id 99" in capsys.readouterr().err


def test_no_scored_matches_says_how_to_get_some(ws: Workspace,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--home", str(ws.home), "matches"]) == 0
    assert "jobtracker rank" in capsys.readouterr().out
    assert matches_json(ws, capsys) == []


def test_console_command_end_to_end(seeded: Workspace) -> None:
    done = run_cli("matches", "--json", "--top", "1", "--home", str(seeded.home))
    assert done.returncode == 0, done.stderr
    (best,) = json.loads(done.stdout)
    assert best["id"] == 1
    bad = run_cli("status", "1", "nope", "--home", str(seeded.home))
    assert bad.returncode == 2
    assert "not an application status" in bad.stderr
