"""The model tasks, one pure module each, and the registry in pipeline order.

Adding a task is one module in this folder and one import line below.
"""

from __future__ import annotations

from jobtracker.tasks.base import Context, NoAnswer, Request, Task, Unit

REGISTRY: dict[str, Task] = {}


def register(task: Task) -> Task:
    REGISTRY[task.name] = task
    return task


def ordered(enabled: dict[str, bool] | None = None) -> list[Task]:
    """The registered tasks in priority order; only the enabled ones when given."""
    tasks = sorted(REGISTRY.values(), key=lambda t: t.priority)
    if enabled is None:
        return tasks
    return [t for t in tasks if enabled.get(t.name, False)]


# One import line per task module; each calls register() on import.
# (task modules are imported at the bottom so they can import this package)

__all__ = ["REGISTRY", "Context", "NoAnswer", "Request", "Task", "Unit", "ordered", "register"]

from jobtracker.tasks import (  # noqa: E402
    coverletter,  # noqa: F401
    inbox,  # noqa: F401
    judge,  # noqa: F401
    level,  # noqa: F401
    tailor,  # noqa: F401
)
