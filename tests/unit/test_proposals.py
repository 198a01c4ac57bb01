"""The kind registry: a kind is one module and one entry in _KINDS."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from mail_samples import NOW

from jobtracker import proposals, store
from jobtracker.proposals import Kind, Proposal
from tests.toy_kind import toy_kind

LATER = "2026-09-13T08:00:00Z"


@pytest.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with store.connect(tmp_path / "db.sqlite") as connection:
        yield connection


async def one(conn: aiosqlite.Connection, proposal_id: int) -> Proposal:
    found = await proposals.get(conn, proposal_id)
    assert found is not None
    return found


async def test_a_kind_registers_its_applier_and_staleness(
        conn: aiosqlite.Connection, extend, tmp_path: Path) -> None:
    written: list[str] = []

    async def write_letter(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                           home: Path | None) -> dict[str, Any]:
        assert home == tmp_path
        written.append(proposal.payload["text"])
        return {"file": "letters/1-acme.md"}

    async def resume_changed(conn: aiosqlite.Connection, proposal: Proposal,
                             home: Path | None) -> str | None:
        return "the resume changed" if proposal.input_hash != "current" else None

    extend(proposals.REGISTRY, Kind("letter", write_letter, None, resume_changed))
    async with store.write(conn):
        fresh = await proposals.create(conn, kind="letter", task="coverletter", unit_key="u1",
                                       now=NOW, summary="letter", input_hash="current",
                                       payload={"text": "Dear Acme"})
        old = await proposals.create(conn, kind="letter", task="coverletter", unit_key="u2",
                                     now=NOW, summary="letter", input_hash="older",
                                     payload={"text": "Dear Bolt"})
    decisions = await proposals.accept(conn, [fresh, old], NOW, home=tmp_path)
    assert [d.ok for d in decisions] == [True, False]
    assert written == ["Dear Acme"]
    assert (await one(conn, fresh)).decision == {"file": "letters/1-acme.md"}
    undone = await proposals.undo_last(conn, LATER, home=tmp_path)
    assert undone is not None and not undone.ok and "has no undo" in undone.message


async def test_a_new_kind_is_one_module_and_one_registry_entry(
        conn: aiosqlite.Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kind module, in the registry, is creatable, acceptable, undoable and listed in
    KINDS with no other edit; its accept says what the kind says."""
    built_in = proposals.KINDS
    with toy_kind(tmp_path, monkeypatch) as toy_note_kind:
        assert (*built_in, "note") == proposals.KINDS   # the toy after the kinds _KINDS lists
        async with store.write(conn):
            pid = await proposals.create(conn, kind="note", task="toy", unit_key="u", now=NOW,
                                         summary="a note",
                                         payload={"text": "hello", "where": "a talk"})
        (decision,) = await proposals.accept(conn, [pid], LATER)
        assert decision.ok and toy_note_kind.NOTES == ["hello"]
        assert decision.message == f"noted {pid} as note #1"
        undone = await proposals.undo_last(conn, LATER)
        assert undone is not None and undone.ok and toy_note_kind.NOTES == []
        assert undone.message == f"undid accepting {pid}: a note"   # the default wording
        assert (await one(conn, pid)).state == "pending"
