"""The letter kind: written on accept, taken back on undo, stale once the template changes."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest

from jobtracker import proposals, store
from jobtracker.resume import text_hash

NOW = "2026-09-01T12:00:00Z"


RESUME = """# Ada Lovelace

## Experience

- Example Corp — Backend Engineer (2020–2024)
  - Built a Python service that processed 2M events a day. Cut costs in half.
  - Ran the on-call rotation for the payments team.
  - Wrote PostgreSQL migrations.

## Skills

Python, PostgreSQL, distributed systems
"""


POSTING = ("We run Kubernetes on AWS. You will own services written in Go.\n"
           "About the Team\nOur team ships weekly.")


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    (folder / "resume.md").write_text(RESUME, encoding="utf-8")
    (folder / "keywords.yaml").write_text("keywords: [kafka]\n", encoding="utf-8")
    (folder / "coverletter.md").write_text("Dear {company},\n\n{body}\n\nAda\n",
                                           encoding="utf-8")
    return folder


@pytest.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with store.connect(tmp_path / "db.sqlite") as connection:
        await connection.execute("INSERT INTO boards (id, source, token, company) "
                                 "VALUES (1, 'greenhouse', 'acme', 'Acme')")
        await connection.execute(
            "INSERT INTO postings (id, board_id, external_id, company, title, first_seen, "
            "last_seen, description) VALUES (7, 1, 'x7', 'Acme', 'Senior Engineer', ?, ?, ?)",
            (NOW, NOW, POSTING))
        yield connection


def hashes(home: Path) -> dict[str, str]:
    return {"resume_hash": text_hash((home / "resume.md").read_text(encoding="utf-8")),
            "keywords_hash": text_hash((home / "keywords.yaml").read_text(encoding="utf-8")),
            "description_hash": text_hash(POSTING)}


async def accept(conn: aiosqlite.Connection, home: Path, pid: int) -> proposals.Decision:
    (decision,) = await proposals.accept(conn, [pid], NOW, home)
    return decision


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
