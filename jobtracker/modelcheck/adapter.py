"""The one place the check touches the task and runner APIs.

`model check` asks every question through the tasks' own code (`request()`, the
project's LLM client, `parse()`), never a copy of their prompts. What it needs
beyond those public methods — a unit in a task's own shape for an evaluation item
or a decided message, the label an answer carries — lives here, so a change to the
task API is one small edit in this module.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from jobtracker import runner
from jobtracker.config import Profile
from jobtracker.store import description_hash
from jobtracker.tasks import REGISTRY, Context, Request, Task, Unit
from jobtracker.tasks.base import posting_unit
from jobtracker.tasks.inbox import PROMPT_BODY_CHARS, STATUS_FOR_STATE
from jobtracker.tasks.inbox import label as message_label
from jobtracker.workspace import Workspace

if TYPE_CHECKING:
    import aiosqlite

# The tasks the evaluation set has items for, and which answer field is the label.
LABEL_FIELD = {"level": "level", "judge": "verdict", "inbox": "state"}


def load_setup(ws: Workspace, llm_url: str | None, gguf: str | None) -> runner.Setup:
    """The workspace's settings with this command's overrides (ConfigError when bad)."""
    return runner.load_setup(ws, runner.RunOptions(llm_url=llm_url, gguf=gguf))


def context(setup: runner.Setup) -> Context:
    return setup.context(runner.now_iso())


def task(name: str) -> Task:
    return REGISTRY[name]


async def sample(conn: aiosqlite.Connection, ctx: Context, task: Task,
                 limit: int) -> list[Unit]:
    """Up to `limit` units the task would ask now."""
    return await task.pending(conn, ctx, limit=limit)


def request(task: Task, unit: Unit, ctx: Context) -> Request:
    return task.request(unit, ctx)


def parse(task: Task, unit: Unit, answer: dict[str, Any], ctx: Context) -> Any:
    return task.parse(unit, answer, ctx)


def answer_label(task_name: str, parsed: Any) -> str:
    """The one field an evaluation item is judged on (level, verdict, state)."""
    return str(parsed[LABEL_FIELD[task_name]]) if isinstance(parsed, dict) else ""


def max_tokens(ctx: Context, task_name: str) -> int:
    return ctx.config.llm.max_tokens_for(task_name)


def eval_context(ctx: Context, prose: str) -> Context:
    """The user's context with the evaluation's fixed profile: judge items are fits or
    misfits for that profile, whatever the user's own says."""
    return replace(ctx, profile=Profile(prose=prose, exists=True))


def eval_unit(task_name: str, number: int, fields: dict[str, Any], ctx: Context) -> Unit:
    """An evaluation item as a unit in the task's own shape (what pending() builds)."""
    if task_name == "inbox":
        return _message_unit(f"eval-{number}@jobtracker.modelcheck", fields.get("sender", ""),
                             fields.get("subject", ""), "2026-01-05T09:00:00Z",
                             fields.get("body", ""), fields.get("company"), None,
                             fields.get("title", ""))
    text = str(fields.get("description", ""))
    row = {"id": 900_000 + number, "company": fields.get("company"),
           "title": fields.get("title", ""), "text": text, "dhash": description_hash(text)}
    if task_name == "judge":
        prose_hash = ctx.profile.prose_hash
        return posting_unit(task_name, row, prose_hash, location=fields.get("location"),
                            description_source="ats", prose_hash=prose_hash)
    return posting_unit(task_name, row)


def _message_unit(key: str, sender: str, subject: str, date: str, body: str,
                  company: str | None, posting_id: int | None, title: str) -> Unit:
    return Unit(task="inbox", unit_key=f"m:{key}", subject=key,
                label=message_label(company, sender, subject),
                data={"key": key, "sender": sender, "subject": subject, "date": date,
                      "body": body[:PROMPT_BODY_CHARS], "company": company,
                      "posting_id": posting_id, "title": title})


async def decided_status_proposals(conn: aiosqlite.Connection,
                                   limit: int) -> list[tuple[Unit, str, str]]:
    """Messages whose status proposal the user accepted or rejected, newest decision
    first: (the message as an inbox unit, the proposed status, the decision)."""
    rows = await conn.execute_fetchall(
        "SELECT m.key, m.sender, m.subject, m.sent_at, substr(m.body, 1, ?), m.company, "
        "m.posting_id, COALESCE(p.title, ''), json_extract(x.payload, '$.to_status'), x.state "
        "FROM proposals AS x "
        "JOIN messages AS m ON m.key = json_extract(x.payload, '$.message.key') "
        "LEFT JOIN postings AS p ON p.id = m.posting_id "
        "WHERE x.kind = 'status' AND x.task = 'inbox' AND x.state IN ('accepted', 'rejected') "
        "ORDER BY x.decided_at DESC, x.id DESC LIMIT ?", (PROMPT_BODY_CHARS, limit))
    return [(_message_unit(key, sender, subject, sent_at, body, company, posting_id, title),
             str(to_status), state)
            for key, sender, subject, sent_at, body, company, posting_id, title, to_status, state
            in rows]


def status_for_state(state: str) -> str | None:
    """The application status an inbox state would propose (None: none)."""
    return STATUS_FOR_STATE.get(state)
