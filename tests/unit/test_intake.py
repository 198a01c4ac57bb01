"""The intake registry: every step a shipped task names is registered, and the steps a
run brings in are those its enabled tasks name, each once, in the tasks' order."""

from __future__ import annotations

from pathlib import Path

from jobtracker import intake, tasks
from jobtracker.config import Config, Profile
from jobtracker.tasks import Context
from jobtracker.tasks.base import Task


class Reads(Task):
    """A task that reads from the steps it is given (nothing else of a task is used)."""

    name = "reads"

    def __init__(self, *steps: str) -> None:
        self.intake = steps      # per object: each test task reads its own steps


class Step(intake.Step):
    def __init__(self, name: str) -> None:
        self.name = name


def test_every_shipped_task_names_registered_steps() -> None:
    named = {step for task in tasks.REGISTRY.values() for step in task.intake}
    assert named <= set(intake.REGISTRY)
    assert [s.name for s in intake.steps_for(tasks.ordered())] == ["mail"]
    assert tasks.REGISTRY["inbox"].intake == ("mail",)


def test_the_steps_are_the_tasks_own_each_once_in_their_order() -> None:
    with intake.REGISTRY.extended(Step("first"), Step("second")):
        steps = intake.steps_for([Reads("second"), Reads("first", "second"), Reads()])
        assert [s.name for s in steps] == ["second", "first"]
        assert intake.steps_for([Reads()]) == []


async def test_a_task_reading_no_step_waits_for_nothing(tmp_path: Path) -> None:
    ctx = Context(home=tmp_path, config=Config(), profile=Profile(), now="2026-01-01T00:00:00Z")
    assert await intake.waiting(None, ctx, Reads()) == 0
