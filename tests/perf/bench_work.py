"""Benchmark: loop saturation with every apply and commit (issues 4 and 41).

2,000 level units against the loopback model server answering in 20 ms, at
concurrency 8: the ideal is 8 / 0.020 s = 400 units/s. In this process, rounds
alternate between a bare httpx client (Semaphore + gather, the same calls) and
`runner.work`, on the same server; each side's best round counts. Prints both
rates, the ratio of the run to the bare client (target >= 0.97, issue 41) and to
the ideal, the CPU time of each (user + system of this process, which load
changes least), and peak RSS. `jobtracker work` as a process, start-up
included: tests/perf/bench_work_process.py.
Run: .venv/bin/python tests/perf/bench_work.py [units] [concurrency] [latency] [rounds]
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from jobtracker import runner, store
from jobtracker.workspace import Workspace
from tests.db import raw_connect
from tests.perf.bench_startup import make_home

# The model server runs in its own process, as a real one would: in this process it
# would compete with the client for the GIL and the measurement would be of both.
SERVER = """
import sys
from tests.servers.model import ModelServer
answer = {"level": "senior", "reason": "stated"}
with ModelServer(answer=lambda body: answer, latency=float(sys.argv[1]), record=False) as srv:
    print(srv.url, flush=True)
    sys.stdin.read()
"""


def seed(db: Path, count: int) -> None:
    """`count` postings of one board, each a level unit (a title that names no level),
    written with plain SQL into a database already migrated."""
    with raw_connect(db) as conn:
        conn.execute("INSERT INTO boards (id, source, token, company) "
                     "VALUES (1, 'greenhouse', 'acme', 'Acme')")
        conn.executemany(
            "INSERT INTO postings (id, board_id, external_id, company, title, location, "
            "description, first_seen, last_seen) VALUES (?, 1, ?, 'Acme', ?, 'Remote', ?, "
            "'2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z')",
            [(i, f"e{i}", f"Engineer {i}", f"Posting {i}. " + "We build things. " * 150)
             for i in range(1, count + 1)])


async def _create(ws: Workspace) -> None:
    async with store.connect(ws.db):
        pass


TARGET = 0.97   # of the bare client, in process (issue 41)


def level_workspace(home: Path, url: str, units: int, concurrency: int,
                    tree: Path | None = None) -> Workspace:
    """A workspace at `home` with only the level task on, `units` postings waiting for it
    and the model server at `url`. With `tree`, the package unpacked there makes it in
    processes of its own (its `init`, then its migrations, through `work --dry-run`): an
    older tree refuses a database that this one has migrated further."""
    ws = Workspace(home)
    if tree is None:
        ws.init()
    else:   # the board it lists is never fetched: `work` asks only the model
        make_home(tree, home, url)
    (ws.home / "profile.yaml").write_text("prose: x\nlevels: [senior]\n")
    (ws.home / "plugins.yaml").write_text(
        "tasks: {level: true, judge: false, inbox: false, tailor: false}\n")
    (ws.home / "config.yaml").write_text(
        f"llm: {{url: '{url}', model: test-model}}\nconcurrency: {concurrency}\n")
    if tree is None:
        asyncio.run(_create(ws))
    else:
        subprocess.run([sys.executable, "-m", "jobtracker", "--home", str(home), "work",
                        "--dry-run"], check=True, capture_output=True, cwd=tree)
    seed(ws.db, units)
    return ws


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    units = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    concurrency = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    latency = float(sys.argv[3]) if len(sys.argv) > 3 else 0.020
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(latency)], text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert server.stdout is not None and server.stdin is not None
    url = server.stdout.readline().strip()
    best: dict[str, tuple[float, float]] = {}
    try:
        for number in range(rounds):
            sides = ("bare", "run") if number % 2 == 0 else ("run", "bare")
            for side in sides:
                if side == "bare":
                    cpu = cpu_seconds()
                    rate = asyncio.run(bare_client(url, units, concurrency))
                    cpu = cpu_seconds() - cpu
                else:
                    rate, cpu = run(url, units, concurrency)
                print(f"round {number + 1} {side:<4} {rate:4.0f}/s  cpu {cpu:5.2f} s", flush=True)
                rate_before, cpu_before = best.get(side, (0.0, float("inf")))
                best[side] = (max(rate, rate_before), min(cpu, cpu_before))
    finally:
        server.stdin.close()
        server.wait(10)
    ideal = concurrency / latency
    (bare, bare_cpu), (rate, run_cpu) = best["bare"], best["run"]
    print(f"\nbest of {rounds}: bare httpx + Semaphore + gather {bare:.0f}/s "
          f"({bare / ideal:.3f} of the ideal {ideal:.0f}/s), cpu {bare_cpu:.2f} s")
    print(f"best of {rounds}: runner.work {rate:.0f}/s ({rate / ideal:.3f} of the ideal), "
          f"cpu {run_cpu:.2f} s (the run's work only; setup and seeding excluded)")
    print(f"runner / bare client: {rate / bare:.3f}  (what the loop, SQLite, events and "
          f"apply cost on top of the HTTP calls themselves); cpu +{run_cpu - bare_cpu:.2f} s")
    print(f"target: in process >= {TARGET} of the bare client: ratio {rate / bare:.3f} — "
          f"{'met' if rate / bare >= TARGET else 'NOT met'}")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {rss:.0f} MB")


async def bare_client(url: str, units: int, concurrency: int) -> float:
    """The same chat calls with nothing around them: the baseline for this machine now."""
    import httpx

    body = {"model": "test-model", "temperature": 0, "max_tokens": 512,
            "messages": [{"role": "user", "content": "Posting. " + "We build things. " * 150}],
            "response_format": {"type": "json_schema", "json_schema": {
                "name": "level", "strict": True, "schema": {"type": "object"}}}}
    limit = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient() as client:
        async def one() -> None:
            async with limit:
                response = await client.post(f"{url}/chat/completions", json=body)
                response.json()
        started = time.perf_counter()
        await asyncio.gather(*(one() for _ in range(units)))
        return units / (time.perf_counter() - started)


def run(url: str, units: int, concurrency: int) -> tuple[float, float]:
    """(units/s, CPU seconds) of one runner.work over a fresh seeded workspace."""
    with tempfile.TemporaryDirectory() as tmp:
        ws = level_workspace(Path(tmp) / "home", url, units, concurrency)
        setup = runner.load_setup(ws)
        cpu = cpu_seconds()
        started = time.perf_counter()
        with counting_exchanges() as exchanges:
            result = asyncio.run(runner.work(setup, runner.RunOptions()))
        elapsed = time.perf_counter() - started
        cpu = cpu_seconds() - cpu
    if result.counts["finished"] != units:
        raise SystemExit(f"{result.counts['finished']} of {units} units finished "
                         f"({result.counts['failed']} failed)")
    # The whole run: lease, probe, survey, apply, commit.
    # A figure load does not change: how often each unit waited on the database thread.
    print(f"  {exchanges[0] / units:.2f} exchanges with aiosqlite's thread per unit "
          f"({exchanges[0]:,} in the run)")
    return result.counts["finished"] / elapsed, cpu


@contextlib.contextmanager
def counting_exchanges() -> Iterator[list[int]]:
    """Counts the calls handed to aiosqlite's thread (its private `_execute`, through
    which every statement, fetch and commit passes) while the block runs."""
    import aiosqlite

    seen = [0]
    real: Any = aiosqlite.Connection._execute

    async def counted(self: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        seen[0] += 1
        return await real(self, fn, *args, **kwargs)

    aiosqlite.Connection._execute = counted  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        aiosqlite.Connection._execute = real  # type: ignore[method-assign]


if __name__ == "__main__":
    main()
