"""What the TUI costs a run, and how it answers keys under a flood of events.

    .venv/bin/python tests/perf/bench_tui.py [--units 2000] [--latency 0.020] [--flood 5000]
        [--rounds 3]        (--flood 0 skips part 2)

1. The same level run (`--units` postings, `--latency` s per answer, concurrency 8)
   headless — the runner with the plain-line reporter, as `jobtracker-tui --run`
   does — and inside the app (`App.run_test`, headless driver, the dashboard
   refreshing as it does for a person), alternating, `--rounds` times each, against a
   model server in its own process. Printed: seconds, units/s, CPU seconds, the
   ratio of the best wall times (target: at most 1.10) and of the best CPU times
   (what the UI adds, less exposed to a shared machine's noise).
2. The dashboard under `--flood` events per second for a few seconds (synthetic
   events straight into the app's reporter): the time from a key press reaching the
   app to its action having run (target: within 100 ms), and the process's RSS at
   the start, middle and end of the flood (target: flat).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from textual import events  # noqa: E402

from jobtracker import runner  # noqa: E402
from jobtracker.workers.reporters import PlainLineReporter  # noqa: E402
from tests.tui.fixtures import make_workspace, seed_postings  # noqa: E402
from tui.app import JobtrackerApp  # noqa: E402
from tui.widgets.eventlog import EventLog  # noqa: E402

CONCURRENCY = 8


# The model server runs in its own process, as a real one would: in this process its
# thread would compete with the app for the GIL, and the ratio would measure that too.
SERVER = """
import sys
from tests.servers.model import ModelServer
answer = {"level": "senior", "reason": "stated"}
with ModelServer(answer=lambda body: answer, latency=float(sys.argv[1]), record=False) as srv:
    print(srv.url, flush=True)
    sys.stdin.read()
"""


def workspace(base: Path, name: str, url: str, units: int) -> runner.Setup:
    ws = make_workspace(base / name, url, concurrency=CONCURRENCY)
    seed_postings(ws.db, units)
    return runner.load_setup(ws, runner.RunOptions(continuous=True))


async def headless(setup: runner.Setup) -> tuple[float, float, int]:
    started, cpu = time.perf_counter(), time.process_time()
    result = await runner.work(setup, runner.RunOptions(continuous=True),
                               reporters=[PlainLineReporter(io.StringIO())])
    return (time.perf_counter() - started, time.process_time() - cpu,
            result.counts["finished"])


async def in_tui(setup: runner.Setup) -> tuple[float, float, int]:
    app = JobtrackerApp(setup)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause(0.2)
        started, cpu = time.perf_counter(), time.process_time()
        app.start_run()
        while app.last_result is None:
            await asyncio.sleep(0.01)
        elapsed, used = time.perf_counter() - started, time.process_time() - cpu
        finished = app.last_result.counts["finished"]
    return elapsed, used, finished


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * 4096 / 2**20


async def flood(app: JobtrackerApp, rate: int, seconds: float) -> None:
    """`rate` events a second into the app's reporter, in 10 ms batches, as a run's
    loop would emit them (start, progress, finish for each unit)."""
    from jobtracker.workers.events import JobFinished, JobProgress, JobStarted

    batch = max(rate // 100, 1)
    kinds = ("level", "judge")
    n = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        for _ in range(batch // 3 + 1):
            kind = kinds[n % 2]
            label = f"Company {n} — Engineer {n}"
            key = f"p{n}:h"
            app.live.emit(JobStarted(job=label, kind=kind, key=key))
            app.live.emit(JobProgress(job=label, kind=kind, key=key, phase="asking"))
            app.live.emit(JobFinished(job=label, kind=kind, key=key, result="senior",
                                      elapsed=0.02))
            n += 1
        await asyncio.sleep(0.01)


async def key_latency(rate: int, seconds: float, base: Path) -> None:
    setup = workspace(base, "flood", "http://127.0.0.1:9", 0)
    app = JobtrackerApp(setup)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause(0.3)
        log = app.screen.query_one(EventLog)
        task = asyncio.create_task(flood(app, rate, seconds))
        latencies, memory = [], [rss_mb()]
        await asyncio.sleep(0.5)
        while not task.done():
            before = log.only
            pressed = time.perf_counter()
            app.post_message(events.Key("f", "f"))
            while log.only == before and not task.done():
                await asyncio.sleep(0.001)
            latencies.append(time.perf_counter() - pressed)
            if len(latencies) % 10 == 0:
                memory.append(rss_mb())
            await asyncio.sleep(0.1)
        await task
        memory.append(rss_mb())
    ms = sorted(x * 1000 for x in latencies)
    print(f"key press under {rate:,} events/s for {seconds:.0f} s: {len(ms)} presses, "
          f"median {statistics.median(ms):.1f} ms, p95 {ms[int(len(ms) * 0.95) - 1]:.1f} ms, "
          f"max {ms[-1]:.1f} ms (target: within 100 ms)")
    print(f"RSS during the flood: start {memory[0]:.1f} MB, middle "
          f"{memory[len(memory) // 2]:.1f} MB, end {memory[-1]:.1f} MB (target: flat)")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=2000)
    parser.add_argument("--latency", type=float, default=0.020)
    parser.add_argument("--flood", type=int, default=5000)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(args.latency)], text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT)
    assert server.stdout is not None and server.stdin is not None
    url = server.stdout.readline().strip()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            base = Path(tmp)
            # Alternate, so a warming machine favours neither side.
            timings: dict[str, list[tuple[float, float]]] = {"headless": [], "tui": []}
            for round_ in range(args.rounds):
                for name, run in (("headless", headless), ("tui", in_tui)):
                    setup = workspace(base, f"{name}{round_}", url, args.units)
                    seconds, cpu, finished = await run(setup)
                    assert finished == args.units, (name, finished)
                    timings[name].append((seconds, cpu))
                    print(f"{name:<8} round {round_ + 1}: {args.units} units in {seconds:.2f} s "
                          f"({args.units / seconds:.0f}/s; ideal "
                          f"{CONCURRENCY / args.latency:.0f}/s), CPU {cpu:.2f} s")
            head = min(s for s, _ in timings["headless"])
            tui = min(s for s, _ in timings["tui"])
            print(f"TUI / headless (best of {args.rounds} each): {tui / head:.3f} "
                  "(target: at most 1.10)")
            head_cpu = min(c for _, c in timings["headless"])
            tui_cpu = min(c for _, c in timings["tui"])
            # CPU seconds of this process (the runner and the app; the server is apart):
            # what the UI adds, with less of the machine's noise than wall time.
            print(f"CPU, TUI / headless (best of {args.rounds} each): {tui_cpu / head_cpu:.3f} "
                  f"({tui_cpu - head_cpu:+.2f} s for the UI)")
            if args.flood:
                await key_latency(args.flood, args.seconds, base)
    finally:
        server.stdin.close()
        server.wait(10)


if __name__ == "__main__":
    asyncio.run(main())
