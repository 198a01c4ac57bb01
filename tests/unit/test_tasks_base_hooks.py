"""The hooks the runner calls on every task: what inbox and judge do with them, and
that the base class's are no-ops (a task that needs none overrides none)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest

from jobtracker import store
from jobtracker.config import Config, Profile
from jobtracker.tasks import REGISTRY, Context
from jobtracker.tasks.inbox import InboxTask
from jobtracker.tasks.judge import JudgeTask
from tests.unit.mail_samples import build_maildir, fingerprint, plain
from tests.unit.test_tasks_judge import PROFILE, add_posting, make_ctx

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
    task = InboxTask()
    assert await task.waiting_outside(conn, ctx) == 2
    assert await messages(conn) == 0, "counting reads nothing in"
    await task.bring_in(conn, ctx)
    assert await messages(conn) == 2
    assert await task.waiting_outside(conn, ctx) == 0
    assert fingerprint(maildir) == before


async def test_inbox_brings_in_nothing_from_a_folder_that_is_not_a_maildir(
        conn: aiosqlite.Connection, tmp_path: Path) -> None:
    folder = tmp_path / "NotMail"
    folder.mkdir()
    (folder / "note.eml").write_bytes(plain("Hi", "Not in cur/ or new/"))
    for maildir in (folder, tmp_path / "missing", None):
        ctx = inbox_ctx(tmp_path, maildir)
        assert InboxTask().unavailable_reason(ctx) is not None
        assert await InboxTask().waiting_outside(conn, ctx) == 0
        await InboxTask().bring_in(conn, ctx)
    assert await messages(conn) == 0


async def test_judge_rescores_after_new_verdicts(conn: aiosqlite.Connection) -> None:
    await conn.execute("INSERT INTO boards (id, source, token) VALUES (1, 'greenhouse', 'a')")
    await add_posting(conn, 1)
    await conn.execute(
        "INSERT INTO rankings (posting_id, unit_key, prose_hash, description_hash, verdict, "
        "reasons, ranked_at) VALUES (1, 'k', ?, '', 'strong', ?, ?)",
        (PROFILE.prose_hash, json.dumps(["fits"]), NOW))
    await JudgeTask().after_applied(conn, make_ctx(), 1)
    rows = await conn.execute_fetchall("SELECT posting_id FROM scores")
    assert [r[0] for r in rows] == [1]


async def test_the_other_tasks_need_no_hook(conn: aiosqlite.Connection,
                                            tmp_path: Path) -> None:
    ctx = inbox_ctx(tmp_path, None)
    for name in ("level", "tailor", "coverletter"):
        task = REGISTRY[name]
        assert await task.waiting_outside(conn, ctx) == 0
        await task.bring_in(conn, ctx)
        await task.after_applied(conn, ctx, 5)
    assert await conn.execute_fetchall("SELECT * FROM scores") == []
