"""The shared budget the feeders spend, and how a feeder checks again a unit that waited."""

from __future__ import annotations

from typing import Any, ClassVar, cast

from jobtracker.run.database import Database
from jobtracker.run.feeder import RECHECK_AFTER, Budget, Feeder
from jobtracker.run.ledger import Ledger
from jobtracker.tasks import Task, Unit
from jobtracker.telemetry import Telemetry


def test_budget_counts_what_each_task_spent_and_stop_closes_it() -> None:
    budget = Budget(3)
    for task in ("level", "judge", "level"):
        budget.spend(task)
    assert budget.used_up and budget.closed
    assert list(budget.spent) == ["level", "judge"] and budget.spent["level"] == 2
    unlimited = Budget(None)
    assert unlimited.allows(256) == 256 and not unlimited.closed
    unlimited.stop()
    assert unlimited.closed and not unlimited.used_up


# --- skip-on-done: a unit that waited is asked about again, many with one query ----------

class _Listed(Task):
    """A task whose pending units are a list the test edits (as another process would
    edit the database); it counts the queries asked of it."""

    name = "level"
    priority = 10
    summary = "test"
    system = "s"
    schema: ClassVar[dict[str, Any]] = {"type": "object"}

    def __init__(self, subjects: list[int]) -> None:
        self.subjects = subjects
        self.queries: list[tuple[int | None, int | str | None]] = []

    def unit(self, subject: int) -> Unit:
        return Unit("level", f"k{subject}", f"posting {subject}", subject)

    async def pending(self, conn: Any, ctx: Any, limit: int | None = None,
                      subject: int | str | None = None) -> list[Unit]:
        self.queries.append((limit, subject))
        units = [self.unit(s) for s in self.subjects if subject in (None, s)]
        return units[:limit] if limit is not None else units


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _feeder(task: _Listed) -> tuple[Feeder, _Clock]:
    db = Database(cast(Any, None))
    feeder = Feeder(task, db, cast(Any, None), cast(Any, None), Ledger(db), Budget(None),
                    Telemetry().tracer, low_water=4)
    clock = _Clock()
    feeder._clock = clock
    return feeder, clock


async def test_a_unit_listed_moments_ago_is_not_asked_about_again() -> None:
    task = _Listed([1, 2, 3])
    feeder, clock = _feeder(task)
    units = await feeder.next_batch()
    task.queries.clear()
    clock.now = RECHECK_AFTER / 2
    assert [await feeder.done(u) for u in units] == [False, False, False]
    assert task.queries == []


async def test_units_that_waited_are_checked_again_with_one_query_for_those_still_listed() -> None:
    task = _Listed(list(range(1, 11)))
    feeder, clock = _feeder(task)
    units = await feeder.next_batch()
    task.subjects.remove(4)          # answered (or dismissed) elsewhere while it waited
    task.queries.clear()
    clock.now = RECHECK_AFTER + 1
    done = [await feeder.done(u) for u in units]
    assert done == [u.subject == 4 for u in units]
    # One query for the nine still pending; the one that went is asked about again on
    # its own turn (it was not in the list, so it was not counted as listed anew).
    assert task.queries == [(10, None), (10, None)]
    # A skipped unit moves the in-order gate on, so the units behind it can apply.
    assert feeder.gate.open == 9


async def test_a_recheck_the_list_outgrew_asks_about_the_unit_itself() -> None:
    task = _Listed([5, 6])
    feeder, clock = _feeder(task)
    first, second = await feeder.next_batch()
    # Newer rows, stored by another process, now come first and fill the list's limit.
    task.subjects[:0] = [100, 101, 102]
    task.queries.clear()
    clock.now = RECHECK_AFTER + 1
    assert await feeder.done(first) is False
    assert task.queries == [(2, None), (None, 5)]
    task.subjects.remove(6)
    task.queries.clear()
    clock.now += RECHECK_AFTER + 1
    assert await feeder.done(second) is True
    assert task.queries == [(2, None), (None, 6)]
