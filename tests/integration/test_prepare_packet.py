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


def test_the_users_own_values_are_written_as_they_are_and_stay_inert(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    """answers.md's answers from answers.yaml: the e-mail and links copy as they are
    (no `ada\\@example.org`, no `https\\://`), and a value holding Markdown or HTML is
    shown literally by a Markdown viewer; the employer's labels are still escaped."""
    from markdown_it import MarkdownIt

    hostile = "see [x](https://evil.example) <b>bold</b> `tick`"
    (home.home / "answers.yaml").write_text(
        ANSWERS.replace("Your careers page", hostile)
        .replace("ada@example.org", "jordan.lee@example.com"))
    staff = str(posting_id(home, "Staff Engineer"))
    folder = packet(home, run_prepare(home, capsys, staff)[0])
    text = (folder / "answers.md").read_text()
    assert "`jordan.lee@example.com`" in text and "jordan.lee\\@" not in text
    assert "`https://www.linkedin.com/in/ada`" in text
    assert f"`` {hostile} ``" in text, "the value itself, in a code span"
    html = MarkdownIt("commonmark").render(text)
    assert "<a " not in html and "<b>" not in html
    assert "<code>see [x](https://evil.example) &lt;b&gt;bold&lt;/b&gt; `tick`</code>" in html
    assert "<code>jordan.lee@example.com</code>" in html
    # The employer's text (its labels and options) is still escaped Markdown.
    assert "How did you hear about this job?" in text
    assert "Why do you want to work at Acme?" in html
