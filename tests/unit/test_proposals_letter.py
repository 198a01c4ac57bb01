"""The letter kind: written on accept, taken back on undo, stale once the template changes."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import tailoring_samples
from tailoring_samples import NOW, accept, hashes, sha

from jobtracker import proposals, store
from jobtracker.resume import text_hash

# The shared fixtures, bound here by name so that pytest finds them in this file.
home, conn = tailoring_samples.home, tailoring_samples.conn


async def propose_letter(conn: aiosqlite.Connection, home: Path, text: str,
                         unit_key: str = "p7:l") -> int:
    async with store.write(conn):
        return await proposals.create(
            conn, kind="letter", task="coverletter", unit_key=unit_key, now=NOW, posting_id=7,
            summary="letter", payload={
                "text": text, "company": "Acme", "title": "Senior Engineer", "posting_id": 7,
                "template_hash": text_hash((home / "coverletter.md").read_text()),
                **hashes(home)})


async def test_letters_are_written_on_accept_and_taken_back_on_undo(
        conn: aiosqlite.Connection, home: Path) -> None:
    before = sha(home / "resume.md")
    first = await propose_letter(conn, home, "Dear Acme,\n\nFirst.\n")
    second = await propose_letter(conn, home, "Dear Acme,\n\nSecond.\n", unit_key="p7:m")
    target = home / "letters" / "7-acme-senior-engineer.md"
    assert (await accept(conn, home, first)).ok
    assert target.read_text(encoding="utf-8") == "Dear Acme,\n\nFirst.\n"
    assert (await accept(conn, home, second)).ok
    assert target.read_text(encoding="utf-8") == "Dear Acme,\n\nSecond.\n"
    assert (await proposals.undo_last(conn, NOW, home)).ok
    assert target.read_text(encoding="utf-8") == "Dear Acme,\n\nFirst.\n"   # the one before
    assert (await proposals.undo_last(conn, NOW, home)).ok
    assert not target.exists() and list(target.parent.iterdir()) == []
    assert sha(home / "resume.md") == before


async def test_a_letter_is_stale_once_the_template_changes(
        conn: aiosqlite.Connection, home: Path) -> None:
    pid = await propose_letter(conn, home, "Dear Acme,\n")
    (home / "coverletter.md").write_text("Hello {company},\n\n{body}\n", encoding="utf-8")
    assert (await proposals.get(conn, pid, home)).stale_reason == (
        "coverletter.md changed since it was made")
    assert not (await accept(conn, home, pid)).ok
    assert not (home / "letters").exists()
