"""A toy proposal kind (tests/toy_kind.py), given only its registry entry, goes through
`jobtracker proposals` as a user runs it: listed by its own word and brief, shown,
accepted with its own sentence, undone."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from jobtracker import proposals, store
from jobtracker.cli import main
from jobtracker.workspace import Workspace
from tests.toy_kind import toy_kind

NOW = "2026-09-12T12:00:00Z"


async def _propose(db: Path) -> int:
    async with store.connect(db) as conn, store.write(conn):
        return await proposals.create(conn, kind="note", task="toy", unit_key="u", now=NOW,
                                      summary="a note",
                                      payload={"text": "ship on Fridays", "where": "a talk"})


def _run(ws: Workspace, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["--home", str(ws.home), "proposals", *args])
    return code, capsys.readouterr().out


def test_a_toy_kind_is_listed_shown_accepted_and_undone_from_the_command_line(
        ws: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    with toy_kind(tmp_path, monkeypatch) as toy:
        pid = asyncio.run(_propose(ws.db))
        code, listed = _run(ws, capsys, "list")
        assert code == 0 and "note" in listed
        code, shown = _run(ws, capsys, "show", str(pid))
        assert code == 0 and f"proposal {pid}: pending" in shown and "ship on Fridays" in shown
        code, accepted = _run(ws, capsys, "accept", str(pid))
        assert code == 0 and f"noted {pid} as note #1" in accepted
        assert toy.NOTES == ["ship on Fridays"]
        code, undone = _run(ws, capsys, "undo")
        assert code == 0 and f"undid accepting {pid}: a note" in undone
        assert toy.NOTES == []
