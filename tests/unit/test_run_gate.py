"""Runner pieces with no I/O: queue formatting, task choice, in-order apply, the budget."""

from __future__ import annotations

import asyncio
import random

from jobtracker.run.feeder import Budget
from jobtracker.run.gate import InOrder
from jobtracker.run.headless import format_queue
from jobtracker.runner import TaskState, choose

STATES = [
    TaskState("level", 10, "read descriptions to settle UNCERTAIN postings", pending=2314),
    TaskState("judge", 20, "judge open matches against profile.yaml"),
    TaskState("inbox", 40, "read replies from employers and propose updates",
              reason="no maildir configured"),
]


def test_queue_layout_matches_the_contract() -> None:
    assert format_queue(STATES, choose(STATES)) == "\n".join([
        "Task queue, in the order the scheduler considers it:",
        "",
        "   10  level      2,314 pending",
        "                  read descriptions to settle UNCERTAIN postings",
        "   20  judge      nothing to do",
        "                  judge open matches against profile.yaml",
        "   40  inbox      unavailable — no maildir configured",
        "                  read replies from employers and propose updates",
        "",
        "Would work: level (2314 unit(s))",
    ])


def test_queue_columns_widen_for_a_task_name_longer_than_ten_characters() -> None:
    states = [*STATES, TaskState("coverletter", 60, "draft cover letters", pending=3)]
    lines = format_queue(states, None).splitlines()
    # Every state starts in one column, and every summary in the column after the names.
    state_at = {line.index(word) for line, word in zip(
        lines[2:10:2], ["2,314", "nothing", "unavailable", "3 pending"], strict=True)}
    summary_at = {len(line) - len(line.lstrip()) for line in lines[3:11:2]}
    assert state_at == summary_at == {len("   60  coverletter ")}


def test_set_aside_is_added_to_the_state() -> None:
    assert TaskState("judge", 20, "", pending=0, set_aside=2).describe() == \
        "nothing to do, 2 set aside"
    assert TaskState("judge", 20, "", pending=5, set_aside=1).describe() == \
        "5 pending, 1 set aside"


def test_choose_prefers_pipeline_order_and_honours_a_pin() -> None:
    states = [TaskState("level", 10, "", pending=0), TaskState("judge", 20, "", pending=3),
              TaskState("inbox", 40, "", pending=9)]
    assert choose(states).name == "judge"
    assert choose(states, "inbox").name == "inbox"
    assert choose(states, "level") is None
    assert format_queue(states[:1], None).endswith("Would work: nothing")


async def test_in_order_applies_in_submission_order_whatever_finishes_first() -> None:
    order = InOrder()
    keys = [f"u{i}" for i in range(20)]
    for key in keys:
        order.take(key)
    applied: list[str] = []

    async def unit(key: str) -> None:
        await asyncio.sleep(random.random() / 100)   # answers come back in any order
        await order.turn(key)
        applied.append(key)
        order.advance(key)

    await asyncio.wait_for(asyncio.gather(*(unit(k) for k in keys)), 5)
    assert applied == keys


async def test_in_order_a_skipped_number_does_not_block_the_rest() -> None:
    order = InOrder()
    for key in ("a", "b", "c"):
        order.take(key)
    order.advance("a")            # failed or skipped before its turn
    await asyncio.wait_for(order.turn("b"), 1)
    order.advance("b")
    await asyncio.wait_for(order.turn("c"), 1)
    assert order.open == 1


async def test_in_order_advance_starts_no_task_and_wakes_the_next_unit() -> None:
    order = InOrder()
    for key in ("a", "b"):
        order.take(key)
    waiting = asyncio.ensure_future(order.turn("b"))
    await asyncio.sleep(0)
    assert not waiting.done()
    before = asyncio.all_tasks()
    order.advance("a")
    assert asyncio.all_tasks() == before     # nothing fired and forgotten
    await asyncio.wait_for(waiting, 1)


async def test_in_order_a_cancelled_waiter_does_not_hold_up_the_rest() -> None:
    order = InOrder()
    for key in ("a", "b", "c"):
        order.take(key)
    waiting = asyncio.ensure_future(order.turn("b"))
    await asyncio.sleep(0)
    waiting.cancel()
    order.advance("b")            # its finally block still advances
    order.advance("a")
    await asyncio.wait_for(order.turn("c"), 1)
    assert order.open == 1


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
