"""Answers applied in listing order (`InOrder`), whichever unit finishes first."""

from __future__ import annotations

import asyncio
import random

from jobtracker.run.gate import InOrder


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


def test_is_next_says_whether_a_turn_would_wait() -> None:
    order = InOrder()
    for key in ("a", "b", "c"):
        order.take(key)
    assert [order.is_next(k) for k in "abc"] == [True, False, False]
    order.advance("b")                  # done out of order: "a" still goes first
    assert [order.is_next(k) for k in "ac"] == [True, False]
    order.advance("a")
    assert order.is_next("c")
