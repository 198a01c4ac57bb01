"""Provenance: every stored answer says which model and which prompt version wrote it;
a new prompt version re-asks nothing by itself, and `--reask-stale-prompts` re-asks
exactly the answers written with another (or an unknown) prompt."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from jobtracker import proposals, store
from jobtracker.config import Config, Profile
from jobtracker.tasks import Context, Task, Unit
from jobtracker.tasks.inbox import InboxTask
from jobtracker.tasks.judge import JudgeTask
from jobtracker.tasks.level import LevelTask

NOW = "2026-09-01T12:00:00Z"
PROFILE = Profile(prose="Senior backend engineer. Python.", levels=("senior",),
                  locations=("berlin",), exists=True)
CTX = Context(home=Path("/nonexistent"), config=Config(), profile=PROFILE, now=NOW)
REASK = replace(CTX, reask_stale_prompts=True)


class EditedJudge(JudgeTask):
    """The judge after someone reworded its system prompt."""

    system = JudgeTask.system + " Be strict."


class EditedLevel(LevelTask):
    system = LevelTask.system + " Be strict."


class EditedInbox(InboxTask):
    system = InboxTask.system + " Be strict."


@pytest.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with store.connect(tmp_path / "db.sqlite") as connection:
        await connection.execute("INSERT INTO boards (id, source, token, company) "
                                 "VALUES (1, 'greenhouse', 'acme', 'Acme')")
        for pid, title, level in ((1, "Senior Engineer", "senior"), (2, "Engineer", "UNCERTAIN")):
            await connection.execute(
                "INSERT INTO postings (id, board_id, external_id, company, title, location, "
                "description, title_level, first_seen, last_seen) "
                "VALUES (?, 1, ?, 'Acme', ?, 'Berlin', ?, ?, ?, ?)",
                (pid, f"x{pid}", title, f"Posting {pid}: Python and Kafka. Senior role.",
                 level, NOW, NOW))
        yield connection


async def answer(conn: aiosqlite.Connection, task: Task, unit: Unit, data: dict[str, Any],
                 ctx: Context = CTX, model: str = "qwen3:8b") -> None:
    async with store.write(conn):
        await task.apply(conn, unit, task.parse(unit, data, ctx), ctx, model)


JUDGED = {"verdict": "good", "reasons": ["Python"], "meets": ["Python"], "misses": []}


async def test_judge_records_model_and_prompt_version(conn: aiosqlite.Connection) -> None:
    task = JudgeTask()
    [unit] = await task.pending(conn, CTX)
    await answer(conn, task, unit, JUDGED)
    row = await (await conn.execute(
        "SELECT model, prompt_version FROM rankings WHERE posting_id = 1")).fetchone()
    assert tuple(row) == ("qwen3:8b", task.prompt_version)


async def test_a_new_prompt_version_reasks_only_with_the_flag(
        conn: aiosqlite.Connection) -> None:
    old = JudgeTask()
    [unit] = await old.pending(conn, CTX)
    await answer(conn, old, unit, JUDGED)
    new = EditedJudge()
    assert new.prompt_version != old.prompt_version
    assert await new.pending(conn, CTX) == [] and await new.count(conn, CTX) == 0
    assert await old.pending(conn, REASK) == []          # answered with the current prompt
    [again] = await new.pending(conn, REASK)
    assert await new.count(conn, REASK) == 1
    # A new question: a new unit key, so a new Idempotency-Key.
    assert again.unit_key == f"{unit.unit_key}:prompt-{new.prompt_version}"
    await answer(conn, new, again, {**JUDGED, "verdict": "strong"}, REASK, model="llama3")
    row = await (await conn.execute(
        "SELECT verdict, model, prompt_version FROM rankings WHERE posting_id = 1")).fetchone()
    assert tuple(row) == ("strong", "llama3", new.prompt_version)
    assert await new.pending(conn, REASK) == []


async def test_an_unknown_prompt_version_is_stale_under_the_flag_only(
        conn: aiosqlite.Connection) -> None:
    task = JudgeTask()
    [unit] = await task.pending(conn, CTX)
    await answer(conn, task, unit, JUDGED)
    await conn.execute("UPDATE rankings SET prompt_version = NULL")   # a row from before
    assert await task.count(conn, CTX) == 0
    assert [u.subject for u in await task.pending(conn, REASK)] == [1]


async def test_level_records_and_reasks(conn: aiosqlite.Connection) -> None:
    task = LevelTask()
    [unit] = await task.pending(conn, CTX)
    assert unit.subject == 2
    await answer(conn, task, unit, {"level": "senior", "reason": "says senior"})
    row = await (await conn.execute(
        "SELECT model, prompt_version FROM level_readings WHERE posting_id = 2")).fetchone()
    assert tuple(row) == ("qwen3:8b", task.prompt_version)
    edited = EditedLevel()
    assert await edited.pending(conn, CTX) == [] and await edited.count(conn, CTX) == 0
    assert [u.subject for u in await edited.pending(conn, REASK)] == [2]
    assert await edited.count(conn, REASK) == 1


async def add_message(conn: aiosqlite.Connection, key: str, body: str) -> None:
    await conn.execute(
        "INSERT INTO messages (key, content_hash, sender, subject, sent_at, body, company, "
        "posting_id, first_seen) VALUES (?, 'h', 'Acme <jobs@acme.com>', 'Update', ?, ?, "
        "'Acme', 1, ?)", (key, NOW, body, NOW))


async def test_inbox_reading_and_its_proposal_say_which_model(
        conn: aiosqlite.Connection) -> None:
    task = InboxTask()
    await add_message(conn, "rej@acme.com", "We will not move forward with you.")
    [unit] = await task.pending(conn, CTX)
    await answer(conn, task, unit, {"state": "rejection", "summary": "rejected",
                                    "evidence": "We will not move forward with you."})
    row = await (await conn.execute(
        "SELECT model, prompt_version FROM messages WHERE key = 'rej@acme.com'")).fetchone()
    assert tuple(row) == ("qwen3:8b", task.prompt_version)
    [made] = await proposals.list_proposals(conn)
    assert (made.model, made.prompt_version) == ("qwen3:8b", task.prompt_version)
    assert made.to_json()["model"] == "qwen3:8b"

    # Re-asked under a new prompt: the reading is rewritten and proposes anew.
    edited = EditedInbox()
    assert await edited.pending(conn, CTX) == [] and await edited.count(conn, CTX) == 0
    [again] = await edited.pending(conn, REASK)
    assert await edited.count(conn, REASK) == 1
    await answer(conn, edited, again, {"state": "rejection", "summary": "a no",
                                       "evidence": "We will not move forward with you."},
                 REASK, model="llama3")
    row = await (await conn.execute(
        "SELECT summary, model, prompt_version FROM messages")).fetchone()
    assert tuple(row) == ("a no", "llama3", edited.prompt_version)
    found = await proposals.list_proposals(conn)
    assert [(p.model, p.prompt_version) for p in found] == [
        ("qwen3:8b", task.prompt_version), ("llama3", edited.prompt_version)]
    # Applying the same answer again writes nothing twice.
    await answer(conn, edited, again, {"state": "rejection", "summary": "twice",
                                       "evidence": "We will not move forward with you."},
                 REASK, model="llama3")
    row = await (await conn.execute("SELECT summary FROM messages")).fetchone()
    assert row[0] == "a no"


async def test_a_proposal_from_before_provenance_reads_as_unknown(
        conn: aiosqlite.Connection) -> None:
    async with store.write(conn):
        pid = await proposals.create(conn, kind="status", task="inbox", unit_key="m:old",
                                     now=NOW, payload={"to_status": "rejected"}, summary="s")
    found = await proposals.get(conn, pid)
    assert found is not None
    assert (found.model, found.prompt_version) == (None, None)
    assert found.to_json()["model"] is None
