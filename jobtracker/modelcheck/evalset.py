"""The labelled evaluation set shipped with the package (data/evalset.yaml).

Items are plain data: a task, an id, what a right answer is, and the fields the
task's unit is built from. `right()` is the one rule for every task: an answer's
label is right when it is in the item's accepted set. Judge items are labelled
`fit` (strong or good is right) or `misfit` (partial or poor is right): a clear
misfit rated `partial` still keeps it out of the top of the list.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import yaml

TASKS = ("level", "judge", "inbox")
JUDGE_GROUPS = {"fit": ("strong", "good"), "misfit": ("partial", "poor")}


@dataclass(frozen=True)
class EvalItem:
    task: str
    id: str
    expect: str                         # as labelled: a level, fit/misfit, a state
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def accepted(self) -> tuple[str, ...]:
        """The answer labels that count as right."""
        if self.task == "judge":
            return JUDGE_GROUPS[self.expect]
        return (self.expect,)

    def right(self, label: str) -> bool:
        return label in self.accepted


@dataclass(frozen=True)
class EvalSet:
    judge_profile: str
    items: tuple[EvalItem, ...]

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


def load() -> EvalSet:
    text = resources.files("jobtracker.modelcheck").joinpath("data", "evalset.yaml").read_text(
        encoding="utf-8")
    raw = yaml.safe_load(text)
    items = []
    for task in TASKS:
        for entry in raw.get(task) or ():
            fields = {k: v for k, v in entry.items() if k not in ("id", "expect")}
            items.append(EvalItem(task, str(entry["id"]), str(entry["expect"]), fields))
    return EvalSet(str(raw["judge_profile"]), tuple(items))
