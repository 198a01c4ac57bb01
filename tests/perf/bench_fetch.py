"""Benchmark: 300 boards × 100 postings fetched, parsed and upserted (target: under 30 s).

Run from the repository root:

    .venv/bin/python tests/perf/bench_fetch.py [--boards 300] [--postings 100]

The boards are served by tests/servers/boards.py in a separate process (so the
server does not share the fetcher's CPU time slice or GIL), each a Greenhouse-shaped
response with ~3 KB HTML descriptions. Three passes are timed against one database:

- first:   every posting is new (insert)
- again:   conditional requests, every board answers 304 Not Modified
- changed: a fresh database-side validator mismatch forces full bodies, every posting
           is compared and left unchanged (the cost of a routine daily fetch)
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from jobtracker import store  # noqa: E402
from jobtracker.config import Board, Sources  # noqa: E402
from jobtracker.fetch import fetch_all, make_client  # noqa: E402

TARGET_SECONDS = 30.0


async def timed_pass(db: Path, sources: Sources) -> tuple[float, list]:
    async with store.connect(db) as conn, make_client() as client:
        started = time.perf_counter()
        results = await fetch_all(conn, sources, client)
        return time.perf_counter() - started, results


async def forget_validators(db: Path) -> None:
    async with store.connect(db) as conn, store.write(conn):
        await conn.execute("UPDATE boards SET etag = NULL, last_modified = NULL")


async def count_postings(db: Path) -> int:
    async with store.connect(db) as conn:
        return (await (await conn.execute("SELECT count(*) FROM postings")).fetchone())[0]


def report(label: str, seconds: float, results: list) -> None:
    failed = sum(not r.ok for r in results)
    new = sum(r.new for r in results)
    unchanged = sum(r.unchanged for r in results)
    print(f"{label:<8} {seconds:7.2f} s   ratio to the {TARGET_SECONDS:.0f} s target: "
          f"{seconds / TARGET_SECONDS:5.2f}   new {new}, unchanged {unchanged}, "
          f"failed {failed}")


async def run(boards: int, postings: int) -> None:
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "servers" / "bench_boards.py"),
         "--boards", str(boards), "--postings", str(postings)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        base = server.stdout.readline().strip()
        sources = Sources(boards=tuple(
            Board("greenhouse", f"bench{i}", f"Company {i}", f"{base}{i}")
            for i in range(boards)))
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "bench.db"
            print(f"{boards} boards x {postings} postings, served from {base}")
            seconds, results = await timed_pass(db, sources)
            report("first", seconds, results)
            print(f"         {await count_postings(db)} postings stored")
            seconds, results = await timed_pass(db, sources)
            report("again", seconds, results)
            await forget_validators(db)
            seconds, results = await timed_pass(db, sources)
            report("changed", seconds, results)
    finally:
        assert server.stdin is not None
        server.stdin.close()
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--postings", type=int, default=100)
    args = parser.parse_args()
    asyncio.run(run(args.boards, args.postings))


if __name__ == "__main__":
    main()
