"""What both command lines share: argument types, the missing-workspace rule, and
every usage error as one line with exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.cli import main
from tests.tui.fixtures import make_workspace
from tui.cli import main as tui_main


@pytest.mark.parametrize("args", [
    ["check"], ["work", "--dry-run"], ["matches"], ["proposals", "list"], ["fetch"],
    ["status", "1", "applied"],
])
def test_a_command_before_init_names_the_folder_and_creates_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    home = tmp_path / "nowhere"
    assert main(["--home", str(home), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"jobtracker: {home}: no workspace here; create one with `jobtracker init` "
                   "(or name another with --home DIR or $JOBTRACKER_HOME)")
    assert not home.exists()


def test_the_tui_before_init_says_the_same_and_creates_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "nowhere"
    assert tui_main(["--run", "--home", str(home)]) == 2
    assert "no workspace here; create one with `jobtracker init`" in capsys.readouterr().err
    assert not home.exists()


def test_init_still_creates_the_workspace(tmp_path: Path) -> None:
    home = tmp_path / "new"
    assert main(["--home", str(home), "init"]) == 0
    assert (home / "config.yaml").is_file()


@pytest.mark.parametrize("args", [
    ["work", "--concurrency", "-5"], ["work", "--concurrency", "0"], ["work", "--budget", "x"],
    ["status", "99999999999999999999", "applied"], ["proposals", "show", "-3"],
    ["proposals", "accept", "99999999999999999999"], ["matches", "--top", "0"],
])
def test_bad_numbers_are_usage_errors_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    assert main(["--home", str(tmp_path), "init"]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        main(["--home", str(tmp_path), *args])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "error:" in err.splitlines()[-1]


@pytest.mark.parametrize("args", [["--concurrency", "-5"], ["--budget", "0"],
                                  ["--deadline", "soon"]])
def test_the_tui_shares_the_argument_types(args: list[str],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        tui_main(["--run", *args])
    assert exited.value.code == 2
    assert "jobtracker-tui: error:" in capsys.readouterr().err


def test_rank_without_a_model_does_not_claim_nothing_changed_before_rescoring(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = make_workspace(tmp_path, "http://127.0.0.1:9",
                        tasks="level: true, judge: true, inbox: false")
    assert main(["--home", str(ws.home), "rank"]) == 0
    out = capsys.readouterr().out
    assert "Nothing was changed" not in out
    assert "No posting was judged; scores are recomputed below" in out
    assert out.rstrip().splitlines()[-1].startswith("rescored ")
