"""The labelled evaluation items, read from the file each task declares.

A task that can be checked declares an `Evaluation` (jobtracker/tasks/base.py): the
YAML file of its items, the answer field they are scored on, and which answers a
label accepts. Items are plain data: a task, an id, what a right answer is, and the
fields the task builds its unit from (`Task.eval_unit`). `right()` is the one rule
for every task: an answer's label is right when it is in the item's accepted set.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import yaml

from jobtracker.tasks import Task


@dataclass(frozen=True)
class EvalItem:
    task: str
    id: str
    expect: str                         # the label the item was given
    accepted: tuple[str, ...]           # the answer labels that count as right
    fields: dict[str, Any] = field(default_factory=dict)

    def right(self, label: str) -> bool:
        return label in self.accepted


@dataclass(frozen=True)
class EvalSet:
    items: tuple[EvalItem, ...]
    # Task name → the profile prose its items were labelled for (tasks whose file has one).
    profiles: dict[str, str] = field(default_factory=dict)

    def for_tasks(self, tasks: list[str], per_task: int | None = None) -> list[EvalItem]:
        """The items of these tasks, in task order; at most `per_task` of each, spread
        over the labels (the first item of every label before the second of any)."""
        chosen: list[EvalItem] = []
        for name in tasks:
            items = [i for i in self.items if i.task == name]
            if per_task is not None:
                items = sorted(items, key=lambda i: _rank_within_label(items, i))[:per_task]
            chosen += items
        return chosen


def _rank_within_label(items: list[EvalItem], item: EvalItem) -> tuple[int, int]:
    same = [i for i in items if i.expect == item.expect]
    return same.index(item), items.index(item)


def checkable(tasks: Iterable[Task]) -> list[Task]:
    """The tasks that declare an evaluation, in the order given."""
    return [task for task in tasks if task.evaluation is not None]


def load(tasks: Iterable[Task]) -> EvalSet:
    """The items of every task given that declares an evaluation, in that order."""
    items: list[EvalItem] = []
    profiles: dict[str, str] = {}
    for task in checkable(tasks):
        evaluation = task.evaluation
        assert evaluation is not None
        raw = yaml.safe_load(evaluation.items.read_text(encoding="utf-8")) or {}
        if raw.get("profile") is not None:
            profiles[task.name] = str(raw["profile"])
        for entry in raw.get("items") or ():
            expect = str(entry["expect"])
            fields = {k: v for k, v in entry.items() if k not in ("id", "expect")}
            items.append(EvalItem(task.name, str(entry["id"]), expect,
                                  evaluation.accepted(expect), fields))
    return EvalSet(tuple(items), profiles)
