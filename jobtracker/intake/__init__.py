"""Intake: what a run brings in from outside before it surveys the queue, one step per
module, plus the registry.

Tasks only ask the model and propose; reading a mailbox is an intake step's. A task
names the steps whose input it reads (`Task.intake`); a run brings in, in the tasks'
priority order, every step an enabled task names, and the queue between runs counts
what those steps would bring as the task's pending work. Adding a step is one module
here (a `Step` subclass and its `STEP`) and one entry in the tuple below.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from jobtracker.intake import mail
from jobtracker.intake.base import Step
from jobtracker.registry import Registry

if TYPE_CHECKING:
    import aiosqlite

    from jobtracker.tasks.base import Context, Task

# Step name (what a task's `intake` names) → its step.
REGISTRY: Registry[Step] = Registry((mail.STEP,))


def steps_for(tasks: Iterable[Task]) -> list[Step]:
    """The steps these tasks read from, each once, in the order the tasks name them.
    A name no step has is a programming error: KeyError naming it."""
    steps: dict[str, Step] = {}
    for task in tasks:
        for name in task.intake:
            steps.setdefault(name, REGISTRY[name])
    return list(steps.values())


async def bring_in(conn: aiosqlite.Connection, ctx: Context, tasks: Iterable[Task]) -> None:
    """Every step the tasks read from brings its input into the database; one that
    cannot records why in `ctx.run.intake_failures` and the run goes on."""
    for step in steps_for(tasks):
        await step.bring_in(conn, ctx)


async def waiting(conn: aiosqlite.Connection, ctx: Context, task: Task) -> int:
    """Units' worth of input the task's steps would bring in now (nothing changed)."""
    return sum([await step.waiting(conn, ctx) for step in steps_for((task,))])


__all__ = ["REGISTRY", "Step", "bring_in", "steps_for", "waiting"]
