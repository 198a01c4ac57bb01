"""A job type and a handler for the loop's tests: plain data, and a recorder of what ran.

There is no real job here on purpose: the loop's rules are shown with the
smallest job that can do each thing (sleep, fail in one step, be done already,
hand on follow-ups), and a handler that records order and peak concurrency.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from jobtracker.workers.events import EventType, report


@dataclass(frozen=True)
class Step:
    """A job as plain JSON-safe data. `then` holds follow-ups, as plain dicts too."""

    kind: str
    key: str
    label: str = ""
    sleep: float = 0.0
    fail_in: str = ""          # "done", "run" or "follow_ups": that step raises
    already_done: bool = False
    result: str | None = "ok"
    then: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Step:
        return cls(**raw)


class Recorder:
    """A handler for every kind: does what each Step says and records it."""

    def __init__(self) -> None:
        self.started: list[str] = []          # keys, in the order run() began
        self.ran = Counter[str]()             # run() calls per key
        self.running = Counter[str]()         # per kind, now
        self.peak = Counter[str]()            # per kind, and "*" for all kinds
        self.cancelled: list[str] = []
        self.gates: dict[str, asyncio.Event] = {}   # run() waits on its key's gate

    def gate(self, key: str) -> asyncio.Event:
        return self.gates.setdefault(key, asyncio.Event())

    async def done(self, job: Step) -> bool:
        if job.fail_in == "done":
            raise OSError("cannot read the store")
        return job.already_done

    async def run(self, job: Step) -> str | None:
        self.started.append(job.key)
        self.ran[job.key] += 1
        self.running[job.kind] += 1
        self.peak[job.kind] = max(self.peak[job.kind], self.running[job.kind])
        total = sum(self.running.values())
        self.peak["*"] = max(self.peak["*"], total)
        try:
            report(EventType.JOB_PROGRESS, phase=f"asking {job.key}")
            if job.key in self.gates:
                await self.gates[job.key].wait()
            await asyncio.sleep(job.sleep)
            if job.fail_in == "run":
                raise ValueError(f"answer off schema for {job.key}")
            return job.result
        except asyncio.CancelledError:
            self.cancelled.append(job.key)
            raise
        finally:
            self.running[job.kind] -= 1

    async def follow_ups(self, job: Step, result: str | None) -> list[Step]:
        if job.fail_in == "follow_ups":
            raise KeyError("posting 7")
        return [Step.from_json(raw) for raw in job.then]


class Collect:
    """A reporter that keeps every event."""

    def __init__(self) -> None:
        self.events: list[Any] = []

    def emit(self, event: Any) -> None:
        self.events.append(event)

    def of(self, type: EventType) -> list[Any]:
        return [e for e in self.events if e.type == type]


async def wait_until(predicate: Any, timeout: float = 2.0) -> None:
    """Let the loop run until `predicate()` holds (fails the test after `timeout`)."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.001)
