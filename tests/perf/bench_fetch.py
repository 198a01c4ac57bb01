"""Benchmark: 300 boards × 100 postings fetched, parsed and upserted (target: under 30 s).

Run from the repository root:

    .venv/bin/python tests/perf/bench_fetch.py [--boards 300] [--postings 100] [--mix]

The boards are served by tests/servers/bench_boards.py in a separate process (so
the server does not share the fetcher's CPU time slice or GIL), each a
Greenhouse-shaped response with ~3 KB HTML descriptions; with `--mix`, board i has
the i-th of all twelve source shapes in turn (paging, POSTs and per-job description
requests included). Three passes are timed against one database:

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
sys.path.insert(0, str(ROOT / "tests"))

from servers.bench_boards import mix_address  # noqa: E402

from jobtracker import store  # noqa: E402
from jobtracker.config import Board, Sources  # noqa: E402
from jobtracker.postings.fetch import fetch_all, make_client  # noqa: E402

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


def bench_sources(base: str, boards: int, mix: bool) -> Sources:
    if not mix:
        return Sources(boards=tuple(Board("greenhouse", f"bench{i}", f"Company {i}",
                                          f"{base}{i}") for i in range(boards)))
    return Sources(boards=tuple(
        Board(ats, f"bench{i}" if ats != "workday" else f"t{i}.wd1/s", f"Company {i}", url)
        for i in range(boards) for ats, url in [mix_address(base, i)]))


async def run(boards: int, postings: int, mix: bool) -> None:
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "servers" / "bench_boards.py"),
         "--boards", str(boards), "--postings", str(postings), *(["--mix"] if mix else [])],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        base = server.stdout.readline().strip()
        sources = bench_sources(base, boards, mix)
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "bench.db"
            shapes = "every source shape in turn" if mix else "Greenhouse shape"
            print(f"{boards} boards x {postings} postings ({shapes}), served from {base}")
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
    parser.add_argument("--mix", action="store_true",
                        help="board i gets the i-th of every source shape in turn")
    args = parser.parse_args()
    asyncio.run(run(args.boards, args.postings, args.mix))


if __name__ == "__main__":
    main()
