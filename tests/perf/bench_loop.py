"""The job loop's own cost, against a bare asyncio.Semaphore + gather, in one run.

    .venv/bin/python tests/perf/bench_loop.py [--jobs 20000] [--sleepers 2000]

Both sides call the same handler (done, run, follow_ups) for every job, so the
difference is what the loop adds: admission, per-job tasks, outcomes, events.
Printed: jobs/s and microseconds per job for each, the ratio, and for jobs that
sleep 20 ms at concurrency 8 the rate against the ideal 8 / 0.020 s = 400/s.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from jobtracker.workers.job import Job
from jobtracker.workers.loop import JobLoop
from jobtracker.workers.reporters import EventsFileReporter, QueueReporter

CONCURRENCY = 8


@dataclass(frozen=True)
class Noop:
    kind: str
    key: str
    label: str
    sleep: float = 0.0


class Handler:
    async def done(self, job: Noop) -> bool:
        return False

    async def run(self, job: Noop) -> str | None:
        if job.sleep:
            await asyncio.sleep(job.sleep)
        return "ok"

    async def follow_ups(self, job: Noop, result: str | None) -> list[Job]:
        return []


def make_jobs(n: int, sleep: float) -> list[Noop]:
    return [Noop("level", str(i), f"posting {i}", sleep) for i in range(n)]


async def bare_one(handler: Handler, limit: asyncio.Semaphore, job: Noop) -> str | None:
    async with limit:
        if await handler.done(job):
            return None
        result = await handler.run(job)
        await handler.follow_ups(job, result)
        return result


async def baseline(jobs: list[Noop]) -> float:
    handler, limit = Handler(), asyncio.Semaphore(CONCURRENCY)
    started = time.perf_counter()
    await asyncio.gather(*(bare_one(handler, limit, job) for job in jobs))
    return time.perf_counter() - started


async def with_loop(jobs: list[Noop], reporters: list) -> float:
    loop = JobLoop({"level": Handler()}, concurrency=CONCURRENCY, reporters=reporters)
    started = time.perf_counter()
    for job in jobs:
        loop.submit(job)
    outcomes = await loop.run()
    elapsed = time.perf_counter() - started
    assert len(outcomes) == len(jobs)
    return elapsed


def best_of(runs: int, make) -> float:
    """The fastest of a few runs: the least disturbed by the rest of the machine."""
    return min(asyncio.run(make()) for _ in range(runs))


def row(name: str, n: int, seconds: float, base: float | None = None) -> None:
    per_job = seconds / n * 1e6
    extra = ""
    if base is not None:
        extra = (f"  x{seconds / base:5.2f} of bare"
                 f"  (+{(seconds - base) / n * 1e6:5.1f} us/job)")
    print(f"  {name:<34} {n / seconds:10,.0f} jobs/s  {per_job:7.1f} us/job{extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=20_000)
    parser.add_argument("--sleepers", type=int, default=2_000)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()

    n = args.jobs
    noops = make_jobs(n, 0.0)
    print(f"{n:,} no-op jobs at concurrency {CONCURRENCY} (best of {args.runs}):")
    base = best_of(args.runs, lambda: baseline(noops))
    row("bare Semaphore + gather", n, base)
    row("JobLoop, no reporters", n, best_of(args.runs, lambda: with_loop(noops, [])), base)
    row("JobLoop, QueueReporter", n,
        best_of(args.runs, lambda: with_loop(noops, [QueueReporter()])), base)
    with tempfile.TemporaryDirectory() as tmp, \
            EventsFileReporter(Path(tmp) / "events.jsonl") as events:
        row("JobLoop, events.jsonl", n,
            best_of(args.runs, lambda: with_loop(noops, [events])), base)

    m = args.sleepers
    sleepers = make_jobs(m, 0.020)
    ideal = CONCURRENCY / 0.020
    print(f"\n{m:,} jobs sleeping 20 ms at concurrency {CONCURRENCY} "
          f"(ideal {ideal:.0f}/s, best of {args.runs}):")
    for name, make in [
        ("bare Semaphore + gather", lambda: baseline(sleepers)),
        ("JobLoop, no reporters", lambda: with_loop(sleepers, [])),
        ("JobLoop, QueueReporter", lambda: with_loop(sleepers, [QueueReporter()])),
    ]:
        seconds = best_of(args.runs, make)
        rate = m / seconds
        print(f"  {name:<34} {rate:10,.1f} jobs/s  {rate / ideal:6.1%} of ideal")


if __name__ == "__main__":
    main()
