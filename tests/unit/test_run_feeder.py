"""The shared budget the feeders spend."""

from __future__ import annotations

from jobtracker.run.feeder import Budget


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
