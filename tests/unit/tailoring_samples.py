"""The home and database the letter and resume_edit kinds' tests share: a resume, a
keywords.yaml and a letter template in a home folder, one posting in a database, the
hashes a proposal for them carries, and accepting one.

A test file takes the `home` and `conn` fixtures by binding them by name (`home, conn
= tailoring_samples.home, tailoring_samples.conn`); one of its own would take
precedence."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest
from resume_samples import POSTING, RESUME

from jobtracker import proposals, store
from jobtracker.resume import text_hash

NOW = "2026-09-01T12:00:00Z"


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
