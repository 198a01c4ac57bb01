"""The one place the check touches the task and runner APIs.

`model check` asks every question through the tasks' own code (`request()`, the
project's LLM client, `parse()`), never a copy of their prompts. What is particular
to a task — its labelled items, the answer field they are scored on, how an item
becomes a unit, which decisions can be asked again — the task declares
(`Task.evaluation`, `eval_unit`, `decided`, `proposes`); this module reads those
declarations, so the check names no task and a change to the task API is one small
edit here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from jobtracker import runner
from jobtracker.config import Profile
from jobtracker.tasks import Context, Request, Task, Unit
from jobtracker.tasks.base import Decided
from jobtracker.workspace import Workspace

if TYPE_CHECKING:
    import aiosqlite


def load_setup(ws: Workspace, llm_url: str | None, gguf: str | None,
               model: str | None = None) -> runner.Setup:
    """The workspace's settings with this command's overrides (ConfigError when bad)."""
    return runner.load_setup(ws, runner.RunOptions(llm_url=llm_url, gguf=gguf, model=model))


def context(setup: runner.Setup) -> Context:
    return setup.context(runner.now_iso())


async def sample(conn: aiosqlite.Connection, ctx: Context, task: Task,
                 limit: int) -> list[Unit]:
    """Up to `limit` units the task would ask now."""
    return await task.pending(conn, ctx, limit=limit)


def request(task: Task, unit: Unit, ctx: Context) -> Request:
    return task.request(unit, ctx)


def parse(task: Task, unit: Unit, answer: dict[str, Any], ctx: Context) -> Any:
    return task.parse(unit, answer, ctx)


def answer_label(task: Task, parsed: Any) -> str:
    """The one field an evaluation item is scored on, as the task declares it."""
    evaluation = task.evaluation
    if evaluation is None or not isinstance(parsed, dict):
        return ""
    return str(parsed.get(evaluation.answer_field, ""))


def max_tokens(ctx: Context, task_name: str) -> int:
    return ctx.config.llm.max_tokens_for(task_name)


def eval_context(ctx: Context, prose: str | None) -> Context:
    """The user's context, with the profile the task's items were labelled for when they
    were (an item labelled a fit for that profile stays one, whatever the user's says)."""
    if prose is None:
        return ctx
    return replace(ctx, profile=Profile(prose=prose, exists=True))


def eval_unit(task: Task, number: int, fields: dict[str, Any], ctx: Context) -> Unit:
    """An evaluation item as a unit in the task's own shape (what pending() builds)."""
    return task.eval_unit(number, fields, ctx)


async def decided(conn: aiosqlite.Connection, task: Task, limit: int) -> list[Decided]:
    """The task's units whose proposals the user decided, newest decision first."""
    return await task.decided(conn, limit)


def proposes(task: Task, label: str) -> str | None:
    """What an answer with this label would propose (None: nothing)."""
    return task.proposes(label)
