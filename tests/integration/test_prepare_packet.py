"""A packet's files: one the user edited is never overwritten, a hostile title never
reaches a file name."""

from __future__ import annotations

import pytest

from jobtracker import cli
from jobtracker.workspace import Workspace
from tests import prepare_world
from tests.prepare_world import ANSWERS, packet, posting_id, run_prepare

# The shared fixtures, bound here by name so that pytest finds them in this file.
home, server = prepare_world.home, prepare_world.server


def test_an_edited_packet_file_is_never_overwritten(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    staff = str(posting_id(home, "Staff Engineer"))
    folder = packet(home, run_prepare(home, capsys, staff)[0])
    (folder / "answers.md").write_text("my own notes\n")
    (home.home / "answers.yaml").write_text(ANSWERS.replace("Ada", "Augusta"))
    assert cli.main(["--home", str(home.home), "prepare", staff]) == 0
    out = capsys.readouterr().out
    assert "answers.md was edited by you: it is kept, the new version is answers.md.new" in out
    assert (folder / "answers.md").read_text() == "my own notes\n"
    assert "Augusta" in (folder / "answers.md.new").read_text()
    assert "Augusta" in (folder / "answers.json").read_text(), "an unedited file is refreshed"


def test_a_hostile_title_never_reaches_a_file_name(home: Workspace) -> None:
    from jobtracker.prepare.packet import Posting, folder_for

    hostile = Posting(7, "../../etc", "\x1b[31m[red]/x/../passwd", "", "", "", "greenhouse")
    folder = folder_for(home.home, hostile)
    assert folder.parent == home.home / "applications"
    assert folder.name == "7-etc-31m-red-x-passwd"
