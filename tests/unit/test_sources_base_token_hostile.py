"""A board token is a path segment like any id: `.` and `..` (whole, or as a part of a
Workday `tenant.wdN/site` token) never become a board, whether they come from `add`'s
URL, a job page in a feed, sources.yaml, or reach a default address, where every
token is escaped as one segment."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from jobtracker.cli import main
from jobtracker.cli.add import recognise
from jobtracker.sources import REGISTRY, identify
from jobtracker.workspace import Workspace

WALKS = ["..", ".", "../..", "a/..", "./a", "a/./b", ""]
PAGES = ["https://boards.greenhouse.io/{t}/jobs/1", "https://boards.greenhouse.io/{t}",
         "https://jobs.lever.co/{t}", "https://jobs.ashbyhq.com/{t}",
         "https://apply.workable.com/{t}/", "https://jobs.smartrecruiters.com/{t}",
         "https://{t}.recruitee.com/", "https://{t}.jobs.personio.de/"]


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("token", ["..", "."])
def test_add_never_recognises_a_token_that_walks_the_path(page: str, token: str) -> None:
    found = recognise(page.format(t=token))
    assert found is None or found.token not in ("", ".", ".."), found


@pytest.mark.parametrize("token", ["..", "."])
def test_add_refuses_it_and_changes_nothing(ws: Workspace, capsys: pytest.CaptureFixture[str],
                                            token: str) -> None:
    before = (ws.home / "sources.yaml").read_text()
    code = main(["--home", str(ws.home), "add", f"https://boards.greenhouse.io/{token}/../x"])
    assert code == 2
    assert (ws.home / "sources.yaml").read_text() == before
    assert "added" not in capsys.readouterr().out


@pytest.mark.parametrize("token", [t for t in WALKS if t])
def test_a_job_page_with_such_a_token_names_no_board(token: str) -> None:
    assert identify(f"https://boards.greenhouse.io/{token}/jobs/12345") is None or \
        identify(f"https://boards.greenhouse.io/{token}/jobs/12345")[1] not in WALKS


@pytest.mark.parametrize("token", WALKS)
@pytest.mark.parametrize("ats", ["greenhouse", "lever", "workday"])
def test_sources_yaml_refuses_such_a_token_with_its_line(
        ws: Workspace, capsys: pytest.CaptureFixture[str], token: str, ats: str) -> None:
    (ws.home / "sources.yaml").write_text(
        f'boards:\n  - {{ats: greenhouse, token: ok}}\n  - {{ats: {ats}, token: "{token}"}}\n')
    assert main(["--home", str(ws.home), "check"]) == 2
    err = capsys.readouterr().err
    assert "sources.yaml:3: boards[1].token:" in err, err


@pytest.mark.parametrize("ats", sorted(REGISTRY))
@pytest.mark.parametrize("token", ["..", ".", "a/b", "a?b=1#c", "x%2e"])
def test_every_default_address_keeps_the_token_one_segment(ats: str, token: str) -> None:
    try:
        url = REGISTRY[ats].default_url(token)
    except ValueError:
        return                          # refused as a segment: never a request
    segments = urlsplit(url).path.split("/")
    assert ".." not in segments and "." not in segments, url
    assert "#c" not in url and "?b=1" not in url.split("?")[0], url
