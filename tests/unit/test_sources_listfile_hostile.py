"""`sources remove` by the parser's own marks: whatever the layout (a blank line or a
comment inside the entry, flow entries, a flow list, `"boards"` quoted or after a
byte-order mark, CRLF, an indentless list, a block scalar, a `url:` left empty), the
file afterwards reads as the old data less exactly that entry: every field of every
other board and feed unchanged. An edit that cannot be proven is refused naming the
user's file, never a temporary one, and the file is left as it was."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from jobtracker.cli import main
from jobtracker.sources.listfile import removed
from jobtracker.workspace import Workspace

LAYOUTS = {
    "blank line inside the entry": """\
boards:
  - ats: greenhouse
    token: first
    url: https://boards-api.greenhouse.io/v1/boards/first/jobs
  - ats: lever
    token: middle

    url: https://api.lever.co/v0/postings/middle?mode=json
  - ats: ashby
    token: last
    url: https://api.ashbyhq.com/posting-api/job-board/last
feeds:
  - name: remote
    url: https://example.org/jobs.rss
""",
    "comments and blank lines inside and between": """\
# mine
boards:
  - ats: greenhouse   # the first
    token: first

  # the one to go, with a note
  - ats: lever
    # a note inside it
    token: middle

    company: Middle Co   # trailing
  # this comment is about the last one
  - ats: ashby
    token: last
    company: Last

feeds:
  - {name: remote, url: "https://example.org/jobs.rss"}
""",
    "flow entries in a block list": """\
boards:
  - {ats: greenhouse, token: first, company: First}
  - {ats: lever, token: middle,
     company: Middle}
  - {ats: ashby, token: last}
feeds: [{name: remote, url: "https://example.org/a.rss"}]
""",
    "a flow list, quoted key, byte-order mark": '\ufeff"boards": [{ats: greenhouse, '
    'token: first}, {ats: lever, token: middle, url: "https://api.lever.co/v0/postings/'
    'middle"}, {ats: ashby, token: last}]\nfeeds: []\n',
    "crlf and an indentless list": "boards:\r\n- ats: greenhouse\r\n  token: first\r\n"
    "- ats: lever\r\n  token: middle\r\n\r\n  company: Middle\r\n- ats: ashby\r\n"
    "  token: last\r\nfeeds:\r\n- name: remote\r\n  url: https://example.org/b.rss\r\n",
    "a block scalar and an empty url": """\
boards:
  - ats: greenhouse
    token: first
    company: |
      First,
      on two lines
  - ats: lever
    token: middle
    company: >-
      Middle
      folded
    url:
  - ats: ashby
    token: last
feeds:
  - name: remote
    url: https://example.org/c.rss
""",
    "feeds before boards, deeper indentation": """\
feeds:
    -   name: remote
        url: https://example.org/d.rss
boards:
    -   ats: greenhouse
        token: first
    -   ats: lever

        token: middle
    -   ats: ashby
        token: last
""",
}
NAMES = {"greenhouse:first": ("boards", 0), "lever:middle": ("boards", 1),
         "ashby:last": ("boards", 2)}


def _less(data: dict, section: str, index: int) -> dict:
    wanted = copy.deepcopy(data)
    key = next(k for k in wanted if k.lstrip("\ufeff").strip('"') == section)
    del wanted[key][index]
    return wanted


def _load(text: str) -> dict:
    data = yaml.safe_load(text)
    return {k.lstrip("\ufeff"): (v if v is not None else []) for k, v in data.items()}


@pytest.mark.parametrize("name", list(NAMES))
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_removing_an_entry_takes_exactly_that_entry(layout: str, name: str) -> None:
    text = LAYOUTS[layout]
    section, index = NAMES[name]
    edited = removed(text, section, index)
    assert _load(edited) == _less(_load(text), section, index)
    gone = name.split(":")[1]
    others = {"first", "middle", "last"} - {gone}
    kept = [line for line in text.splitlines()
            if any(o in line for o in others) and gone not in line]
    assert all(line in edited.splitlines() for line in kept), "other entries as written"


@pytest.mark.parametrize("layout", [name for name, text in LAYOUTS.items()
                                    if _load(text)["feeds"]])
def test_removing_a_feed_keeps_every_board(layout: str) -> None:
    text = LAYOUTS[layout]
    assert _load(removed(text, "feeds", 0)) == _less(_load(text), "feeds", 0)


@pytest.mark.parametrize("layout", ["blank line inside the entry",
                                    "comments and blank lines inside and between",
                                    "crlf and an indentless list"])
def test_sources_remove_changes_no_other_boards_address(
        ws: Workspace, capsys: pytest.CaptureFixture[str], layout: str) -> None:
    path = ws.home / "sources.yaml"
    path.write_bytes(LAYOUTS[layout].encode())
    before = _load(LAYOUTS[layout])
    code = main(["--home", str(ws.home), "sources", "remove", "lever:middle"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert _load(path.read_bytes().decode()) == _less(before, "boards", 1)
    assert not [p.name for p in ws.home.iterdir() if p.name.startswith(".sources-")]


def test_an_edit_that_cannot_be_proven_is_refused_and_names_no_temporary_file(
        ws: Workspace, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from jobtracker.sources import listfile

    text = LAYOUTS["blank line inside the entry"]
    path = ws.home / "sources.yaml"
    path.write_text(text)
    # An edit that would also touch the next board (as the indentation cut did).
    monkeypatch.setattr(listfile, "_content_end", lambda node: node.end_mark.index + 5)
    code = main(["--home", str(ws.home), "sources", "remove", "lever:middle"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"jobtracker: {path}: ") and ".sources-" not in err, err
    assert path.read_text() == text


def test_a_file_the_loader_refuses_is_named_as_the_users_file(
        tmp_path: Path) -> None:
    from jobtracker.config import ConfigError
    from jobtracker.sources.listfile import write_holding

    path = tmp_path / "sources.yaml"
    path.write_text("boards: []\n")
    with pytest.raises(ConfigError) as refused:
        write_holding(path, "boards:\n  - {ats: nosuch, token: x}\n", lambda s: True)
    assert str(refused.value).startswith(f"{path}:2: ")
    assert path.read_text() == "boards: []\n"
