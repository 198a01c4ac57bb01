"""Applying answers in the order units were listed, whatever order they come back in."""

from __future__ import annotations

import asyncio


class InOrder:
    """Lets units apply in the order they were submitted, one task at a time.

    Each submitted unit takes a number. A unit whose answer is ready waits for
    its `turn()`; `advance()` — called exactly once per number, whatever became
    of the unit — lets the next one go. The loop admits a task's units in
    submission order, so the lowest open number is always in flight: waiting
    never deadlocks. A unit with its answer gives its loop slot up while it waits
    (`workers.loop.release_slot`); the loop holds at most `concurrency` such answers.

    `advance()` is synchronous and starts no task: it runs in `finally` blocks,
    cancelled ones too, and wakes the next unit by setting that number's event.
    """

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}
        self._next = 0
        self._done: set[int] = set()
        self._turns: dict[int, asyncio.Event] = {}   # numbers waiting in turn()

    def take(self, key: str) -> None:
        self.numbers[key] = len(self.numbers)

    def __contains__(self, key: object) -> bool:
        return key in self.numbers

    def __len__(self) -> int:
        """Units numbered so far."""
        return len(self.numbers)

    @property
    def open(self) -> int:
        """Units numbered and not yet advanced past."""
        return len(self.numbers) - self._next - len(self._done)

    def is_next(self, key: str) -> bool:
        """Whether `turn(key)` would return at once."""
        return self.numbers[key] == self._next

    async def turn(self, key: str) -> None:
        number = self.numbers[key]
        if number == self._next:
            return
        # Only this unit's own advance() moves past its number, so once the event is
        # set, `_next == number` still holds when the waiter runs.
        await self._turns.setdefault(number, asyncio.Event()).wait()

    def advance(self, key: str) -> None:
        self._done.add(self.numbers[key])
        while self._next in self._done:
            self._done.discard(self._next)
            self._turns.pop(self._next, None)   # a waiter cancelled before its turn
            self._next += 1
        waiting = self._turns.pop(self._next, None)
        if waiting is not None:
            waiting.set()
