"""`jobtracker prepare` as a command: unknown postings and a bad answers.yaml are exit 2."""

from __future__ import annotations

import pytest

from jobtracker import cli
from jobtracker.workspace import Workspace
from tests import prepare_world

# The shared fixtures, bound here by name so that pytest finds them in this file.
home, server = prepare_world.home, prepare_world.server


def test_unknown_postings_and_a_bad_answers_yaml_are_exit_2(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--home", str(home.home), "prepare", "999"]) == 2
    assert "no posting with id 999" in capsys.readouterr().err
    (home.home / "answers.yaml").write_text("identity:\n  first_nam: Ada\n")
    assert cli.main(["--home", str(home.home), "prepare"]) == 2
    err = capsys.readouterr().err
    assert "answers.yaml:2: identity.first_nam: unknown key" in err
    assert not (home.home / "applications").exists()
