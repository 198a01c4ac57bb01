"""Benchmark: loop saturation with every apply and commit (issue 4, design-notes).

2,000 level units against the loopback model server answering in 20 ms, at
concurrency 8: the ideal is 8 / 0.020 s = 400 units/s. Prints the achieved rate
and its ratio to the ideal (target >= 0.95), and peak RSS.
Run: .venv/bin/python tests/perf/bench_work.py [units] [concurrency] [latency]
"""

from __future__ import annotations

import asyncio
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jobtracker import runner, store
from jobtracker.workspace import Workspace
from tests.db import raw_connect

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


def seed(ws: Workspace, count: int) -> None:
    asyncio.run(_create(ws))
    with raw_connect(ws.db) as conn:
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


def main() -> None:
    units = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    concurrency = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    latency = float(sys.argv[3]) if len(sys.argv) > 3 else 0.020
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(latency)], text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert server.stdout is not None and server.stdin is not None
    url = server.stdout.readline().strip()
    try:
        bare = asyncio.run(bare_client(url, units, concurrency))
        rate = run(url, units, concurrency, latency)
        ideal = concurrency / latency
        print(f"bare httpx + Semaphore + gather, same server, same run: {bare:.0f}/s "
              f"(ratio to ideal {bare / ideal:.3f})")
        print(f"runner / bare client: {rate / bare:.3f}  (what the loop, SQLite, events and "
              f"apply cost on top of the HTTP calls themselves)")
    finally:
        server.stdin.close()
        server.wait(10)


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


def run(url: str, units: int, concurrency: int, latency: float) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace(Path(tmp) / "home")
        ws.init()
        (ws.home / "profile.yaml").write_text("prose: x\nlevels: [senior]\n")
        (ws.home / "plugins.yaml").write_text(
            "tasks: {level: true, judge: false, inbox: false, tailor: false}\n")
        (ws.home / "config.yaml").write_text(
            f"llm: {{url: '{url}', model: test-model}}\nconcurrency: {concurrency}\n")
        seed(ws, units)
        setup = runner.load_setup(ws)
        started = time.perf_counter()
        result = asyncio.run(runner.work(setup, runner.RunOptions()))
        elapsed = time.perf_counter() - started
    ideal = concurrency / latency
    rate = result.counts["finished"] / elapsed
    print(f"{result.counts['finished']:,} units finished, {result.counts['failed']} failed "
          f"in {elapsed:.2f} s (whole run: lease, probe, survey, apply, commit)")
    print(f"rate {rate:.0f}/s vs ideal {ideal:.0f}/s: ratio {rate / ideal:.3f} (target >= 0.95)")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {rss:.0f} MB")
    return rate


if __name__ == "__main__":
    main()
