"""`jobtracker applications`, `show`, `note` and `stats` as a user runs them: bad input
is exit 2 and loses nothing."""

from __future__ import annotations

import pytest

from jobtracker.cli import main
from jobtracker.workspace import Workspace
from tests import tracker_world
from tests.tracker_world import cli, listed

# The shared fixtures, bound here by name so that pytest finds them in this file.
world = tracker_world.world


def test_bad_input_is_exit_2_and_loses_nothing(world: Workspace,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    for args in (("applications", "show", "99"), ("applications", "note", "99", "x")):
        code, _, err = cli(capsys, world, *args)
        assert code == 2 and "no application 99" in err
    with pytest.raises(SystemExit) as exit_:
        main(["--home", str(world.home), "applications", "--today", "12/10/2026"])
    assert exit_.value.code == 2
    assert "is not a date" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--home", str(world.home), "applications", "--status", "hired"])
    capsys.readouterr()
    assert len(listed(capsys, world)) == 4


def test_an_empty_list_says_why_it_is_empty(world: Workspace,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, world, "applications", "--due", "--today", "2026-10-02")
    assert code == 0
    assert out.strip() == "nothing due for a follow-up as of 2026-10-02 (4 applications in all)"
    code, out, _ = cli(capsys, world, "applications", "--status", "offer")
    assert out.strip() == "no application with status offer (4 in all)"
    code, out, _ = cli(capsys, world, "applications", "--due", "--status", "saved")
    assert "nothing due for a follow-up" in out and "with status saved" in out


def test_an_empty_workspace_says_how_to_record_an_application(
        ws: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, ws, "applications", "--due")
    assert code == 0 and out.startswith("no applications; `jobtracker status POSTING applied`")
