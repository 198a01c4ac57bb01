"""The mail intake step: it counts new Maildir mail without reading it in, brings it in
read-only before the survey, leaves a folder that is no Maildir alone, and keeps an IMAP
account it cannot read as this run's failure, in the run's context."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest

from jobtracker import store
from jobtracker.config import Config, Profile
from jobtracker.intake.mail import STEP as MAIL
from jobtracker.tasks import Context
from jobtracker.tasks.inbox import InboxTask
from tests.unit.mail_samples import build_maildir, fingerprint, plain

NOW = "2026-09-01T12:00:00Z"


@pytest.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with store.connect(tmp_path / "db.sqlite") as connection:
        yield connection


def inbox_ctx(tmp_path: Path, maildir: Path | None) -> Context:
    return Context(home=tmp_path, config=Config(maildir=maildir), profile=Profile(), now=NOW)


async def messages(conn: aiosqlite.Connection) -> int:
    return (await (await conn.execute("SELECT COUNT(*) FROM messages")).fetchone())[0]


async def test_inbox_counts_new_mail_outside_then_brings_it_in_read_only(
        conn: aiosqlite.Connection, tmp_path: Path) -> None:
    maildir = build_maildir(tmp_path / "Mail", [plain("Your application", "Thanks!"),
                                                plain("Interview", "Can we talk Tuesday?")])
    before = fingerprint(maildir)
    ctx = inbox_ctx(tmp_path, maildir)
    assert await MAIL.waiting(conn, ctx) == 2
    assert await messages(conn) == 0, "counting reads nothing in"
    await MAIL.bring_in(conn, ctx)
    assert await messages(conn) == 2
    assert await MAIL.waiting(conn, ctx) == 0
    assert fingerprint(maildir) == before


async def test_inbox_brings_in_nothing_from_a_folder_that_is_not_a_maildir(
        conn: aiosqlite.Connection, tmp_path: Path) -> None:
    folder = tmp_path / "NotMail"
    folder.mkdir()
    (folder / "note.eml").write_bytes(plain("Hi", "Not in cur/ or new/"))
    for maildir in (folder, tmp_path / "missing", None):
        ctx = inbox_ctx(tmp_path, maildir)
        assert InboxTask().unavailable_reason(ctx) is not None
        assert await MAIL.waiting(conn, ctx) == 0
        await MAIL.bring_in(conn, ctx)
    assert await messages(conn) == 0
