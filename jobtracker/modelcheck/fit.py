"""Part 2 of the check: does the largest prompt each task would send now fit?

A bounded sample of each task's real pending units is built with the task's own
`request()`. Prompts are compared by length in characters, and the longest few are
counted with the server's tokenizer (or estimated when it has none): counting every
unit would cost a request each for the same answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jobtracker.modelcheck import adapter
from jobtracker.modelcheck.report import TaskFit
from jobtracker.modelcheck.server import Tokenizer
from jobtracker.tasks import Context, Task
from jobtracker.text import one_line

if TYPE_CHECKING:
    import aiosqlite

SAMPLE = 50        # pending units built per task
COUNTED = 3        # of those, the longest prompts counted in tokens


def _chars(messages: list[dict[str, str]]) -> int:
    return sum(len(m.get("content", "")) for m in messages)


async def task_fit(conn: aiosqlite.Connection, ctx: Context, task: Task,
                   tokenizer: Tokenizer, context: int | None) -> TaskFit:
    max_tokens = adapter.max_tokens(ctx, task.name)
    reason = task.unavailable_reason(ctx)
    if reason is not None:
        return TaskFit(task.name, None, not tokenizer.available, max_tokens, True,
                       note=one_line(f"unavailable: {reason}", 120))
    units = await adapter.sample(conn, ctx, task, SAMPLE)
    if not units:
        return TaskFit(task.name, None, not tokenizer.available, max_tokens, True,
                       note="nothing pending now")
    built = sorted(((adapter.request(task, u, ctx).messages, u) for u in units),
                   key=lambda pair: _chars(pair[0]), reverse=True)
    largest, label, estimated = -1, "", False
    for messages, unit in built[:COUNTED]:
        tokens, was_estimated = await tokenizer.count(messages)
        if tokens > largest:
            largest, label, estimated = tokens, unit.label, was_estimated
    fits = context is None or largest + max_tokens <= context
    note = "" if context is not None else "context unknown: fit not checked"
    return TaskFit(task.name, largest, estimated, max_tokens, fits, one_line(label, 100),
                   len(units), note)
