"""A job that has what it needed from its slot (the model's answer) gives it up
(`release_slot`): the loop starts the next job while this one waits to write, and
holds at most `concurrency` such jobs."""

from __future__ import annotations

import asyncio

from workers_fakes import Step, wait_until

from jobtracker.workers.job import Status
from jobtracker.workers.loop import JobLoop, release_slot


class _Writer:
    """Each job "asks" (counted), gives its slot up, then waits for `turn` to "write"."""

    def __init__(self) -> None:
        self.asking = 0
        self.peak_asking = 0
        self.started: list[str] = []
        self.released: dict[str, bool] = {}
        self.turn = asyncio.Event()

    async def done(self, job: Step) -> bool:
        return False

    async def run(self, job: Step) -> str:
        self.started.append(job.key)
        self.asking += 1
        self.peak_asking = max(self.peak_asking, self.asking)
        await asyncio.sleep(0)
        self.asking -= 1
        self.released[job.key] = release_slot()
        await self.turn.wait()
        return "ok"

    async def follow_ups(self, job: Step, result: str | None) -> list[Step]:
        return []


async def test_a_released_slot_starts_the_next_job_and_at_most_the_cap_are_held() -> None:
    writer = _Writer()
    loop = JobLoop({"level": writer}, concurrency=2)
    for n in range(6):
        loop.submit(Step("level", f"u{n}"))
    running = asyncio.create_task(loop.run())
    # u0 and u1 give their slots up; u2 and u3 take them, find two held and keep them.
    await wait_until(lambda: len(writer.released) == 4)
    await asyncio.sleep(0.01)          # nothing more starts while the four wait
    assert writer.started == ["u0", "u1", "u2", "u3"]
    assert writer.released == {"u0": True, "u1": True, "u2": False, "u3": False}
    assert loop.counts["running"] == 4 and loop.counts["waiting"] == 2
    writer.turn.set()
    outcomes = await running
    assert [o.status for o in outcomes] == [Status.FINISHED] * 6
    assert writer.peak_asking <= 2
    assert loop.counts["running"] == 0


async def test_a_held_job_does_not_count_against_its_kinds_cap() -> None:
    writer = _Writer()
    loop = JobLoop({"level": writer, "judge": writer}, concurrency=4, caps={"level": 1})
    for n in range(3):
        loop.submit(Step("level", f"l{n}"))
    running = asyncio.create_task(loop.run())
    await wait_until(lambda: len(writer.released) == 3)
    assert all(writer.released.values())      # each gave its one level slot to the next
    writer.turn.set()
    assert len(await running) == 3


async def test_release_outside_a_job_or_without_a_cap_changes_nothing() -> None:
    assert release_slot() is False
    writer = _Writer()
    loop = JobLoop({"level": writer}, concurrency=None)
    loop.submit(Step("level", "u0"))
    writer.turn.set()
    await loop.run()
    assert writer.released == {"u0": False}
