"""Files that are not files, at every reader of the workspace and of the command line:
a FIFO (with no writer: a blocking open would wait for ever), a link to /dev/zero (a
read would fill memory), a folder, and a huge sparse file (a whole read would cost
seconds and gigabytes). Each caller refuses it at once with a line naming the file:
profile.yaml for `proposals list` and learn, sources.yaml for an accept and `add`,
the run's inputs (resume.md, keywords.yaml, coverletter.md, answers.yaml), the
pre-rank's keywords, `render FILE`, and `check`, which must not say "configuration
ok". Accepting a `source` proposal onto a FIFO leaves the database writable."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from jobtracker import files, proposals, store
from jobtracker.cli import main
from jobtracker.config import load_profile
from jobtracker.ranking import prerank
from jobtracker.run.setup import load_setup
from jobtracker.workspace import Workspace
from jobtracker.yamlfile import ConfigError

NOW = "2026-12-01T12:00:00Z"
KINDS = ["fifo", "link to a fifo", "link to /dev/zero", "folder", "huge sparse file"]
HUGE = 40 * 1024 ** 3          # 40 GB of holes: st_size says so, no block is used


def plant(path: Path, kind: str) -> None:
    """Put `kind` where the file `path` was."""
    if path.is_dir() and not path.is_symlink():
        path.rmdir()
    else:
        path.unlink(missing_ok=True)
    outside = path.parent.parent / f"outside-{path.name}"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "link to a fifo":
        os.mkfifo(outside)
        path.symlink_to(outside)
    elif kind == "link to /dev/zero":
        path.symlink_to("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    else:
        with open(path, "wb") as handle:
            handle.truncate(HUGE)


def within(seconds: float, step: Callable[[], Any]) -> Any:
    """`step()` in a thread; fail (never hang the suite) when it runs past `seconds`."""
    box: dict[str, Any] = {}

    def go() -> None:
        try:
            box["value"] = step()
        except BaseException as exc:      # handed back to the test
            box["error"] = exc

    thread = threading.Thread(target=go, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still reading after {seconds} s"
    if "error" in box:
        raise box["error"]
    return box.get("value")


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = within(20, lambda: main(list(args)))
    out, err = capsys.readouterr()
    return code, out, err


# --- the reader itself ------------------------------------------------------------------

@pytest.mark.parametrize("follow", [False, True])
@pytest.mark.parametrize("kind", KINDS)
def test_the_one_reader_refuses_what_is_not_a_regular_file_at_once(
        tmp_path: Path, kind: str, follow: bool) -> None:
    (tmp_path / "home").mkdir()
    path = tmp_path / "home" / "file.yaml"
    plant(path, kind)
    with pytest.raises(files.FileRefused) as refused:
        within(5, lambda: files.read_regular(path, follow_links=follow))
    assert str(path) in str(refused.value)
    assert refused.value.kind in (("special", "large") if follow or "link" not in kind
                                  else ("link",))


def test_a_link_to_a_regular_file_is_followed_only_when_asked(tmp_path: Path) -> None:
    (tmp_path / "real.yaml").write_text("a: 1\n")
    (tmp_path / "link.yaml").symlink_to(tmp_path / "real.yaml")
    assert files.read_regular(tmp_path / "link.yaml", follow_links=True) == "a: 1\n"
    with pytest.raises(files.FileRefused, match="symbolic link"):
        files.read_regular(tmp_path / "link.yaml")


def test_a_file_past_the_limit_is_refused_by_its_size_before_any_read(tmp_path: Path) -> None:
    path = tmp_path / "big.md"
    path.write_bytes(b"x" * 2001)
    with pytest.raises(files.FileRefused, match="larger than 2,000 bytes"):
        files.read_regular_bytes(path, 2000)
    assert files.read_regular_bytes(path, 2001) == b"x" * 2001


# --- every caller -----------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["resume.md", "keywords.yaml", "coverletter.md",
                                  "answers.yaml"])
def test_the_runs_inputs_are_refused_with_their_name(ws: Workspace, kind: str,
                                                     name: str) -> None:
    plant(ws.home / name, kind)
    setup = load_setup(ws)
    with pytest.raises(ConfigError) as refused:
        within(5, lambda: setup.context(NOW))
    assert refused.value.path == ws.home / name


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["resume.md", "keywords.yaml", "coverletter.md"])
def test_check_never_says_configuration_ok_over_such_an_input(
        ws: Workspace, capsys: pytest.CaptureFixture[str], kind: str, name: str) -> None:
    plant(ws.home / name, kind)
    code, out, err = cli(capsys, "--home", str(ws.home), "check")
    assert code == 2
    assert "configuration ok" not in out
    assert err.count("\n") == 1 and str(ws.home / name) in err, err


@pytest.mark.parametrize("kind", KINDS)
def test_the_prerank_query_does_not_read_such_a_keywords_file(ws: Workspace,
                                                              kind: str) -> None:
    (ws.home / "keywords.yaml").write_text("skills: [kubernetes]\n")
    profile = ws.profile()
    assert "kubernetes" in prerank.workspace_query(ws.home, profile).terms
    plant(ws.home / "keywords.yaml", kind)
    query = within(5, lambda: prerank.workspace_query(ws.home, profile))
    assert "kubernetes" not in query.terms


@pytest.mark.parametrize("kind", KINDS)
def test_render_refuses_such_a_document_before_reading_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    (tmp_path / "docs").mkdir()
    source = tmp_path / "docs" / "resume.md"
    plant(source, kind)
    code, _, err = cli(capsys, "--home", str(tmp_path / "ws"), "render", str(source),
                       "-o", str(tmp_path / "docs" / "out.pdf"))
    assert code == 2
    assert err.startswith(f"jobtracker: {source}: ") and err.count("\n") == 1, err
    assert not (tmp_path / "docs" / "out.pdf").exists()


@pytest.mark.parametrize("kind", KINDS)
def test_learn_refuses_such_a_profile(ws: Workspace, capsys: pytest.CaptureFixture[str],
                                      kind: str) -> None:
    plant(ws.home / "profile.yaml", kind)
    code, _, err = cli(capsys, "--home", str(ws.home), "learn")
    assert code == 2
    assert str(ws.home / "profile.yaml") in err and err.count("\n") == 1, err


async def _seed(ws: Workspace, kind: str, payload: dict[str, Any]) -> int:
    async with store.connect(ws.db) as conn, store.write(conn):
        return await proposals.create(conn, kind=kind, task="probe" if kind == "source"
                                      else "learn", unit_key=f"{kind}:1", payload=payload,
                                      summary=f"a {kind} proposal", now=NOW)


def _profile_proposal(ws: Workspace) -> int:
    from jobtracker.proposals.profile import text_hash

    text = (ws.home / "profile.yaml").read_text()
    return asyncio.run(_seed(ws, "profile", {
        "edit": {"op": "append", "path": ["exclude"], "value": "gambling"},
        "profile_hash": text_hash(text), "rule": "r", "evidence": "e", "decisions": []}))


def _source_proposal(ws: Workspace) -> int:
    return asyncio.run(_seed(ws, "source", {
        "board": {"ats": "greenhouse", "token": "acme", "company": "Acme", "url": None},
        "title": "Engineer", "alerts": 2, "sender": "linkedin", "company": "Acme",
        "titles_listed": 3}))


async def _another_writer_can_write(ws: Workspace) -> None:
    async with store.connect(ws.db) as conn, store.write(conn):
        await conn.execute("SELECT 1")


@pytest.mark.parametrize("kind", KINDS)
def test_proposals_list_and_show_do_not_hang_on_such_a_profile(
        ws: Workspace, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    load_profile(ws.home / "profile.yaml")
    made = _profile_proposal(ws)
    plant(ws.home / "profile.yaml", kind)
    code, out, err = cli(capsys, "--home", str(ws.home), "proposals", "list")
    assert code == 0 and "Traceback" not in err
    code, out, err = cli(capsys, "--home", str(ws.home), "proposals", "show", str(made))
    assert code == 0 and f"cannot read {ws.home / 'profile.yaml'}" in out, out
    code, _, err = cli(capsys, "--home", str(ws.home), "proposals", "accept", str(made))
    assert code != 0 and "profile.yaml" in err and "Traceback" not in err


@pytest.mark.parametrize("kind", KINDS)
def test_accepting_a_source_onto_such_a_sources_file_is_refused_and_frees_the_lock(
        ws: Workspace, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    made = _source_proposal(ws)
    plant(ws.home / "sources.yaml", kind)
    code, out, err = cli(capsys, "--home", str(ws.home), "proposals", "accept", str(made))
    assert code != 0
    assert "sources.yaml" in out + err and "Traceback" not in err
    within(5, lambda: asyncio.run(_another_writer_can_write(ws)))


@pytest.mark.parametrize("kind", KINDS)
def test_add_refuses_such_a_sources_file(ws: Workspace, capsys: pytest.CaptureFixture[str],
                                         kind: str) -> None:
    plant(ws.home / "sources.yaml", kind)
    code, _, err = cli(capsys, "--home", str(ws.home), "add",
                       "https://boards.greenhouse.io/acme")
    assert code == 2
    assert "sources.yaml" in err and "Traceback" not in err
