"""The hooks the runner calls on every task: what judge does with them, and that the
base class's are no-ops (a task that needs none overrides none). Inbox needs none: its
mail is the mail intake step's (tests/unit/test_intake_mail.py)."""

from __future__ import annotations

import json
from pathlib import Path

import aiosqlite

from jobtracker.tasks import REGISTRY
from jobtracker.tasks.judge import JudgeTask
from tests.unit import test_intake_mail as mail_tests
from tests.unit.test_tasks_judge import PROFILE, add_posting, make_ctx

# The inbox's world is the intake step's (its tests moved there): bound by name, so
# pytest finds the fixture here too.
NOW, conn, inbox_ctx = mail_tests.NOW, mail_tests.conn, mail_tests.inbox_ctx


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
        assert task.intake == ()
        await task.bring_in(conn, ctx)
        await task.after_applied(conn, ctx, 5)
    assert await conn.execute_fetchall("SELECT * FROM scores") == []
