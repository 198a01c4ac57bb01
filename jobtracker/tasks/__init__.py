"""The model tasks, one pure module each, and the registry in pipeline order.

Adding a task is one module in this folder (a `Task` subclass and its `TASK`
object) and one entry in the tuple below; everything else asks `REGISTRY`.
Task modules import `jobtracker.tasks.base`, never this package, so listing them
here makes no import cycle.
"""

from __future__ import annotations

from jobtracker.registry import Registry
from jobtracker.tasks import answer, coverletter, inbox, judge, level, tailor
from jobtracker.tasks.base import Context, Evaluation, NoAnswer, Request, Task, Unit

# Task name (the `kind` of its units, the name plugins.yaml switches) → its task.
# One entry per task; `priority` orders them, not their place here.
REGISTRY: Registry[Task] = Registry((level.TASK, judge.TASK, inbox.TASK, tailor.TASK,
                                     answer.TASK, coverletter.TASK))


def ordered(enabled: dict[str, bool] | None = None) -> list[Task]:
    """The registered tasks in priority order; only the enabled ones when given."""
    tasks = sorted(REGISTRY.values(), key=lambda t: t.priority)
    if enabled is None:
        return tasks
    return [t for t in tasks if enabled.get(t.name, False)]


__all__ = ["REGISTRY", "Context", "Evaluation", "NoAnswer", "Request", "Task", "Unit",
           "ordered"]
